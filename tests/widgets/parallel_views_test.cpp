// Qt Test: the parallel-plan views' logic and widgets on a 4-layer BERT on 2x8xH100-IB — the
// plan edits (gp::pedit), the timeline's rows and bubbles against the simulated bubble share,
// the history's entries, the layer stack's boundary drag, the mesh's tensor-parallel groups, the
// memory bars and the controls' choices.
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <cstdint>

#include "cluster/cluster.h"
#include "device_colors.h"
#include "io/model_loader.h"
#include "panels/memory_bar.h"
#include "parallel/device_memory_panel.h"
#include "parallel/layer_stack_view.h"
#include "parallel/mesh_view.h"
#include "panels/device_tree_view.h"
#include "parallel/parallel_controls.h"
#include "parallel/parallel_edits.h"
#include "parallel/parallel_format.h"
#include "parallel/parallel_history_model.h"
#include "parallel/plan_knobs.h"
#include "parallel/parallel_task.h"
#include "parallel/pipeline_rows.h"

using namespace gp;

namespace {

// BERT-base cut to 4 layers, as the Parallel Plan window loads it (forward graph, bf16, batch 1).
std::unique_ptr<ParallelTask> bertTask() {
  LoadOptions lo;
  lo.mode = GraphMode::Inference;
  lo.precision = Precision::BF16;
  lo.zoo.batch = 1;
  lo.zoo.layers = 4;
  return std::make_unique<ParallelTask>(loadModel("zoo:bert_base", lo), loadCluster("2x8xH100-IB"), 64,
                                        "zoo:bert_base");
}

ParallelPlan pipelinePlan(int dp, int tp, int pp, int m) {
  ParallelPlan p;
  p.dp = dp;
  p.tp = tp;
  p.pp = pp;
  p.microbatches = m;
  p.stages = evenStages(4, pp);
  return p;
}

}  // namespace

class ParallelViewsTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void planEdits() {
    using namespace pedit;
    const ParallelPlan start = startPlan(16, 4, 100);
    QCOMPARE(start.dp, 16);  // every device (100 samples do not divide: the plan rule says so)
    QCOMPARE(start.stages.size(), size_t{1});
    QCOMPARE(microbatchChoices(256, 16), (std::vector<int>{1, 2, 4, 8, 16}));
    QVERIFY(microbatchChoices(100, 16).empty());
    QCOMPARE(degreeChoices(16, 16), (std::vector<int>{1, 2, 4, 8, 16}));
    QCOMPARE(degreeChoices(16, 4), (std::vector<int>{1, 2, 4}));
    QCOMPARE(degreeChoices(12, 12), (std::vector<int>{1, 2, 3, 4, 6, 12}));
    // Every device stays in use: a new tp or pp is taken from dp, a new dp from pp (else tp).
    ParallelPlan m = startPlan(16, 4, 256);
    QCOMPARE(meshWith(m, 16, 1, 4), (std::array<int, 3>{4, 4, 1}));
    m.dp = 4, m.tp = 2, m.pp = 2;
    QCOMPARE(meshWith(m, 16, 2, 4), (std::array<int, 3>{2, 2, 4}));
    QCOMPARE(meshWith(m, 16, 0, 8), (std::array<int, 3>{8, 2, 1}));
    QCOMPARE(meshWith(m, 16, 0, 2), (std::array<int, 3>{2, 2, 4}));
    m.tp = 1, m.pp = 3;  // on 12 devices: neither pp = 12 / 8 nor tp = 12 / 24: the plan rule refuses
    QCOMPARE(meshWith(m, 12, 0, 8), (std::array<int, 3>{8, 1, 3}));

