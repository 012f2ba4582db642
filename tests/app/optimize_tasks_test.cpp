// Qt Test: the Optimize options' task boxes (placement, scheduling, fusion) as a person ticks
// them — the defaults, the last ticked box cannot be unticked, the tasks and the fusion used
// when fusion is not a task (OptimizeOptions::fuse, from the plan's groups) reach what the run
// receives, and the choice stays for the next run and the next model. With GP_SCREENSHOT_DIR
// set, the popup is saved as optimize_tasks_popup.png.
//
// Pressing Optimize runs the optimizer plugin zero-shot on a 6-op graph; whether it succeeds is
// not this test's concern (its options are: Document::lastOptimizeOptions).
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

#include "app_test_helpers.h"
#include "document.h"
#include "main_window.h"
#include "optimize_popup.h"

using namespace gp;

namespace {

using gptest::waitIdle;

constexpr const char* kChainDot = R"(digraph tasks {
  mm [op=MatMul, flops="2e10", bytes="4194304"];
  relu [op=Relu, flops="1e6", bytes="4194304"];
  add [op=Add, flops="1e6", bytes="4194304"];
  mm2 [op=MatMul, flops="1e10", bytes="4194304"];
  mul [op=Mul, flops="1e6", bytes="4194304"];
  out [op=Softmax, flops="5e6", bytes="4194304"];
  mm -> relu -> add -> mm2 -> mul -> out;
})";

// "placement,schedule" (the CLI's spelling, gp::toString).
QString tasksText(const OptimizeTasks& t) {
  return QString::fromStdString(gp::toString(t));
}

QCheckBox* box(QWidget& w, const char* name) {
  auto* b = w.findChild<QCheckBox*>(QString::fromLatin1(name));
  if (!b) qFatal("no check box %s", name);
  return b;
}

// Clicks a check box where a person would (its indicator).
void click(QCheckBox* b) {
  QTest::mouseClick(b, Qt::LeftButton, {}, QPoint(8, b->height() / 2));
}

void pressOptimize(MainWindow& w) {
  auto* button = w.findChild<QToolButton*>(QStringLiteral("optimizeButton"));
  QVERIFY(button && button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));  // not the arrow
}

}  // namespace

class OptimizeTasksTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("optimize_tasks_test"));
    QVERIFY(english_.load(QStringLiteral(GP_QM_DIR "/graphplace_en.qm")));
    QCoreApplication::installTranslator(&english_);
    QVERIFY(dir_.isValid());
    dot_ = dir_.filePath(QStringLiteral("tasks.dot"));
    QFile f(dot_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kChainDot);
  }

  // The rule for OptimizeOptions::fuse when fusion is not a task.
  void fuseRule() {
    const OptimizeTasks placeSchedule{true, true, false}, scheduleOnly{false, true, false}, all{true, true, true};
    QCOMPARE(toString(fuseWhenNotATask(placeSchedule, 0)), std::string("none"));
    QCOMPARE(toString(fuseWhenNotATask(placeSchedule, 3)), std::string("default"));  // devices change: default fusion
    QCOMPARE(toString(fuseWhenNotATask(scheduleOnly, 3)), std::string("plan"));      // devices fixed: the plan's groups
    QCOMPARE(toString(fuseWhenNotATask(scheduleOnly, 0)), std::string("none"));
    QCOMPARE(toString(fuseWhenNotATask(all, 3)), std::string("none"));  // fusion is optimized
    QCOMPARE(toString(fuseWhenNotATask(OptimizeTasks{false, false, true}, 3)), std::string("none"));
  }

  void tickUntickBoxes() {
    OptimizePopup popup;
    popup.show();
    QVERIFY(QTest::qWaitForWindowExposed(&popup));
    QCheckBox *placement = box(popup, "optimizePlacement"), *scheduling = box(popup, "optimizeScheduling"),
              *fusion = box(popup, "optimizeFusion");
    QCOMPARE(placement->text(), QStringLiteral("Placement"));
    QCOMPARE(scheduling->text(), QStringLiteral("Scheduling"));
    QCOMPARE(fusion->text(), QStringLiteral("Fusion"));
    // Defaults: placement and scheduling.
    QVERIFY(placement->isChecked() && scheduling->isChecked() && !fusion->isChecked());
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("placement,schedule"));
    QCOMPARE(toString(popup.options().fuse), std::string("none"));
    QCOMPARE(popup.tasksNote(), QStringLiteral("Not optimized: fusion (none)"));

    // Untick placement: scheduling is the last one, greyed out with a tooltip saying why.
    click(placement);
    QVERIFY(!placement->isChecked());
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("schedule"));
    QVERIFY(!scheduling->isEnabled());
    QVERIFY2(scheduling->toolTip().contains(QLatin1String("At least one task")), qPrintable(scheduling->toolTip()));
    click(scheduling);  // refused: it stays ticked
    QVERIFY(scheduling->isChecked());
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("schedule"));
    QCOMPARE(popup.tasksNote(), QStringLiteral("Not optimized: devices (as in the plan) · fusion (none)"));
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(popup.grab().save(QString::fromUtf8(dir) + "/optimize_tasks_last_box.png"));

    // Tick fusion: scheduling can go now; then fusion alone is the last one.
    click(fusion);
    QVERIFY(scheduling->isEnabled());
    click(scheduling);
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("fusion"));
    QVERIFY(!fusion->isEnabled() && placement->isEnabled() && scheduling->isEnabled());
    QCOMPARE(popup.tasksNote(), QStringLiteral("Not optimized: devices (as in the plan) · order (FIFO)"));
    // Everything.
    click(placement);
    click(scheduling);
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("placement,schedule,fusion"));
    QVERIFY(placement->isEnabled() && scheduling->isEnabled() && fusion->isEnabled());
    QCOMPARE(popup.tasksNote(), QStringLiteral("All three are decided jointly."));

    // The plan fuses (2 groups) and has priorities: fusion left out keeps the plan's groups when
    // the devices stay, else default fusion.
    popup.setPlanState(2, true);
    QCOMPARE(toString(popup.options().fuse), std::string("none"));  // fusion is a task
    click(fusion);
    QCOMPARE(toString(popup.options().fuse), std::string("default"));
    QCOMPARE(popup.tasksNote(), QStringLiteral("Not optimized: fusion (default: elementwise chains)"));
    click(placement);
    QCOMPARE(tasksText(popup.options().tasks), QStringLiteral("schedule"));
    QCOMPARE(toString(popup.options().fuse), std::string("plan"));
    QCOMPARE(popup.tasksNote(),
             QStringLiteral("Not optimized: devices (as in the plan) · fusion (the plan's 2 groups)"));
    popup.setPlanState(0, true);
    QCOMPARE(toString(popup.options().fuse), std::string("none"));

    // setTasks (programmatic) ticks exactly what it is given; an empty set is ignored.
    popup.setTasks(OptimizeTasks{false, false, true});
    QCOMPARE(tasksText(popup.tasks()), QStringLiteral("fusion"));
    QVERIFY(!fusion->isEnabled() && scheduling->isEnabled());
    popup.setTasks(OptimizeTasks{false, false, false});
    QCOMPARE(tasksText(popup.tasks()), QStringLiteral("fusion"));
    popup.setTasks(OptimizeTasks{});
    QCOMPARE(tasksText(popup.tasks()), QStringLiteral("placement,schedule"));  // the defaults
    popup.setPlanState(2, false);
    popup.adjustSize();
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(popup.grab().save(QString::fromUtf8(dir) + "/optimize_tasks_popup.png"));
  }

  // What the run receives, from the window's Optimize button, and the choice kept.
  void runReceivesTasks() {
    Document doc;
    MainWindow w(&doc, nullptr, /*restoreLayout=*/false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    OptimizePopup* popup = w.optimizePopup();
    w.findChild<QSpinBox*>(QStringLiteral("optimizeIterations"))->setValue(0);  // zero-shot: quick
    w.findChild<QSpinBox*>(QStringLiteral("optimizeSeed"))->setValue(3);

    // Scheduling and fusion, placement fixed, on a plan without groups.
    click(box(*popup, "optimizePlacement"));
    click(box(*popup, "optimizeFusion"));
    pressOptimize(w);
    QVERIFY(waitIdle(w));
    qInfo("zero-shot run (schedule,fusion): %s", w.lastError().isEmpty() ? "no error" : qPrintable(w.lastError()));
    OptimizeOptions got = doc.lastOptimizeOptions();
    QCOMPARE(tasksText(got.tasks), QStringLiteral("schedule,fusion"));
    QCOMPARE(toString(got.fuse), std::string("none"));
    QCOMPARE(got.iterations, 0);
    QCOMPARE(got.seed, uint64_t{3});
    QVERIFY(got.startPlan.has_value());

    // The user fuses relu + add by hand, keeps the devices and schedules only: the plan's groups.
    const std::vector<OpId> pair = {1, 2};  // relu, add (ids in file order)
    QCOMPARE(QString::fromStdString(doc.graph()->opName(1)), QStringLiteral("relu"));
    doc.assignDevices(pair, 0);  // whatever the first run did, one device
    doc.setSelection(pair);
    QCOMPARE(doc.fuseOps(doc.selection()), QString());
    QVERIFY(waitIdle(w));
    const Plan handFused = doc.plan();
    click(box(*popup, "optimizeFusion"));
    QCOMPARE(tasksText(popup->tasks()), QStringLiteral("schedule"));
    pressOptimize(w);
    QVERIFY(waitIdle(w));
    got = doc.lastOptimizeOptions();
    QCOMPARE(tasksText(got.tasks), QStringLiteral("schedule"));
    QCOMPARE(toString(got.fuse), std::string("plan"));
    QVERIFY(got.startPlan.has_value());
    QCOMPARE(got.startPlan->fusionGroup, handFused.fusionGroup);

    // Placement too: the devices may change, so default fusion (from the hand-fused plan again,
    // whatever the last run made of it).
    if (!(doc.plan() == handFused)) doc.applyPlan(handFused, QStringLiteral("hand-fused"));
    click(box(*popup, "optimizePlacement"));
    pressOptimize(w);
    QVERIFY(waitIdle(w));
    got = doc.lastOptimizeOptions();
    QCOMPARE(tasksText(got.tasks), QStringLiteral("placement,schedule"));
    QCOMPARE(toString(got.fuse), std::string("default"));

    // The choice stays for the next model opened in this window.
    click(box(*popup, "optimizeFusion"));
    click(box(*popup, "optimizeScheduling"));
    doc.open(OpenRequest{dot_, GraphMode::Default, {}, {}, {}, false});
    QVERIFY(waitIdle(w));
    QCOMPARE(tasksText(popup->tasks()), QStringLiteral("placement,fusion"));
    QCOMPARE(toString(popup->options().fuse), std::string("none"));
  }

 private:
  QTranslator english_;
  QTemporaryDir dir_;
  QString dot_;
};

QTEST_MAIN(OptimizeTasksTest)
#include "optimize_tasks_test.moc"
