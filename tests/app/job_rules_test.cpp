// Qt Test: what may run together, as a person meets it (Document::whyNot, job_rules.cpp). While
// the optimizer runs (a stand-in handed to Document::setOptimizer, held until Stop), Measure on
// GPUs, the baselines, Optimize again, the plan edits and the calibration table are refused by
// the document with a one-line warning, and the window's actions for them are disabled with the
// same line as their tooltip; Profile Local GPUs stays available. Stop keeps the optimizer's best
// plan, and every action is enabled again with its own tooltip. While baselines run, Optimize is
// disabled, saying why. (The GPU measure's rules are in gpu_actions_test.)
#include <QAction>
#include <QPushButton>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <atomic>
#include <chrono>
#include <thread>

#include "app_test_helpers.h"
#include "document.h"
#include "gpu_availability.h"
#include "main_window.h"
#include "panels/history_panel.h"
#include "placement/placer.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::caught;
using gptest::waitIdle;

// mm (MatMul) -> relu -> add -> out; 4 MiB tensors.
constexpr const char* kChainDot = R"(digraph rules {
  mm [op=MatMul, flops="2e10", bytes="4194304"];
  relu [op=Relu, flops="1e6", bytes="4194304"];
  add [op=Add, flops="1e6", bytes="4194304"];
  out [op=Softmax, flops="5e6", bytes="4194304"];
  mm -> relu -> add -> out;
})";

// Stands in for the RL optimizer: one iteration that moves the first op to device 1, then it
// waits for Stop and returns that plan as its best.
Document::Optimizer heldOptimizer() {
  return [](const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
            const std::atomic<bool>* cancel) {
    Plan best = *options.startPlan;  // the document always hands in its plan
    best.device[0] = 1;
    IterationReport r;
    r.iteration = 1;
    r.improved = true;
    r.best = &best;
    onIteration(r);
    while (!(cancel && *cancel)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    OptimizeResult res;
    res.measurement = Simulator(cost).run(best, true);
    res.best = best;
    res.iterations = 1;
    res.cancelled = true;
    return res;
  };
}

}  // namespace

class JobRulesTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("job_rules_test"));
    QVERIFY(english_.load(QStringLiteral(GP_QM_DIR "/graphplace_en.qm")));  // plural forms
    QCoreApplication::installTranslator(&english_);
    QVERIFY(dir_.isValid());
    dot_ = dir_.filePath(QStringLiteral("rules.dot"));
    QFile f(dot_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kChainDot);
  }

  void whileTheOptimizerRuns() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.gpuAvailability()->setAnswers({}, [](int) { return QString(); });  // as if the machine had GPUs
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    doc.setSelection({0, 1});
    QAction* optimize = action(w, "actionOptimize");
    QAction* measureOnGpus = action(w, "actionMeasureOnGpus");
    QAction* baselines = action(w, "actionAllBaselines");
    QAction* fuse = action(w, "actionFuse");
    QAction* priority = action(w, "actionSetPriority");
    QAction* loadCalibration = action(w, "actionLoadCalibration");
    QAction* profile = action(w, "actionProfileGpus");
    const QString optimizeTip = optimize->toolTip(), fuseTip = fuse->toolTip();
    for (QAction* a : {optimize, measureOnGpus, baselines, fuse, priority, loadCalibration, profile})
      QVERIFY2(a->isEnabled(), qPrintable(a->objectName()));
    for (JobKind k : {JobKind::Optimize, JobKind::MeasureOnGpus, JobKind::Baselines, JobKind::EditPlan,
                      JobKind::LoadCalibration, JobKind::UseProfiledCluster, JobKind::ProfileGpus})
      QVERIFY(doc.whyNot(k).isEmpty());

    doc.setOptimizer(heldOptimizer());
    optimize->trigger();
    QVERIFY(doc.isOptimizing());
    const QString changePlan = QStringLiteral("The optimizer is running: stop it to change the plan.");
    const QString measureWhy = QStringLiteral("The optimizer is running: stop it to measure on the GPUs.");
    const QString again = QStringLiteral("The optimizer is already running.");
    QCOMPARE(doc.whyNot(JobKind::MeasureOnGpus), measureWhy);
    QCOMPARE(doc.whyNot(JobKind::Baselines), changePlan);
    QCOMPARE(doc.whyNot(JobKind::EditPlan), changePlan);
    QCOMPARE(doc.whyNot(JobKind::Optimize), again);
    QVERIFY(doc.whyNot(JobKind::Open).isEmpty() && doc.whyNot(JobKind::Measure).isEmpty());
    // The window: each action disabled, saying why.
    const std::pair<QAction*, QString> refused[] = {{measureOnGpus, measureWhy}, {baselines, changePlan},
                                                    {fuse, changePlan},          {priority, changePlan},
                                                    {loadCalibration, changePlan}, {optimize, again}};
    for (const auto& [a, why] : refused) {
      QVERIFY2(!a->isEnabled(), qPrintable(a->objectName()));
      QCOMPARE(a->toolTip(), why);
    }
    QVERIFY(profile->isEnabled());  // profiling does not wait for the optimizer
    QVERIFY(action(w, "actionStopOptimize")->isEnabled());
    // The history's Restore button too, with a row selected.
    w.historyPanel()->selectRows(0);
    QVERIFY(!w.historyPanel()->restoreButton()->isEnabled());
    QCOMPARE(w.historyPanel()->restoreButton()->toolTip(), changePlan);
    // The document: each refused with the same line, nothing changed.
    QSignalSpy warnings(&doc, &Document::warning);
    doc.measureOnGpus();
    QVERIFY(!doc.isMeasuringOnGpus());
    doc.runBaselines({QString::fromStdString(placementMethods().front())});
    QCOMPARE(doc.fuseOps({0, 1}), changePlan);
    const Plan shown = doc.plan();
    doc.assignDevices({2}, 3);
    QCOMPARE(doc.plan(), shown);
    QVERIFY(!doc.loadCalibration(dir_.filePath(QStringLiteral("none.json"))));
    doc.optimize(OptimizeOptions{});
    QCOMPARE(caught(warnings),
             (QStringList{measureWhy, changePlan, changePlan, changePlan, changePlan, again}));

    // Stop: the best plan is kept, and everything is allowed again with its own tooltip.
    const int entries = doc.history()->count();
    action(w, "actionStopOptimize")->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY(!doc.isOptimizing());
    QCOMPARE(doc.history()->count(), entries + 1);
    QCOMPARE(doc.plan().device[0], 1);
    for (JobKind k : {JobKind::Optimize, JobKind::MeasureOnGpus, JobKind::Baselines, JobKind::EditPlan})
      QVERIFY(doc.whyNot(k).isEmpty());
    for (QAction* a : {optimize, measureOnGpus, baselines, fuse, priority, loadCalibration})
      QVERIFY2(a->isEnabled(), qPrintable(a->objectName()));
    QCOMPARE(optimize->toolTip(), optimizeTip);
    QCOMPARE(fuse->toolTip(), fuseTip);
    QVERIFY(!baselines->toolTip().contains(QLatin1String("optimizer")));
    QVERIFY(action(w, "actionUndo")->isEnabled());  // the optimizer's result is one undo step
    w.historyPanel()->selectRows(0);
    QVERIFY(w.historyPanel()->restoreButton()->isEnabled());
    QVERIFY(w.historyPanel()->restoreButton()->toolTip() != changePlan);
  }

  // Neither the optimizer nor Measure on GPUs starts while baselines run: each action says so
  // until they finish.
  void baselinesHoldTheOptimizer() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.gpuAvailability()->setAnswers({}, [](int) { return QString(); });  // as if the machine had GPUs
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QAction* optimize = action(w, "actionOptimize");
    QAction* measureOnGpus = action(w, "actionMeasureOnGpus");
    QVERIFY(optimize->isEnabled());
    QVERIFY(measureOnGpus->isEnabled());
    // Still before the event loop runs again: the baseline has not come back yet.
    doc.runBaselines({QString::fromStdString(placementMethods().front())});
    const QString why =
        QStringLiteral("Baselines are running: the optimizer starts once they finish or are cancelled.");
    QCOMPARE(doc.whyNot(JobKind::Optimize), why);
    QVERIFY(!optimize->isEnabled());
    QCOMPARE(optimize->toolTip(), why);
    const QString gpuWhy =
        QStringLiteral("Baselines are running: measure on the GPUs once they finish or are cancelled.");
    QCOMPARE(doc.whyNot(JobKind::MeasureOnGpus), gpuWhy);
    QVERIFY(!measureOnGpus->isEnabled());
    QCOMPARE(measureOnGpus->toolTip(), gpuWhy);
    QSignalSpy warnings(&doc, &Document::warning);
    doc.optimize(OptimizeOptions{});
    QVERIFY(!doc.isOptimizing());
    doc.measureOnGpus();
    QVERIFY(!doc.isMeasuringOnGpus());
    QCOMPARE(caught(warnings), (QStringList{why, gpuWhy}));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.whyNot(JobKind::Optimize).isEmpty());
    QVERIFY(optimize->isEnabled());
    QVERIFY(measureOnGpus->isEnabled());
  }

 private:
  QTranslator english_;
  QTemporaryDir dir_;
  QString dot_;
};

QTEST_MAIN(JobRulesTest)
#include "job_rules_test.moc"