    // dp 16 x 4 micro-batches of 4 -> dp 8 keeps 4 samples per micro-batch: 8 of them.
    const ParallelPlan a = withMicrobatches(startPlan(16, 4, 256), 4);
    const ParallelPlan b = withMesh(a, 4, 256, 8, 1, 2);
    QCOMPARE(b.microbatches, 8);
    QCOMPARE(b.stages.size(), size_t{2});
    QCOMPARE(b.stages[1].first, 2);
    // Boundaries keep a layer on each side.
    QCOMPARE(boundaryRange(b, 1), (std::pair<int, int>{1, 3}));
    QCOMPARE(withBoundary(b, 1, 0).stages[1].first, 1);
    QCOMPARE(withBoundary(b, 1, 9).stages[0].last, 3);
    QVERIFY(samePlan(withBoundary(b, 2, 1), b));  // no boundary 2
    // A new pp gives every stage the least recomputation a stage had.
    const ParallelPlan r = withRecompute(withRecompute(b, 0, Recompute::Full), 1, Recompute::Selective);
    QCOMPARE(withMesh(r, 4, 256, 4, 1, 4).stages[3].recompute, Recompute::Selective);
    QCOMPARE(withMesh(withRecompute(b, 0, Recompute::Full), 4, 256, 4, 1, 4).stages[0].recompute, Recompute::None);
    // Sequence parallelism needs tp > 1: tp 1 turns it off; attention and SP are part of the plan.
    const ParallelPlan sp = withSequenceParallel(withMesh(b, 4, 256, 4, 2, 2), true);
    QVERIFY(sp.sequenceParallel && !samePlan(sp, withSequenceParallel(sp, false)));
    QVERIFY(!withMesh(sp, 4, 256, 8, 1, 2).sequenceParallel);
    QVERIFY(withMesh(sp, 4, 256, 2, 4, 2).sequenceParallel);
    QVERIFY(!samePlan(sp, withAttention(sp, AttentionImpl::Unfused)));
    QVERIFY(!samePlan(sp, withFp8(sp, true)) && withFp8(sp, true).fp8);
    // Virtual stages: divisors of the layers per stage; pp x v even chunks on 1F1B; pp 1 drops them.
    QCOMPARE(virtualStageChoices(24, 4, 1), (std::vector<int>{1, 2, 3, 6}));
    QCOMPARE(virtualStageChoices(10, 4, 1), (std::vector<int>{1}));
    QCOMPARE(virtualStageChoices(10, 1, 2), (std::vector<int>{1, 2}));
    const ParallelPlan gp = withSchedule(withMesh(a, 8, 256, 4, 1, 4), PipeSchedule::GPipe);
    const ParallelPlan v2 = withVirtualStages(gp, 8, 2);
    QCOMPARE(v2.stages.size(), size_t{8});
    QCOMPARE(v2.stages[7].first, 7);
    QCOMPARE(v2.schedule, PipeSchedule::OneFOneB);
    QVERIFY(!samePlan(v2, gp));
    const ParallelPlan back = withMesh(v2, 8, 256, 16, 1, 1);
    QCOMPARE(back.virtualStages, 1);
    QCOMPARE(back.stages.size(), size_t{1});
    QCOMPARE(withMesh(v2, 8, 256, 8, 1, 2).stages.size(), size_t{4});  // pp 2 x v 2
    // Context parallelism: dp takes what tp x pp x cp leave, the micro-batch size kept.
    const ParallelPlan cp = withContextParallel(a, 16, 256, 4);
    QCOMPARE(cp.cp, 4);
    QCOMPARE(cp.dp, 4);
    QCOMPARE(cp.microbatchSize(256), a.microbatchSize(256));
    QCOMPARE(withContextParallel(cp, 16, 256, 1).dp, 16);
    QVERIFY(pformat::shapeText(cp, 256).startsWith(QStringLiteral("dp 4 × cp 4 × tp 1")));
    // Another batch keeps the micro-batch size where it divides, else the count.
    const PlanState s{256, b};
    QCOMPARE(withBatch(s, 512).plan.microbatches, 16);
    QCOMPARE(withBatch(s, 200).plan.microbatches, 8);
    QVERIFY(!sameState(s, withBatch(s, 512)));
  }

  void timelineRowsAndBubbles() {
    const auto task = bertTask();
    const ParallelPlan p = pipelinePlan(2, 2, 4, 4);
    const std::string why = parallelPlanProblem(task->stack, task->c, 64, p);
    QVERIFY2(why.empty(), why.c_str());
    const ParallelMeasurement m = simulateParallel(task->model, 64, p, {true, false});
    QVERIFY(m.feasible);
    const PipelineRows rows = pipelineRows(m.events, p.pp);
    QCOMPARE(rows.stages, 4);
    int passes = 0, sends = 0;
    for (const PipelineBar& bar : rows.bars) {
      const PipelineEvent& e = m.events[static_cast<size_t>(bar.event)];
      QCOMPARE(bar.stage, e.stage);
      QCOMPARE(bar.lane, laneOf(e.kind));
      passes += bar.lane == PipelineLane::Passes;
      sends += bar.lane == PipelineLane::Sends;
    }
    QCOMPARE(passes, 2 * p.pp * p.microbatches);
    QCOMPARE(sends, 2 * (p.pp - 1) * p.microbatches);  // activations on, gradients back
    QVERIFY(std::fabs(rows.idleShare() - m.bubbleShare) < 1e-9);
    QVERIFY(!rows.idle[3].empty());  // the last stage waits for the first forward
  }

  void breakdownSaysWhereTheStepGoes() {
    ParallelMeasurement m;
    m.stepTime = 2.0;
    m.breakdown = {3, 1.0, 0.2, 0.3, 0.4, 0.06, 0.04};
    const QString text = pformat::breakdownText(m);
    for (const char* part : {"stage 3 finishes last", "compute 50.0 %", "recomputation 10.0 %", "collectives in the passes 15.0 %",
                             "bubble and transfers 20.0 %", "gradient sync 3.0 %", "optimizer 2.0 %"})
      QVERIFY2(text.contains(QLatin1String(part)), qPrintable(text));
    // The collectives by kind, in the tooltip.
    m.breakdown.tpComm = 0.1, m.breakdown.cpComm = 0.12, m.breakdown.epComm = 0.02, m.breakdown.zeroGather = 0.06;
    const QString tip = pformat::breakdownToolTip(m);
    for (const char* part : {"tensor parallel 5.0 %", "context parallel (ring attention) 6.0 %", "expert all-to-alls 1.0 %",
                             "ZeRO-3 gathers 3.0 %"})
      QVERIFY2(tip.contains(QLatin1String(part)), qPrintable(tip));
    m.feasible = false;
    QVERIFY(pformat::breakdownText(m).isEmpty());
    QVERIFY(pformat::breakdownToolTip(m).isEmpty());
  }

  void everyKnobSummaryIsMarkedForTranslation() {
    for (const PlanKnob& k : planKnobs())
      if (!k.summary.empty()) QVERIFY2(pformat::knobNoteTranslatable(k.summary), std::string(k.summary).c_str());
    ParallelPlan p;
    p.tp = 2, p.sequenceParallel = true, p.overlapTpComm = true;
    QVERIFY(pformat::shapeText(p, 8).endsWith(QStringLiteral(" · sequence parallel · TP communication overlapped")));
  }

  void historyKeepsEachMethodOnce() {
    ParallelHistoryModel h;
    ParallelMeasurement m;
    m.samplesPerSecond = 1234.5;
    m.stepTime = 0.0481;
    m.mfu = 0.351;
    const pedit::PlanState s{256, pedit::startPlan(16, 4, 256)};
    QCOMPARE(h.add(QStringLiteral("Exact"), s, m), 0);
    QCOMPARE(h.add(QStringLiteral("Exact"), s, m), 0);  // pressed twice
    QCOMPARE(h.add(QStringLiteral("DQN"), s, m), 1);    // another method finding the same plan
    QCOMPARE(h.find(s), 0);
    QCOMPARE(h.find(s, QStringLiteral("DQN")), 1);
    QCOMPARE(h.index(0, ParallelHistoryModel::Samples).data().toString(), pformat::samplesText(1234.5));
    QCOMPARE(h.index(0, ParallelHistoryModel::Step).data().toString(), pformat::stepMsText(0.0481));
    QCOMPARE(h.index(0, ParallelHistoryModel::Shape).data().toString(), pformat::shapeText(s.plan, 256));
    m.feasible = false;
    m.problem = "stage 0 on node0/gpu0 needs 90 GiB";
    h.add(QStringLiteral("Start"), {512, s.plan}, m);
    QVERIFY(
        h.index(2, ParallelHistoryModel::Label).data(Qt::ToolTipRole).toString().contains(QStringLiteral("90 GiB")));
  }

  void layerStackDragMovesABoundary() {
    const auto task = bertTask();
    LayerStackView v;
    v.resize(600, v.sizeHint().height());
    v.setStack(task->stack);
    v.setPlan(pipelinePlan(8, 1, 2, 4));
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QCOMPARE(v.layers(), 4);
    QCOMPARE(v.stageText(1), QStringLiteral("Stage 1 · layers 2–3 · tp 1 · dp 8"));
    QSignalSpy moved(&v, &LayerStackView::boundaryMoved);
    const QPoint from(static_cast<int>(v.boundaryX(1)), static_cast<int>(v.partRect(0).center().y()));
    const QPoint to(static_cast<int>(v.partRect(3).left()), from.y());  // the gap before layer 3
    QTest::mousePress(&v, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), v.mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, {});
    QCoreApplication::sendEvent(&v, &move);
    QTest::mouseRelease(&v, Qt::LeftButton, {}, to);
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.at(0).at(0).toInt(), 1);
    QCOMPARE(moved.at(0).at(1).toInt(), 3);
    // Not editable: nothing moves.
    v.setEditable(false);
    QTest::mousePress(&v, Qt::LeftButton, {}, from);
    QTest::mouseRelease(&v, Qt::LeftButton, {}, to);
    QCOMPARE(moved.count(), 1);
  }

  void meshOutlinesTensorParallelGroups() {
    const Cluster c = loadCluster("2x8xH100-IB");
    MeshView v;
    v.setCluster(c);
    const ParallelPlan p = pipelinePlan(2, 4, 2, 4);
    v.setPlan(p, planDevices(p, c));
    const auto groups = v.tpGroupDevices();
    QCOMPARE(groups.size(), size_t{4});
    for (const auto& g : groups) {
      QCOMPARE(g.size(), size_t{4});
      for (size_t i = 1; i < g.size(); ++i) QCOMPARE(g[i], g[i - 1] + 1);  // neighbours on one server
    }
    QCOMPARE(v.rankOfDevice()[8], 8);  // stage 1 starts on the second server
    // Fewer ranks than devices: the rest are unused.
    const ParallelPlan small = pipelinePlan(2, 1, 1, 4);
    v.setPlan(small, planDevices(small, c));
    QCOMPARE(v.rankOfDevice()[2], -1);
  }

  void memoryBarsPerDevice() {
    const auto task = bertTask();
    DeviceMemoryPanel panel;
    panel.setCluster(task->c);
    QCOMPARE(panel.deviceCount(), 16);
    const ParallelPlan p = pipelinePlan(4, 2, 2, 4);
    const ParallelMeasurement m = simulateParallel(task->model, 64, p);
    QVERIFY2(m.feasible, m.problem.c_str());
    panel.setMeasurement(m, p.dp * p.tp);
    const DeviceTreeModel& model = *panel.tree()->model();
    QCOMPARE(model.figures(0).peak, m.peakMemory[0]);
    QCOMPARE(model.figures(m.rankDevice[7]).peak, m.peakMemory[7]);
    QCOMPARE(model.figures(m.rankDevice[8]).peak, m.peakMemory[8]);  // stage 1
    // In the colour of its stage.
    QCOMPARE(model.indexOfDevice(m.rankDevice[8], DeviceTreeModel::Memory).data(DeviceTreeModel::ColorRole).value<QColor>(),
             deviceColor(1));
    // Its tooltip breaks the peak down.
    const QString tip = panel.toolTip(m.rankDevice[8]);
    QVERIFY2(tip.contains(QStringLiteral("stage 1")) && tip.contains(QStringLiteral("optimizer state")) &&
                 tip.contains(QStringLiteral("activations")) && tip.contains(QStringLiteral("reserved by PyTorch's caching allocator")),
             qPrintable(tip));
    // A server's row: the least and most of its GPUs, and the fullest of them.
    const int server = model.groups().serverOf(m.rankDevice[8]);
    int64_t least = INT64_MAX, most = -1;
    for (int d : model.groups().devicesOf(server)) {
      least = std::min(least, model.figures(d).peak);
      most = std::max(most, model.figures(d).peak);
    }
    QCOMPARE(model.indexOfServer(server, DeviceTreeModel::Memory).data(DeviceTreeModel::PeakRole).toLongLong(), most);
    QCOMPARE(model.indexOfServer(server, DeviceTreeModel::Memory).data(DeviceTreeModel::MinPeakRole).toLongLong(), least);
    QVERIFY(!model.indexOfServer(server, DeviceTreeModel::Fullest).data().toString().isEmpty());
    // A plan that does not run (it leaves devices idle) leaves the bars empty, without a crash.
    DeviceMemoryPanel empty;
    empty.setCluster(task->c);
    empty.setMeasurement(simulateParallel(task->model, 64, pipelinePlan(2, 2, 2, 4)), 4);
    QCOMPARE(empty.tree()->model()->figures(0).peak, int64_t{-1});
    QVERIFY(empty.memoryText(0).startsWith(QStringLiteral("– / ")));
  }

  // 2,048 servers (16,384 GPUs): the mesh is drawn compact, every GPU a cell, and the tooltip
  // still names the GPU under the pointer; eight servers are boxes.
  void meshAtClusterScale() {
    const Cluster big = loadCluster("2048x8xH100-IB");
    MeshView v;
    v.resize(560, 320);
    v.setCluster(big);
    ParallelPlan p;
    p.dp = 128, p.tp = 8, p.pp = 16;
    p.stages = evenStages(16, 16);
    v.setPlan(p, planDevices(p, big));
    QVERIFY(v.isCompact());
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const QImage shot = v.grab().toImage();
    for (int d : {0, 8191, 16383}) {
      const QRectF r = v.deviceRect(d);
      QVERIFY2(QRectF(v.rect()).contains(r), qPrintable(QStringLiteral("gpu %1 drawn outside").arg(d)));
      const QString tip = v.toolTipAt(r.center());
      QVERIFY2(tip.startsWith(QString::fromStdString(big.device(d).name) + QStringLiteral(": rank")), qPrintable(tip));
      const int stage = v.rankOfDevice()[static_cast<size_t>(d)] / p.ranksPerStage();
      QCOMPARE(shot.pixelColor(r.center().toPoint() * shot.devicePixelRatio()), deviceColor(stage));
    }
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(shot.save(QString::fromUtf8(dir) + "/mesh_16384.png"));
    MeshView small;
    small.resize(560, 320);
    small.setCluster(loadCluster("2x8xH100-IB"));
    QVERIFY(!small.isCompact());
    QVERIFY(v.sizeHint().height() < 400);  // never a window taller than the screen
  }

  void controlsOfferOnlyFittingChoices() {
    ParallelControls c;
    c.setContext(16, 4);
    c.setState({256, pipelinePlan(4, 2, 2, 4)});
    QCOMPARE(c.degreeCombo(0)->count(), 5);     // dp: the divisors of 16 (tp or pp absorbs the rest)
    QCOMPARE(c.degreeCombo(2)->count(), 3);     // pp: 1, 2, 4 (at most the 4 layers)
    QCOMPARE(c.microbatchCombo()->count(), 7);  // divisors of 64
    QCOMPARE(c.microbatchCombo()->currentData().toInt(), 4);
    QVERIFY(c.boundarySpin(1));
    QCOMPARE(c.boundarySpin(1)->value(), 2);
    QSignalSpy edits(&c, &ParallelControls::editRequested);
    c.boundarySpin(1)->setValue(1);
    QCOMPARE(edits.count(), 1);
    const auto after = edits.at(0).at(0).value<pedit::PlanState>();
    QCOMPARE(after.plan.stages[1].first, 1);
    QCOMPARE(edits.at(0).at(1).toString(), QStringLiteral("Stage 1 starts at layer 1"));
  }
};

QTEST_MAIN(ParallelViewsTest)
#include "parallel_views_test.moc"
