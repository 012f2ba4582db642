// Qt Test: the Parallel Plan window used as a person would — open BERT-base on 2x8xH100-IB,
// Run ▸ Parallel Plan…, press Megatron, Exact and Published recipe (the figures shown are
// simulateParallel's for the plans the core's rules give), change the micro-batch count, the mesh, a stage boundary,
// the virtual stages and FP8 by hand (each re-measured at once, undone with Ctrl+Z, redone with Ctrl+Shift+Z), a batch the
// mesh cannot split (refused with the one-line reason), restore a plan from the history, export
// the plan file and the trace. A model without repeated layers says why instead of a plan, and
// the window follows the document to one with layers. The DQN runs in the background with a
// live MFU curve, stops on Stop, and the window and the app close while it runs (skipped
// without the LibTorch plugin). With GP_SCREENSHOT_DIR set, the window is saved there: a
// GPT-13B pipeline on two servers (parallel-plan.png), after a DQN run (parallel-dqn.png) and
// on a model without layers (parallel-no-layers.png).
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileDialog>
#include <QGuiApplication>
#include <QScreen>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTest>

#include "app_test_helpers.h"
#include "document.h"
#include "main_window.h"
#include "optimize/rl_plugin.h"
#include "parallel/layer_stack_view.h"
#include "launch/megatron_launch.h"
#include "parallel/mesh_view.h"
#include "parallel/mfu_plot.h"
#include "parallel/parallel_controls.h"
#include "parallel/parallel_format.h"
#include "parallel/plan_knobs.h"
#include "parallel/pipeline_view.h"
#include "parallel/published_recipes.h"
#include "parallel_window.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::waitIdle;

constexpr const char* kCluster = "2x8xH100-IB";

// Spins the event loop until the window has loaded and nothing runs, three polls in a row.
bool waitParallel(ParallelWindow* pw, int timeoutMs = 180000) {
  QDeadlineTimer deadline(timeoutMs);
  int idlePolls = 0;
  while (!deadline.hasExpired()) {
    QTest::qWait(20);
    idlePolls = pw->session()->isBusy() ? 0 : idlePolls + 1;
    if (idlePolls >= 3) return true;
  }
  return false;
}

// Opens `model` on the test cluster in the main window, then Run ▸ Parallel Plan….
ParallelWindow* openParallel(MainWindow& w, Document& doc, const QString& model) {
  doc.open(OpenRequest{model, GraphMode::Default, QString::fromLatin1(kCluster), {}, {}, false});
  if (!waitIdle(w)) return nullptr;
  QAction* open = action(w, "actionParallelPlan");
  if (!open->isEnabled()) return nullptr;
  open->trigger();
  ParallelWindow* pw = w.parallelWindow();
  if (!pw || !waitParallel(pw)) return nullptr;
  return pw;
}

// What the window should show for a state: simulateParallel's figures, written as the view does.
QString expectedSummary(const ParallelSession& s, const pedit::PlanState& state) {
  const StageCostModel model(s.task()->stack, s.task()->cost);
  const ParallelMeasurement m = simulateParallel(model, state.batch, state.plan);
  return m.feasible ? pformat::summaryText(m) : QString();
}

void chooseData(QComboBox* c, int value) {  // a choice in a combo box, as a click would make it
  const int index = c->findData(value);
  QVERIFY2(index >= 0, qPrintable(QStringLiteral("%1 offers no %2").arg(c->objectName()).arg(value)));
  c->setCurrentIndex(index);
  Q_EMIT c->activated(index);
}

QString historyCell(ParallelWindow* pw, int row, int column) {
  return pw->historyView()->model()->index(row, column).data().toString();
}

}  // namespace

class ParallelPlanTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("parallel_plan_test"));
  }

  void methodsEditsUndoHistoryExport() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ParallelWindow* pw = openParallel(w, doc, QStringLiteral("zoo:bert_base"));
    QVERIFY(pw);
    QVERIFY(QTest::qWaitForWindowExposed(pw));
    ParallelSession& s = *pw->session();
    QVERIFY(pw->showsPlan());
    QCOMPARE(s.task()->stack.numLayers(), 12);
    QCOMPARE(s.state().batch, int64_t{256});  // BERT's pre-training batch
    QCOMPARE(s.history()->count(), 1);
    const StageCostModel model(s.task()->stack, s.task()->cost);

    // Megatron: the core's rule, its figures on the summary line and in the history.
    pw->action("parallelMegatron")->trigger();
    QVERIFY(waitParallel(pw));
    const ParallelResult megatron = megatronPlan(model, 256);
    QVERIFY(pedit::samePlan(s.state().plan, megatron.plan));
    const QString megatronSummary = expectedSummary(s, s.state());
    QVERIFY(!megatronSummary.isEmpty());
    QCOMPARE(pw->summaryText(), megatronSummary);
    // Under it, where the step goes: the core's breakdown of the same plan.
    QCOMPARE(pw->breakdownText(), pformat::breakdownText(simulateParallel(model, 256, megatron.plan)));
    QVERIFY(pw->breakdownText().contains(QStringLiteral("compute")));
    QCOMPARE(historyCell(pw, 1, ParallelHistoryModel::Label), QStringLiteral("Megatron"));
    QCOMPARE(historyCell(pw, 1, ParallelHistoryModel::Samples),
             pformat::samplesText(simulateParallel(model, 256, megatron.plan).samplesPerSecond));

    // Exact: the exact search's plan, at least as fast.
    pw->action("parallelExact")->trigger();
    QVERIFY(waitParallel(pw));
    const ParallelResult exact = exactSearch(model, 256);
    QVERIFY(pedit::samePlan(s.state().plan, exact.plan));
    const pedit::PlanState exactState = s.state();
    const QString exactSummary = expectedSummary(s, exactState);
    QCOMPARE(pw->summaryText(), exactSummary);
    QVERIFY(s.measurement().samplesPerSecond >= simulateParallel(model, 256, megatron.plan).samplesPerSecond);
    QCOMPARE(historyCell(pw, 2, ParallelHistoryModel::Label), QStringLiteral("Exact"));
    QCOMPARE(pw->pipelineView()->barCount(PipelineEvent::Kind::Forward),
             exactState.plan.pp * exactState.plan.microbatches);

    // Micro-batch count by hand (keyboard in its box): re-measured at once; Ctrl+Z / Ctrl+Shift+Z.
    QComboBox* micro = pw->controls()->microbatchCombo();
    const int countBefore = exactState.plan.microbatches;
    micro->setFocus();
    QTest::keyClick(micro, micro->currentIndex() + 1 < micro->count() ? Qt::Key_Down : Qt::Key_Up);
    QVERIFY(s.state().plan.microbatches != countBefore);
    QCOMPARE(s.state().plan.microbatches, micro->currentData().toInt());
    const pedit::PlanState edited = s.state();
    QCOMPARE(pw->summaryText(), expectedSummary(s, edited));
    QVERIFY(pw->summaryText() != exactSummary);
    QCOMPARE(pw->pipelineView()->barCount(PipelineEvent::Kind::Forward), edited.plan.pp * edited.plan.microbatches);
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), exactState));
    QCOMPARE(pw->summaryText(), exactSummary);
    QCOMPARE(micro->currentData().toInt(), countBefore);
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(pedit::sameState(s.state(), edited));
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), exactState));

    // TP overlap: with tp 2 and sequence parallelism the box is enabled; one click turns the
    // overlap off (re-measured), Ctrl+Z back to the exact plan.
    ParallelControls* c = pw->controls();
    QCheckBox* overlap = c->tpOverlapBox();
    QVERIFY(exactState.plan.tp > 1 && exactState.plan.sequenceParallel);
    QVERIFY(overlap->isEnabled());
    QCOMPARE(overlap->isChecked(), exactState.plan.overlapTpComm);
    QTest::mouseClick(overlap, Qt::LeftButton);
    QCOMPARE(s.state().plan.overlapTpComm, !exactState.plan.overlapTpComm);
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), exactState));
    QCOMPARE(overlap->isChecked(), exactState.plan.overlapTpComm);

    // Published recipe: the closest published plan carried over to BERT on these GPUs, as the
    // core's method finds it; the status bar names the recipe; Ctrl+Z back to the exact plan.
    pw->action("parallelRecipe")->trigger();
    QVERIFY(waitParallel(pw));
    const ParallelResult recipe = recipePlan(model, 256, shippedRecipes());
    QVERIFY(recipe.found && recipe.measurement.feasible);
    QVERIFY(pedit::samePlan(s.state().plan, recipe.plan));
    QCOMPARE(historyCell(pw, s.history()->count() - 1, ParallelHistoryModel::Label), QStringLiteral("Published recipe"));
    QVERIFY2(pw->statusBar()->currentMessage().contains(QString::fromStdString(recipe.note)),
             qPrintable(pw->statusBar()->currentMessage()));
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), exactState));

    // A pipeline: tp 1, dp 8, then pp 2 (even stages), then stage 1 starting at layer 4 in its spin box.
    chooseData(c->degreeCombo(1), 1);
    QCOMPARE(s.state().plan.tp, 1);
    chooseData(c->degreeCombo(0), 8);
    QCOMPARE(s.state().plan.dp, 8);
    chooseData(c->degreeCombo(2), 2);
    QCOMPARE(s.state().plan.pp, 2);
    QCOMPARE(s.state().plan.tp, 1);
    QVERIFY(!overlap->isEnabled() && !overlap->isChecked());  // tp 1: no sequence parallelism to overlap
    QCOMPARE(s.state().plan.stages[1].first, 6);
    QCOMPARE(pw->layerStackView()->stageText(1), QStringLiteral("Stage 1 · layers 6–11 · tp 1 · dp 8"));
    const pedit::PlanState evenStages = s.state();
    const QString evenSummary = pw->summaryText();
    QCOMPARE(evenSummary, expectedSummary(s, evenStages));
    QSpinBox* boundary = c->boundarySpin(1);
    QVERIFY(boundary);
    boundary->setValue(4);
    QCOMPARE(s.state().plan.stages[0].last, 4);
    QCOMPARE(s.state().plan.stages[1].first, 4);
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    QVERIFY(pw->summaryText() != evenSummary);  // a 4 / 8 split is slower than 6 / 6
    QCOMPARE(pw->layerStackView()->stageText(0), QStringLiteral("Stage 0 · layers 0–3 · tp 1 · dp 8"));
    // The mesh: 16 devices, stage 0 on the first server's 8, stage 1 on the second's.
    QCOMPARE(pw->meshView()->rankOfDevice().size(), size_t{16});
    QCOMPARE(pw->meshView()->tpGroupDevices().size(), size_t{16});
    QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), evenStages));
    QCOMPARE(pw->summaryText(), evenSummary);
    QCOMPARE(c->boundarySpin(1)->value(), 6);

    // Interleaved: 4 micro-batches, 3 virtual stages (6 chunks of 2 layers, chunk k on stage
    // k mod 2), then FP8 GEMMs; each re-measured; three undo steps back.
    chooseData(c->microbatchCombo(), 4);
    chooseData(c->virtualStagesCombo(), 3);
    QCOMPARE(s.state().plan.virtualStages, 3);
    QCOMPARE(s.state().plan.stages.size(), size_t{6});
    QCOMPARE(pw->layerStackView()->stageText(1), QStringLiteral("Stage 1 · layers 2–3 · tp 1 · dp 8 · chunk 1"));
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    QCOMPARE(pw->pipelineView()->barCount(PipelineEvent::Kind::Forward), 2 * 3 * 4);
    QVERIFY(pformat::shapeText(s.state().plan, 256).contains(QStringLiteral("pp 2 (3 virtual)")));
    const QString interleavedSummary = pw->summaryText();
    QTest::mouseClick(c->fp8Box(), Qt::LeftButton);
    QVERIFY(s.state().plan.fp8);
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    QVERIFY(pw->summaryText() != interleavedSummary);
    for (int undo = 0; undo < 3; ++undo) QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), evenStages));
    QCOMPARE(c->virtualStagesCombo()->currentData().toInt(), 1);
    QVERIFY(!c->fp8Box()->isChecked());

    // The framework and ZeRO's sharding group: Megatron-LM keeps fp32 main gradients (twice the
    // generic gradient bytes); ZeRO-1 sharded over groups of 4 of the 8 replicas keeps twice the
    // optimizer state of ZeRO-1 over all 8. The group box is off at ZeRO 0; undone step by step.
    const int before = s.undoStack()->index();
    chooseData(c->zeroCombo(), 0);
    QVERIFY(!c->shardGroupCombo()->isEnabled());
    QCOMPARE(c->shardGroupCombo()->count(), 1);
    const double genericGradients = s.measurement().memory[0].statics.gradients;
    chooseData(c->frameworkCombo(), static_cast<int>(TrainingFramework::Megatron));
    QCOMPARE(s.state().plan.training.framework, TrainingFramework::Megatron);
    QCOMPARE(s.measurement().memory[0].statics.gradients, 2 * genericGradients);
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    chooseData(c->zeroCombo(), 1);
    QVERIFY(c->shardGroupCombo()->isEnabled());
    QCOMPARE(c->shardGroupCombo()->currentData().toInt(), 0);
    const double overAll = s.measurement().memory[0].statics.optimizer;
    chooseData(c->shardGroupCombo(), 4);
    QCOMPARE(s.state().plan.shardGroup, 4);
    QCOMPARE(s.state().plan.shardSize(), 4);
    QVERIFY(std::abs(s.measurement().memory[0].statics.optimizer - 2 * overAll) < 1e-6 * overAll);
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    while (s.undoStack()->index() > before) QTest::keyClick(pw, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(pedit::sameState(s.state(), evenStages));
    QCOMPARE(c->frameworkCombo()->currentData().toInt(), static_cast<int>(TrainingFramework::Generic));

    // A batch the mesh cannot split: refused with parallelPlanProblem's reason, nothing changes.
    const int undoSteps = s.undoStack()->index();
    c->batchSpin()->setValue(100);
    pedit::PlanState bad = pedit::withBatch(evenStages, 100);
    const QString why = QString::fromStdString(parallelPlanProblem(s.task()->stack, s.task()->c, 100, bad.plan));
    QVERIFY(!why.isEmpty());
    QCOMPARE(c->notice(), why);
    QVERIFY(pedit::sameState(s.state(), evenStages));
    QCOMPARE(c->batchSpin()->value(), 256);
    QCOMPARE(s.undoStack()->index(), undoSteps);

    // Restore Megatron's plan from the history by clicking its row: one more undo step.
    QTableView* history = pw->historyView();
    const QRect row1 = history->visualRect(history->model()->index(1, ParallelHistoryModel::Label));
    QTest::mouseClick(history->viewport(), Qt::LeftButton, {}, row1.center());
    QVERIFY(pedit::samePlan(s.state().plan, megatron.plan));
    QCOMPARE(pw->summaryText(), megatronSummary);
    QCOMPARE(s.undoStack()->index(), undoSteps + 1);

    // Reset, then the plan file and the trace of what is shown.
    pw->action("parallelReset")->trigger();
    QCOMPARE(s.state().plan.dp, 16);
    QCOMPARE(s.state().plan.microbatches, 1);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString planPath = dir.filePath(QStringLiteral("plan.json")),
                  tracePath = dir.filePath(QStringLiteral("trace.json"));
    QCOMPARE(pw->exportPlan(planPath), QString());
    QCOMPARE(pw->exportTrace(tracePath), QString());
    QFile planFile(planPath), traceFile(tracePath);
    QVERIFY(planFile.open(QIODevice::ReadOnly) && traceFile.open(QIODevice::ReadOnly));
    const ParallelPlanFile f = parseParallelPlanJson(planFile.readAll().toStdString(), "plan.json", s.task()->c);
    QCOMPARE(f.globalBatch, int64_t{256});
    QCOMPARE(f.model, std::string("zoo:bert_base"));
    ParallelPlan read = f.plan;
    if (!read.devices.empty()) QVERIFY(read.devices == planDevices(s.state().plan, s.task()->c));
    read.devices.clear();
    QVERIFY(pedit::samePlan(read, s.state().plan));
    QVERIFY(traceFile.readAll().contains("\"traceEvents\""));
    QCOMPARE(pw->exportPlan(dir.filePath(QStringLiteral("no/such/dir/plan.json"))).isEmpty(), false);

    // The plan as a framework's launch configuration: Megatron-LM's arguments read back as the
    // plan shown; the status bar names what a framework cannot express.
    QVERIFY(pw->action("parallelExportLaunch"));
    const QString args = dir.filePath(QStringLiteral("args.sh"));
    QCOMPARE(pw->exportLaunch(args, QStringLiteral("megatron")), QString());
    QFile argsFile(args);
    QVERIFY(argsFile.open(QIODevice::ReadOnly));
    const LaunchImport back = importMegatron(argsFile.readAll().toStdString(), "args.sh", s.task()->stack,
                                             s.task()->c.numDevices());
    QCOMPARE(back.globalBatch, int64_t{256});
    ParallelPlan shown = s.state().plan;  // run by Megatron-LM once written for it
    shown.training.framework = TrainingFramework::Megatron;
    QVERIFY(sameKnobs(back.plan, shown));
    QVERIFY(pw->statusText().startsWith(QStringLiteral("Wrote ")));
    for (const char* format : {"nemo", "nemo1", "torchtitan", "torchtitan-py", "deepspeed"})
      QCOMPARE(pw->exportLaunch(dir.filePath(QString::fromLatin1(format)), QString::fromLatin1(format)), QString());
    QVERIFY(pw->action("parallelExportLaunch")->associatedObjects().size() >= 2);  // menu and toolbar
  }

  // A user's Megatron-LM arguments become the plan shown (one undo step), explained in the status
  // bar, then the exact search sets the best plan beside it; a broken file is one line.
  void importedConfigurationIsExplainedAndCompared() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    ParallelWindow* pw = openParallel(w, doc, QStringLiteral("zoo:gpt_1_3b"));
    QVERIFY(pw);
    ParallelSession& s = *pw->session();
    // An LLM: it opened here on Megatron's plan (data parallelism alone does not fit), and the
    // exact search ran after it; its plan is the user's configuration below.
    QCOMPARE(historyCell(pw, 0, ParallelHistoryModel::Label), QStringLiteral("Megatron"));
    QCOMPARE(historyCell(pw, s.history()->count() - 1, ParallelHistoryModel::Label), QStringLiteral("Exact"));
    QTemporaryDir dir;
    const QString args = dir.filePath(QStringLiteral("my_args.sh"));
    QCOMPARE(pw->exportLaunch(args, QStringLiteral("megatron")), QString());
    const pedit::PlanState mine = s.state();
    pw->action("parallelReset")->trigger();
    QVERIFY(!pedit::sameState(s.state(), mine));
    const int undoBefore = s.undoStack()->count();
    QCOMPARE(pw->importLaunch(args), QString());
    QVERIFY(pw->statusText().startsWith(QStringLiteral("Yours (my_args.sh): ")));
    QVERIFY(pw->statusText().contains(QStringLiteral("searching for the best plan")));
    ParallelPlan written = mine.plan;  // the file says Megatron-LM runs it
    written.training.framework = TrainingFramework::Megatron;
    QVERIFY(sameKnobs(s.state().plan, written));
    QCOMPARE(s.undoStack()->count(), undoBefore + 1);
    QVERIFY(waitParallel(pw));
    const QString beside = pw->statusText();
    QVERIFY2(beside.startsWith(QStringLiteral("Beside your plan (my_args.sh): ")) ||
                 beside.startsWith(QStringLiteral("Your plan (my_args.sh) is the best found")),
             qPrintable(beside));
    if (beside.startsWith(QStringLiteral("Beside"))) QVERIFY(beside.contains(QStringLiteral("What changed: ")));
    QCOMPARE(pw->besideText().replace(QLatin1Char('\n'), QLatin1Char(' ')), beside);  // under the summary
    if (beside.startsWith(QStringLiteral("Beside"))) {  // back to the imported plan: the comparison goes
      pw->action("parallelUndo")->trigger();
      QVERIFY(pw->besideText().isEmpty());
    }

    // The same arguments in fp16: read, and said to differ from the bf16 this view simulates.
    QFile mineFile(args);
    QVERIFY(mineFile.open(QIODevice::ReadOnly));
    QByteArray text = mineFile.readAll();
    mineFile.close();
    QVERIFY(text.contains("--bf16"));
    text.replace("--bf16", "--fp16");
    const QString fp16 = dir.filePath(QStringLiteral("fp16_args.sh"));
    QFile fp16File(fp16);
    QVERIFY(fp16File.open(QIODevice::WriteOnly));
    fp16File.write(text);
    fp16File.close();
    QCOMPARE(pw->importLaunch(fp16), QString());
    QVERIFY2(pw->statusText().contains(QStringLiteral("the file trains in fp16 (--fp16), this view simulates bf16")),
             qPrintable(pw->statusText()));
    QVERIFY(waitParallel(pw));

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"train_batch_size\": ");
    f.close();
    const QString error = pw->importLaunch(bad);
    QVERIFY2(error.startsWith(bad) && !error.contains(QLatin1Char('\n')), qPrintable(error));
    QCOMPARE(pw->statusText(), error);
  }

  void modelWithoutLayersSaysWhy() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString dot = QStringLiteral(GP_TEST_DATA_DIR "/dot/small.dot");
    doc.open(OpenRequest{dot, GraphMode::Default, QString::fromLatin1(kCluster), {}, {}, false});
    QVERIFY(waitIdle(w));
    const Plan before = doc.plan();
    const int ops = doc.graph()->numOps();
    action(w, "actionParallelPlan")->trigger();
    ParallelWindow* pw = w.parallelWindow();
    QVERIFY(pw && waitParallel(pw));
    QVERIFY(!pw->showsPlan());
    QVERIFY2(pw->messageText().contains(QStringLiteral("no repeated layer structure")), qPrintable(pw->messageText()));
    QVERIFY(pw->messageText().contains(QStringLiteral("small.dot")));
    QVERIFY(!pw->action("parallelExact")->isEnabled());
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(pw->grab().save(QString::fromUtf8(dir) + "/parallel-no-layers.png"));
    // The main window's work is untouched.
    QVERIFY(doc.hasModel());
    QCOMPARE(doc.graph()->numOps(), ops);
    QVERIFY(doc.plan() == before);
    // The open window follows the document to a model made of layers.
    doc.open(OpenRequest{QStringLiteral("zoo:bert_base"), GraphMode::Default, {}, {}, {}, false});
    QVERIFY(waitIdle(w));
    QVERIFY(waitParallel(pw));
    QVERIFY(pw->showsPlan());
    QCOMPARE(pw->session()->modelSpec(), QStringLiteral("zoo:bert_base"));
  }

  void dqnRunsStopsAndCloses() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ParallelWindow* pw = openParallel(w, doc, QStringLiteral("zoo:bert_base"));
    QVERIFY(pw);
    ParallelSession& s = *pw->session();
    try {
      rlParallelDqnEntry();
    } catch (const std::exception& e) {
      // Without the plugin, Optimize says why in one line and the plan stays.
      const pedit::PlanState before = s.state();
      pw->action("parallelOptimize")->trigger();
      QVERIFY(waitParallel(pw));
      QVERIFY2(pw->controls()->notice().startsWith(QStringLiteral("DQN failed: ")),
               qPrintable(pw->controls()->notice()));
      QVERIFY(pedit::sameState(s.state(), before));
      QSKIP(qPrintable(QStringLiteral("no LibTorch plugin: %1").arg(QString::fromUtf8(e.what()))));
    }

    // A short run: its curve fills, its plan enters the history and is shown (one undo step).
    DqnOptions o;
    o.maxEpisodes = 25;
    o.fromScratch = true;
    pw->setDqnOptions(o);
    pw->budgetSpin()->setValue(600);
    QAction* optimize = pw->action("parallelOptimize");
    QAction* stop = pw->action("parallelStop");
    optimize->trigger();
    QVERIFY(s.isSearching());
    QVERIFY(stop->isEnabled() && !optimize->isEnabled());
    QVERIFY(!pw->controls()->batchSpin()->isEnabled());
    QCOMPARE(s.edit(pedit::withBatch(s.state(), 512), QStringLiteral("batch")), s.whyNotEdit());
    QVERIFY(waitParallel(pw));
    QVERIFY(pw->mfuPlot()->pointCount() > 0);
    QVERIFY(pw->mfuPlot()->bestMfu() > 0);
    const int dqnRow = s.history()->count() - 1;
    QCOMPARE(s.history()->entry(dqnRow).label, QStringLiteral("DQN"));
    QVERIFY(pedit::sameState(s.history()->entry(dqnRow).state, s.state()));
    QCOMPARE(pw->summaryText(), expectedSummary(s, s.state()));
    QVERIFY(optimize->isEnabled() && !stop->isEnabled());
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(pw->grab().save(QString::fromUtf8(dir) + "/parallel-dqn.png"));

    // A long run stopped after a few episodes: it ends and keeps its best.
    o.maxEpisodes = 0;
    pw->setDqnOptions(o);
    optimize->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(pw->mfuPlot()->pointCount() >= 3, 120000);
    stop->trigger();
    QVERIFY(waitParallel(pw, 30000));
    QVERIFY(!s.isSearching());

    // Closing the window while a run goes on stops it; then the app closes.
    optimize->trigger();
    QVERIFY(s.isSearching());
    pw->close();
    QVERIFY(waitParallel(pw, 30000));
    w.close();

    // And the app going away while a run goes on: the window stops it and waits for it.
    w.openParallelPlan();
    optimize->trigger();
    QVERIFY(s.isSearching());
  }

  // GP_SCREENSHOT_DIR/parallel-plan.png: GPT-13B on two DGX H100 servers after Megatron, Exact
  // and (with the plugin) a short DQN run, edited by hand into a 4-stage pipeline of 2 virtual
  // stages each with FP8 GEMMs, whose first chunk recomputes everything and the next two their
  // attention cores.
  void screenshot() {
    const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR");
    if (dir.isEmpty()) QSKIP("GP_SCREENSHOT_DIR not set");
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ParallelWindow* pw = openParallel(w, doc, QStringLiteral("zoo:gpt_13b"));
    QVERIFY(pw);
    pw->resize(1600, 1000);
    ParallelSession& s = *pw->session();
    pw->action("parallelMegatron")->trigger();
    QVERIFY(waitParallel(pw));
    pw->action("parallelExact")->trigger();
    QVERIFY(waitParallel(pw));
    try {
      rlParallelDqnEntry();
      DqnOptions o;
      o.maxEpisodes = 150;
      pw->setDqnOptions(o);
      pw->action("parallelOptimize")->trigger();
      QVERIFY(waitParallel(pw));
      for (int row = 0; row < s.history()->count(); ++row)  // Exact's plan again, the start of the edits below
        if (historyCell(pw, row, ParallelHistoryModel::Label) == QStringLiteral("Exact")) s.restore(row);
    } catch (const std::exception&) {  // no LibTorch plugin: no curve
    }
    ParallelControls* c = pw->controls();
    c->batchSpin()->setValue(128);
    chooseData(c->degreeCombo(0), 2);
    chooseData(c->degreeCombo(1), 2);
    chooseData(c->degreeCombo(2), 4);
    chooseData(c->microbatchCombo(), 16);
    chooseData(c->zeroCombo(), 1);
    chooseData(c->virtualStagesCombo(), 2);
    QTest::mouseClick(c->fp8Box(), Qt::LeftButton);
    for (int chunk = 0; chunk < 3; ++chunk)  // the rest fit without
      chooseData(c->recomputeBox(chunk), static_cast<int>(chunk == 0 ? Recompute::Full : Recompute::Selective));
    QCOMPARE(s.state().plan.pp, 4);
    QCOMPARE(s.state().plan.stages.size(), size_t{8});
    QVERIFY(s.measurement().feasible);
    QTest::qWait(300);
    QVERIFY(pw->grab().save(QString::fromUtf8(dir) + "/parallel-plan.png"));

    // The export dialog with its list of formats open: the screen under the dialog and the list.
    bool dialogSeen = false;
    QTimer::singleShot(800, [&] {
      auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (!d) return;
      auto* types = d->findChild<QComboBox*>(QStringLiteral("fileTypeCombo"));
      if (types) types->showPopup();
      QTimer::singleShot(500, [&, d, types] {
        QRect area = d->frameGeometry();
        if (types && types->view() && types->view()->window()->isVisible())
          area = area.united(types->view()->window()->frameGeometry());
        const QPixmap screen = QGuiApplication::primaryScreen()->grabWindow(0);
        dialogSeen = screen.copy(area).save(QString::fromUtf8(dir) + "/parallel-export-dialog.png");
        if (types) types->hidePopup();
        d->reject();
      });
    });
    pw->action("parallelExportLaunch")->trigger();
    QVERIFY(dialogSeen);

    // A published Megatron-LM command line for this model, imported and set beside the best plan.
    QTemporaryDir tmp;
    const QString args = tmp.filePath(QStringLiteral("gpt13b_megatron.sh"));
    QFile f(args);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 40 --hidden-size 5120 --num-attention-heads 40 "
            "--seq-length 2048 --max-position-embeddings 2048 --tensor-model-parallel-size 8 --pipeline-model-parallel-size 1 "
            "--micro-batch-size 1 --global-batch-size 128 --recompute-granularity full --recompute-method uniform "
            "--recompute-num-layers 1 --bf16\n");
    f.close();
    QCOMPARE(pw->importLaunch(args), QString());
    QVERIFY(pw->grab().save(QString::fromUtf8(dir) + "/parallel-import.png"));  // before the search answers
    QVERIFY(waitParallel(pw));
    QTest::qWait(300);
    QVERIFY(pw->grab().save(QString::fromUtf8(dir) + "/parallel-import-beside.png"));
  }
};

QTEST_MAIN(ParallelPlanTest)
#include "parallel_plan_test.moc"
