// Qt Test: File ▸ Attach to Run… used as a person would, on event logs written here as the CLI
// writes them (optimize/run_log.h). An optimize run followed while it runs: the reward plot gains
// a point per iteration, the zero-shot plan its marker, the table the best plan's ops per device,
// the line says running, then finished; Apply Best Plan puts the plan onto the open model as an
// undoable edit, and refuses another model in one line. A distributed pre-training run: a row per
// task with its rank, each rank's work and wait in the latest round. A log that turns bad is one
// line naming the file and the line, what was read stays, the main window untouched. With
// GP_SCREENSHOT_DIR and GP_RUN_LOG set, the window showing that log is saved (run-window.png).
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "app_test_helpers.h"
#include "document.h"
#include "main_window.h"
#include "optimize/run_log.h"
#include "reward/reward_plot.h"
#include "run_window.h"

using namespace gp;

namespace {

using gptest::waitIdle;

QString dataPath(const char* rel) { return QStringLiteral(GP_TEST_DATA_DIR "/") + QString::fromLatin1(rel); }

void writeOptimizeStart(RunLogWriter& w, const QString& model, int ops, int devices) {
  w.event("run", {{"format", "graphplace-events"}, {"version", 1}, {"command", "optimize"}, {"ranks", 1}, {"seed", 3},
                  {"model", model.toStdString()}, {"cluster", "4xP100-PCIe"}, {"ops", ops}, {"devices", devices},
                  {"lower_bound_ms", 1.0}, {"best_baseline", "m_etf"}, {"best_baseline_ms", 2.0}});
}

void writeIteration(RunLogWriter& w, int i, double bestMs) {
  w.event("iteration", {{"iteration", i}, {"mean_reward", -1.6 + 0.05 * i}, {"best_reward", -1.4 + 0.03 * i},
                        {"best_step_ms", bestMs}, {"entropy", 0.5}, {"elapsed_s", 0.1 * i}});
}

}  // namespace

class RunWindowTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("run_window_test"));
    QVERIFY(dir_.isValid());
  }

  void followsAnOptimizeRunAndAppliesItsBestPlan() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString model = dataPath("onnx/mlp.onnx");
    doc.open(OpenRequest{model, GraphMode::Default, {}, {}, {}, false});
    QVERIFY(waitIdle(w));
    const int ops = doc.workspace()->graph->numOps();
    const int devices = doc.workspace()->cluster->numDevices();
    QVERIFY(devices >= 2);

    const QString path = dir_.filePath(QStringLiteral("optimize.jsonl"));
    RunLogWriter log(path.toStdString());
    writeOptimizeStart(log, model, ops, devices);
    writeIteration(log, 0, 1.8);
    Plan best;
    for (int i = 0; i < ops; ++i) best.device.push_back(i < ops / 2 ? 0 : 1);
    log.event("best", {{"iteration", 0}, {"step_ms", 1.8}, {"devices", best.device}, {"priority", std::vector<int32_t>{}},
                       {"fusion_group", std::vector<int32_t>{}}});
    writeIteration(log, 1, 1.8);

    RunWindow* rw = w.attachRun(path);
    QVERIFY(rw);
    QVERIFY(QTest::qWaitForWindowExposed(rw));
    QVERIFY(rw->following());
    QVERIFY2(!rw->messageIsError(), qPrintable(rw->messageText()));
    QVERIFY2(rw->messageText().startsWith(QStringLiteral("Running")), qPrintable(rw->messageText()));
    QVERIFY(rw->titleText().contains(QStringLiteral("mlp.onnx")));
    QCOMPARE(rw->rewardPlot()->zeroShotStepTime(), 1.8e-3);
    const int before = rw->rewardPlot()->pointCount();
    QVERIFY(before >= 1);
    // the run goes on: new iterations appear at the next poll
    writeIteration(log, 2, 1.6);
    writeIteration(log, 3, 1.5);
    rw->pollNow();
    QCOMPARE(rw->rewardPlot()->pointCount(), before + 2);
    QCOMPARE(rw->rewardPlot()->references().bestBaselineName, QStringLiteral("m_etf"));
    QCOMPARE(rw->table()->rowCount(), 2);  // ops on devices 0 and 1
    QCOMPARE(rw->table()->item(1, 1)->text().toInt(), ops - ops / 2);
    log.event("end", {{"seconds", 12.5}, {"stopped", false}, {"iterations", 3}, {"best_step_ms", 1.5}});
    rw->pollNow();
    QVERIFY2(rw->messageText().startsWith(QStringLiteral("Finished in 12.5 s")), qPrintable(rw->messageText()));
    QVERIFY(!rw->following());

    // Apply Best Plan: the open model takes the plan, one undo step
    QVERIFY(rw->applyButton()->isEnabled());
    QTest::mouseClick(rw->applyButton(), Qt::LeftButton);
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.plan().device, best.device);
    QVERIFY2(!rw->messageIsError(), qPrintable(rw->messageText()));

    // a log of another model: refused in one line, the plan unchanged
    const QString other = dir_.filePath(QStringLiteral("other.jsonl"));
    RunLogWriter otherLog(other.toStdString());
    writeOptimizeStart(otherLog, QStringLiteral("zoo:resnet50"), ops, devices);
    otherLog.event("best", {{"iteration", 0}, {"step_ms", 1.0}, {"devices", std::vector<int32_t>(ops, 1)}});
    w.attachRun(other);
    QTest::mouseClick(rw->applyButton(), Qt::LeftButton);
    QVERIFY(rw->messageIsError());
    QVERIFY2(rw->messageText().contains(QStringLiteral("The run placed zoo:resnet50")), qPrintable(rw->messageText()));
    QCOMPARE(doc.plan().device, best.device);
  }

  void showsADistributedPretrainRunWithRankHealth() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    const QString path = dir_.filePath(QStringLiteral("pretrain.jsonl"));
    RunLogWriter log(path.toStdString());
    log.event("run", {{"format", "graphplace-events"}, {"version", 1}, {"command", "pretrain"}, {"ranks", 2}, {"seed", 1},
                      {"tasks", {{{"name", "random: a on 4xP100-PCIe"}, {"held_out", false}},
                                 {{"name", "random: b on 4xP100-PCIe"}, {"held_out", false}},
                                 {{"name", "resnet: c on 4xP100-PCIe"}, {"held_out", true}}}}});
    for (int round = 1; round <= 3; ++round) {
      for (int task = 0; task < 2; ++task)
        log.event("round", {{"round", round}, {"task", task}, {"rank", task}, {"mean_reward", -2.0 + 0.1 * round},
                            {"start_ms", 4.0}, {"best_ms", 4.0 - 0.2 * round}, {"own_ms", 4.5}, {"loss", 0.3}});
      log.event("ranks", {{"round", round}, {"busy_s", {1.5, 1.25}}, {"waiting_s", {0.25, 0.5}}});
    }
    log.event("evaluation", {{"round", 3}, {"task", 2}, {"rank", 0}, {"start_ms", 8.0}, {"best_ms", 6.0}, {"own_ms", nullptr}});
    RunWindow* rw = w.attachRun(path);
    QVERIFY(rw);
    QVERIFY2(!rw->messageIsError(), qPrintable(rw->messageText()));
    QVERIFY(rw->titleText().contains(QStringLiteral("2 ranks")));
    QCOMPARE(rw->table()->rowCount(), 3);
    QCOMPARE(rw->table()->item(1, 1)->text(), QStringLiteral("1"));  // task b ran on rank 1
    QVERIFY(rw->table()->item(2, 0)->text().contains(QStringLiteral("held out")));
    QCOMPARE(rw->table()->item(2, 6)->text(), QStringLiteral("infeasible"));
    QVERIFY2(rw->healthText().contains(QStringLiteral("Round 3")), qPrintable(rw->healthText()));
    QVERIFY(rw->healthText().contains(QStringLiteral("rank 1 worked 1.3 s, waited 0.5 s")) ||
            rw->healthText().contains(QStringLiteral("rank 1 worked 1.2 s, waited 0.5 s")));
    QCOMPARE(rw->rewardPlot()->pointCount(), 2);  // round 3 may still grow until the run ends
    log.event("end", {{"seconds", 9.0}, {"stopped", true}, {"rounds", 3}});
    rw->pollNow();
    QCOMPARE(rw->rewardPlot()->pointCount(), 3);
    QVERIFY2(rw->messageText().startsWith(QStringLiteral("Stopped after 9.0 s")), qPrintable(rw->messageText()));
    QVERIFY(!rw->applyButton()->isEnabled());
  }

  void aLogThatTurnsBadIsOneLine() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    const QString path = dir_.filePath(QStringLiteral("bad.jsonl"));
    RunLogWriter log(path.toStdString());
    writeOptimizeStart(log, QStringLiteral("zoo:mlp"), 4, 2);
    writeIteration(log, 1, 2.0);
    RunWindow* rw = w.attachRun(path);
    QVERIFY(!rw->messageIsError());
    std::ofstream(path.toStdString(), std::ios::app) << "{\"event\": \"iteration\", \"iteration\": \"soon\"}\n";
    rw->pollNow();
    QVERIFY(rw->messageIsError());
    QVERIFY2(rw->messageText().contains(path + QStringLiteral(": line 3: iteration is not a number")),
             qPrintable(rw->messageText()));
    QVERIFY(!rw->following());
    QCOMPARE(rw->rewardPlot()->pointCount(), 1);  // what was read stays
    QVERIFY(w.lastError().isEmpty());
    // not an event log at all
    const QString text = dir_.filePath(QStringLiteral("notes.jsonl"));
    std::ofstream(text.toStdString()) << "hello\n";
    w.attachRun(text);
    QVERIFY(rw->messageIsError());
    QVERIFY(rw->messageText().contains(QStringLiteral("line 1: not JSON")));
  }

  // GP_SCREENSHOT_DIR/run-window.png: the log GP_RUN_LOG names (e.g. a real run's --events).
  void screenshot() {
    const QString shots = qEnvironmentVariable("GP_SCREENSHOT_DIR"), path = qEnvironmentVariable("GP_RUN_LOG");
    if (shots.isEmpty() || path.isEmpty()) QSKIP("GP_SCREENSHOT_DIR or GP_RUN_LOG not set");
    Document doc;
    MainWindow w(&doc, nullptr, false);
    RunWindow* rw = w.attachRun(path);
    rw->resize(1000, 760);
    QVERIFY(QTest::qWaitForWindowExposed(rw));
    QVERIFY2(!rw->messageIsError(), qPrintable(rw->messageText()));
    rw->rewardPlot()->replotNow();
    QTest::qWait(200);
    QVERIFY(rw->grab().save(shots + QStringLiteral("/run-window.png")));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(RunWindowTest)
#include "run_window_test.moc"
