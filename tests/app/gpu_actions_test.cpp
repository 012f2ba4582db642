// Qt Test: the app's real-GPU features as a person uses them. Here (no GPU: built with or without
// CUDA, no driver) Cluster ▸ Profile Local GPUs… and Run ▸ Measure on GPUs are disabled with the
// one-line reason as their tooltip; the profile dialog reports a failed run in one line and leaves
// the document alone, streams progress, cancels, and (fed a synthetic two-H100 profile) saves the
// cluster with its calibration table and switches the document to them. A real measurement shows
// below the simulated timeline on one time axis, captioned with both step times, and an edit of
// the plan clears it. A calibration table changes the step time shown exactly as it says, and
// clearing it restores the roofline's. With GPUs simulated (GpuAvailability::setAnswers and a
// Document::setGpuMeasurer stand-in): a plan needs one GPU per device it uses; profiling and
// Measure on GPUs exclude each other, and the optimizer and baselines wait for the measure; a
// late Cancel drops the result; an error names the problem once. A cluster or table chosen while
// a model opens applies to it; a table of foreign device kinds warns that it calibrates nothing;
// a profile without a table keeps the loaded one. With GP_SCREENSHOT_DIR set,
// gpu_side_by_side.png, gpu_timeline_export.png, gpu_disabled_tooltip.png and
// gpu_measure_while_profiling.png are saved there.
#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QTranslator>
#include <algorithm>
#include <atomic>
#include <thread>

#include "app_test_helpers.h"
#include "document.h"
#include "gpu_availability.h"
#include "base/error.h"
#include "cluster/cluster.h"
#include "main_window.h"
#include "placement/placer.h"
#include "profile/gpu_measure.h"
#include "profile/profile_plugin.h"
#include "profile_dialog.h"
#include "sim/simulator.h"
#include "synthetic_profile.h"
#include "timeline/timeline_compare.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_view.h"

using namespace gp;

namespace {

using gptest::action;
using gptest::caught;
using gptest::waitIdle;

// mm (MatMul) -> relu -> add -> out; 4 MiB tensors.
constexpr const char* kChainDot = R"(digraph gpu {
  mm [op=MatMul, flops="2e10", bytes="4194304"];
  relu [op=Relu, flops="1e6", bytes="4194304"];
  add [op=Add, flops="1e6", bytes="4194304"];
  out [op=Softmax, flops="5e6", bytes="4194304"];
  mm -> relu -> add -> out;
})";

// What this machine says when asked for its GPUs: "" if it has some.
QString gpuProbeError() {
  if (!profilerBuilt()) return QString::fromLatin1(kBuiltWithoutCuda);
  try {
    if (listGpus().empty()) return QStringLiteral("no NVIDIA GPU found");
  } catch (const Error& e) {
    return QString::fromStdString(e.problem());
  }
  return {};
}

QString metrics(MainWindow& w) {
  return w.findChild<QLabel*>(QStringLiteral("metricsLabel"))->text();
}

QToolButton* toolButtonOf(MainWindow& w, QAction* a) {
  for (QToolButton* b : w.findChild<QToolBar*>(QStringLiteral("mainToolBar"))->findChildren<QToolButton*>())
    if (b->defaultAction() == a) return b;
  return nullptr;
}

QMenu* menuTitled(MainWindow& w, const QString& title) {
  for (QAction* a : w.menuBar()->actions())
    if (a->text() == title) return a->menu();
  return nullptr;
}

// A calibration table for kChainDot's four ops on `kind` (all on one device: 5 + 1 + 1 + 2 ms).
QString writeTable(const QString& path, const QString& kind) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(QStringLiteral(R"({"format": "graphplace-calibration", "version": 1, "entries": [
    {"op_type": "MatMul", "input_shapes": [], "dtype": "f32", "device_kind": "%1", "seconds": 5e-3},
    {"op_type": "Relu", "input_shapes": [null], "dtype": "f32", "device_kind": "%1", "seconds": 1e-3},
    {"op_type": "Add", "input_shapes": [null], "dtype": "f32", "device_kind": "%1", "seconds": 1e-3},
    {"op_type": "Softmax", "input_shapes": [null], "dtype": "f32", "device_kind": "%1", "seconds": 2e-3}]})")
              .arg(kind)
              .toUtf8());
  return path;
}

QString deviceKind(const char* cluster) {
  return QString::fromStdString(loadCluster(cluster).device(0).kind);
}

// Stands in for the GPUs: the simulated step as "measured", once `release` is set (or Cancel is
// pressed: then it still returns normally, as a run past its last cancel check does).
Document::GpuMeasurer heldMeasurer(std::shared_ptr<std::atomic<bool>> release) {
  return [release](const CostModel& cost, const Plan& plan, const GpuMeasureOptions&, const ProfileProgressFn& say,
                   const std::atomic<bool>* cancel) {
    if (say) say("measure: 4 kernels and 0 peer copies per step on 1 GPU");
    while (!*release && !(cancel && *cancel)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    GpuMeasureResult r;
    r.simulated = Simulator(cost).run(plan, true);
    r.measured = r.simulated;
    r.measured.stepTime *= 1.05;
    GpuInfo g;
    g.name = "NVIDIA H200";
    r.gpus = {g};
    return r;
  };
}

}  // namespace

class GpuActionsTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("graphplace-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("gpu_actions_test"));
    QVERIFY(english_.load(QStringLiteral(GP_QM_DIR "/graphplace_en.qm")));  // plural forms
    QCoreApplication::installTranslator(&english_);
    QVERIFY(dir_.isValid());
    dot_ = dir_.filePath(QStringLiteral("gpu.dot"));
    QFile f(dot_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kChainDot);
  }

  // No GPU here: both actions disabled (menu and toolbar), the reason as their tooltip.
  void disabledWithTheReason() {
    const QString why = gpuProbeError();
    if (why.isEmpty()) QSKIP("this machine has GPUs: the actions are enabled");
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1400, 900);
    QAction* profile = action(w, "actionProfileGpus");
    QAction* measure = action(w, "actionMeasureOnGpus");
    QVERIFY(!profile->isEnabled() && !measure->isEnabled());  // not probed before the window shows
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QTRY_VERIFY_WITH_TIMEOUT(w.gpuAvailability()->isProbed(), 10000);
    QVERIFY(!profile->isEnabled());
    QCOMPARE(profile->toolTip(), why);
    QVERIFY(!why.contains(QLatin1Char('\n')));
    const QString measureWhy = QString::fromStdString(gpuMeasureUnavailable(1));
    QVERIFY(!measureWhy.isEmpty());
    QVERIFY(!measure->isEnabled());
    QCOMPARE(measure->toolTip(), measureWhy);
    QVERIFY(!measureWhy.contains(QLatin1Char('\n')));
    // Beside Measure in the Run menu and on the toolbar, disabled with the same tooltip.
    QMenu* run = menuTitled(w, QStringLiteral("&Run"));
    QVERIFY(run && run->toolTipsVisible());
    const QList<QAction*> runActions = run->actions();
    QCOMPARE(runActions.indexOf(measure), runActions.indexOf(action(w, "actionMeasure")) + 1);
    QToolButton* button = toolButtonOf(w, measure);
    QVERIFY(button && !button->isEnabled());
    QCOMPARE(button->toolTip(), measureWhy);
    QMenu* cluster = menuTitled(w, QStringLiteral("&Cluster"));
    QVERIFY(cluster && cluster->actions().contains(profile) && cluster->toolTipsVisible());
    // Still disabled, with the reason, after a cluster of more devices and a plan on gpu0 and gpu5
    // (which needs two GPUs: the used devices run on GPUs 0 and 1).
    QVERIFY(doc.setCluster(QStringLiteral("8xV100-DGX1")));
    doc.assignDevices({0}, 5);
    QVERIFY(waitIdle(w));
    QVERIFY(!measure->isEnabled());
    QCOMPARE(measure->toolTip(), QString::fromStdString(gpuMeasureUnavailable(2)));
    // Triggering the disabled action does nothing.
    measure->trigger();
    QVERIFY(!doc.isMeasuringOnGpus());

    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty()) {
      // The Cluster menu open with the disabled action's tooltip (popups are windows of their own:
      // the screen is grabbed, which needs a real display such as xvfb's).
      cluster->popup(w.mapToGlobal(QPoint(200, 30)));
      QVERIFY(QTest::qWaitForWindowExposed(cluster));
      const QRect r = cluster->actionGeometry(profile);
      QToolTip::showText(cluster->mapToGlobal(r.center() + QPoint(20, 10)), profile->toolTip(), cluster);
      QTest::qWait(400);
      const QPixmap screen = QGuiApplication::primaryScreen()->grabWindow(0);
      if (!screen.isNull() && screen.width() > 1)
        QVERIFY(screen.copy(w.frameGeometry().adjusted(0, 0, 300, 0))
                    .save(QString::fromUtf8(dir) + "/gpu_disabled_tooltip.png"));
      cluster->hide();
    }
  }

  // The dialog as a user runs it here: Start fails with the profiler's one-line reason; nothing
  // to save; the open document is unchanged.
  void profileDialogReportsTheError() {
    const QString why = gpuProbeError();
    if (why.isEmpty()) QSKIP("this machine has GPUs: a profile would run");
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QString expected;
    try {
      (void)runProfile(ProfileOptions{true});
    } catch (const std::exception& e) {
      expected = QString::fromStdString(e.what());
    }
    QVERIFY(!expected.isEmpty());
    ProfileDialog* d = w.openProfileDialog();  // the action is disabled: the dialog itself
    QVERIFY(d && d->isVisible());
    QVERIFY(d->quickBox()->isChecked());
    QVERIFY(!d->saveButton()->isEnabled());
    QTest::mouseClick(d->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), 10000);
    QCOMPARE(d->errorText(), expected);
    QVERIFY(!d->errorText().contains(QLatin1Char('\n')));
    QVERIFY(!d->hasProfile() && !d->saveButton()->isEnabled() && d->startButton()->isEnabled());
    QCOMPARE(d->saveTo(dir_.filePath(QStringLiteral("never.json"))),
             QStringLiteral("Nothing to save: run the profile first."));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("never.json"))));
    QCOMPARE(doc.workspace()->clusterLabel, QStringLiteral("4xP100-PCIe"));
    QVERIFY(!doc.hasCalibration());
    QVERIFY(w.lastError().isEmpty());
  }

  // Progress lines arrive while it runs; Cancel reaches the profiler, which stops.
  void profileDialogStreamsAndCancels() {
    ProfileDialog d(nullptr,
                    [](const ProfileOptions& o, const ProfileProgressFn& progress,
                       const std::atomic<bool>* cancel) -> ProfileResult {
                      progress(o.quick ? "quick run" : "full run");
                      for (int i = 1; i < 500; ++i) {
                        if (cancel && *cancel) throw Error("profile", "cancelled");
                        std::string line = "[";  // (operator+ on a literal trips GCC 12's -Wrestrict)
                        line += std::to_string(i);
                        line += "] gpu0: GEMM";
                        progress(line);
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                      }
                      throw Error("profile", "the cancel flag never arrived");
                    });
    d.show();
    d.quickBox()->setChecked(false);
    QTest::mouseClick(d.startButton(), Qt::LeftButton);
    QVERIFY(d.isRunning() && !d.startButton()->isEnabled() && d.cancelButton()->isEnabled());
    QTRY_VERIFY(d.logText().contains(QLatin1String("[3] gpu0: GEMM")));
    QVERIFY(d.logText().startsWith(QLatin1String("full run\n")));  // the check box reached the profiler
    QTest::mouseClick(d.cancelButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!d.isRunning(), 5000);
    QCOMPARE(d.errorText(), QStringLiteral("profile: cancelled"));
    QVERIFY(!d.hasProfile());
  }

  // A (synthetic) successful profile: summary, Save Cluster writes both files, the document
  // switches to the profiled cluster with its calibration table.
  void profileSavedAndUsed() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    ProfileDialog* d = w.openProfileDialog();
    d->setRunner([](const ProfileOptions&, const ProfileProgressFn& progress, const std::atomic<bool>*) {
      progress("[1/2] gpu0: GEMM f32 4096^3 ... 50 TFLOP/s");
      progress("[2/2] gpu0 -> gpu1: 400 GB/s");
      return gptest::twoH100s();
    });
    QTest::mouseClick(d->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), 10000);
    QVERIFY2(d->errorText().isEmpty(), qPrintable(d->errorText()));
    QVERIFY(d->logText().contains(QLatin1String("[2/2] gpu0 -> gpu1: 400 GB/s")));
    QVERIFY2(d->summaryText().contains(QLatin1String("H100")), qPrintable(d->summaryText()));
    QVERIFY(d->saveButton()->isEnabled());
    const QString cluster = dir_.filePath(QStringLiteral("lab.json"));
    QCOMPARE(d->saveTo(cluster), QString());
    const QString cal = dir_.filePath(QStringLiteral("lab.calibration.json"));
    QCOMPARE(ProfileDialog::calibrationPathFor(cluster), cal);
    QVERIFY(QFile::exists(cluster) && QFile::exists(cal));
    QCOMPARE(doc.workspace()->clusterLabel, cluster);
    QCOMPARE(doc.cluster()->numDevices(), 2);
    QCOMPARE(QString::fromStdString(doc.cluster()->name()), QStringLiteral("lab"));
    QCOMPARE(doc.calibrationLabel(), cal);
    QVERIFY(doc.workspace()->calibration && doc.workspace()->calibration->size() > 0);
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasMeasurement() && doc.measurement().feasible);
    QVERIFY2(metrics(w).contains(QLatin1String("calibrated by lab.calibration.json")), qPrintable(metrics(w)));
    QVERIFY(action(w, "actionClearCalibration")->isEnabled());
  }

  // A real measurement beside the simulation; an edit clears it.
  void sideBySideThenEditClears() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    doc.assignDevices({2, 3}, 1);  // add and out on gpu1: a transfer
    doc.measure();
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    TimelineCompare* compare = w.timelineCompare();
    QVERIFY(!compare->hasMeasured() && !compare->measuredView()->isVisible());
    QVERIFY(compare->simulatedCaption().isEmpty());

    // "Measured": every kernel 10 % longer, no transfer on the timeline.
    GpuMeasureResult r;
    r.simulated = doc.measurement();
    r.measured = doc.measurement();
    r.measured.stepTime *= 1.1;
    std::erase_if(r.measured.timeline, [](const TimelineEvent& e) { return e.kind == TimelineEvent::Kind::Transfer; });
    for (TimelineEvent& e : r.measured.timeline) e.start *= 1.1, e.end *= 1.1;
    GpuInfo h200;
    h200.name = "NVIDIA H200";
    r.gpus = {h200, h200};
    const size_t kernels = r.measured.timeline.size();
    QCOMPARE(kernels, size_t{4});
    doc.setGpuMeasurement(r);
    QVERIFY(doc.hasGpuMeasurement());
    QVERIFY(compare->hasMeasured() && compare->measuredView()->isVisible());
    QCOMPARE(compare->simulatedCaption(), QStringLiteral("Simulated %1").arg(formatDuration(r.simulated.stepTime)));
    QCOMPARE(compare->measuredCaption(),
             QStringLiteral("Measured on 2 × NVIDIA H200 %1 (+10.0 %)").arg(formatDuration(r.measured.stepTime)));
    QCOMPARE(compare->measuredView()->barCount(), kernels);
    QVERIFY(compare->simulatedView()->barCount() > kernels);  // the transfer too
    QCOMPARE(compare->measuredView()->rowName(1), QStringLiteral("gpu1"));
    // One time axis: both fit the longer (measured) step; zooming one zooms the other.
    QCOMPARE(compare->simulatedView()->visibleTimeRange().width(), compare->measuredView()->visibleTimeRange().width());
    auto window = [](TimelineView* v) {
      return std::pair{v->visibleTimeRange().left(), v->visibleTimeRange().right()};
    };
    compare->simulatedView()->setVisibleTimeRange(0.1 * r.simulated.stepTime, 0.6 * r.simulated.stepTime);
    QCOMPARE(window(compare->measuredView()), std::pair(0.1 * r.simulated.stepTime, 0.6 * r.simulated.stepTime));
    compare->measuredView()->setVisibleTimeRange(0, 0.3 * r.simulated.stepTime);
    QCOMPARE(window(compare->simulatedView()), std::pair(0.0, 0.3 * r.simulated.stepTime));
    compare->zoomToFit();
    const QString text = metrics(w);
    QVERIFY2(text.contains(QStringLiteral("simulated %1, measured %2 on 2 × NVIDIA H200 (+10.0 %)")
                               .arg(formatDuration(r.simulated.stepTime), formatDuration(r.measured.stepTime))),
             qPrintable(text));
    // File ▸ Export ▸ Timeline Image: both, one above the other.
    const QString png = dir_.filePath(QStringLiteral("both.png"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::TimelineImage, png), QString());
    const QImage both(png);
    QVERIFY(!both.isNull());
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty()) {
      QFile::remove(QString::fromUtf8(dir) + "/gpu_timeline_export.png");
      QVERIFY(QFile::copy(png, QString::fromUtf8(dir) + "/gpu_timeline_export.png"));
    }
    // Selecting an op highlights it in both.
    doc.setSelection({0});
    QCOMPARE(compare->measuredView()->selectedOps(), std::vector<OpId>{0});
    QTest::qWait(50);
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
      QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/gpu_side_by_side.png"));

    // F5 on the same plan keeps it; an edit clears it (it no longer matches the plan).
    action(w, "actionMeasure")->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasGpuMeasurement() && compare->hasMeasured());
    doc.assignDevices({1}, 2);
    QVERIFY(!doc.hasGpuMeasurement());
    QVERIFY(!compare->hasMeasured() && !compare->measuredView()->isVisible());
    QVERIFY(compare->measuredCaption().isEmpty());
    QCOMPARE(compare->measuredView()->barCount(), size_t{0});
    const QString one = dir_.filePath(QStringLiteral("one.png"));
    QCOMPARE(w.exportTo(MainWindow::ExportKind::TimelineImage, one), QString());
    QVERIFY(QImage(one) != both);

    QVERIFY2(!metrics(w).contains(QLatin1String("NVIDIA H200")), qPrintable(metrics(w)));
    // Undo brings the plan back, not the measurement (it was of that plan, but is gone).
    action(w, "actionUndo")->trigger();
    QVERIFY(!doc.hasGpuMeasurement());
  }

  // measureOnGpus runs the devices a plan uses on GPUs 0, 1, …: it needs one GPU per distinct
  // device, not the highest device + 1.
  void measureNeedsOneGpuPerUsedDevice() {
    Plan p;
    p.device = {0, 5, 0, 5};
    QCOMPARE(GpuAvailability::gpusNeeded(p), 2);
    p.device = {3, 3};
    QCOMPARE(GpuAvailability::gpusNeeded(p), 1);
    p.device = {};
    QCOMPARE(GpuAvailability::gpusNeeded(p), 1);
    p.device = {7, 0, 2, -1};
    QCOMPARE(GpuAvailability::gpusNeeded(p), 3);

    Document doc;
    MainWindow w(&doc, nullptr, false);
    QList<int> asked;
    auto twoGpus = [&asked](int n) {
      asked << n;
      return n > 2 ? QStringLiteral("the plan uses %1 devices but this machine has 2 GPUs").arg(n) : QString();
    };
    w.gpuAvailability()->setAnswers({}, twoGpus);
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("8xV100-DGX1"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QAction* measure = action(w, "actionMeasureOnGpus");
    QVERIFY(measure->isEnabled());
    doc.assignDevices({0}, 5);  // gpu0 and gpu5: two GPUs
    QVERIFY(waitIdle(w));
    QCOMPARE(asked.last(), 2);
    QVERIFY2(measure->isEnabled(), qPrintable(measure->toolTip()));
    doc.assignDevices({1}, 6);  // gpu0, gpu5 and gpu6: three
    QVERIFY(waitIdle(w));
    QCOMPARE(asked.last(), 3);
    QVERIFY(!measure->isEnabled());
    QCOMPARE(measure->toolTip(), twoGpus(3));
  }

  // One CUPTI collector per process: while the dialog profiles, Measure on GPUs is disabled
  // (saying why); while the plan runs on the GPUs, Profile, the dialog's Start, Optimize and the
  // baselines are (the document refuses them too). Cancel pressed before the run returned drops
  // its result.
  void gpuRunsExcludeEachOther() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.resize(1400, 900);
    w.gpuAvailability()->setAnswers({}, [](int) { return QString(); });
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QAction* measure = action(w, "actionMeasureOnGpus");
    QAction* profile = action(w, "actionProfileGpus");
    QVERIFY(measure->isEnabled() && profile->isEnabled());
    const QString measureTip = measure->toolTip();

    // The dialog profiles (until cancelled): no Measure on GPUs.
    ProfileDialog* d = w.openProfileDialog();
    d->setRunner([](const ProfileOptions&, const ProfileProgressFn& progress,
                    const std::atomic<bool>* cancel) -> ProfileResult {
      progress("[1/9] gpu0: GEMM");
      while (!(cancel && *cancel)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      throw Error("profile", "cancelled");
    });
    QTest::mouseClick(d->startButton(), Qt::LeftButton);
    QVERIFY(d->isRunning());
    const QString profiling =
        QStringLiteral("The GPUs are being profiled: measure on them once the profile has finished.");
    QVERIFY(!measure->isEnabled());
    QCOMPARE(measure->toolTip(), profiling);
    QToolButton* button = toolButtonOf(w, measure);
    QVERIFY(button && !button->isEnabled());
    QCOMPARE(button->toolTip(), profiling);
    measure->trigger();
    QVERIFY(!doc.isMeasuringOnGpus());
    if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty()) {
      // The Run menu open with the disabled action's tooltip (a real display such as xvfb's).
      QMenu* run = menuTitled(w, QStringLiteral("&Run"));
      w.activateWindow();
      run->popup(w.mapToGlobal(QPoint(260, 30)));
      QVERIFY(QTest::qWaitForWindowExposed(run));
      const QRect r = run->actionGeometry(measure);
      QToolTip::showText(run->mapToGlobal(QPoint(r.right() + 4, r.top() - 14)), measure->toolTip(), run);
      QTest::qWait(400);
      const QPixmap screen = QGuiApplication::primaryScreen()->grabWindow(0);
      if (!screen.isNull() && screen.width() > 1)
        QVERIFY(screen.copy(w.frameGeometry().adjusted(0, 0, 300, 0))
                    .save(QString::fromUtf8(dir) + "/gpu_measure_while_profiling.png"));
      run->hide();
    }
    d->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), 5000);
    QVERIFY(measure->isEnabled());
    QCOMPARE(measure->toolTip(), measureTip);

    // The plan runs on the GPUs (until cancelled): no profile, optimizer or baselines.
    auto release = std::make_shared<std::atomic<bool>>(false);
    doc.setGpuMeasurer(heldMeasurer(release));
    QSignalSpy warnings(&doc, &Document::warning);
    measure->trigger();
    QVERIFY(doc.isMeasuringOnGpus());
    const QString onGpus = QStringLiteral("The plan is running on the GPUs: profile them once it has finished.");
    QVERIFY(!measure->isEnabled());
    QVERIFY(!profile->isEnabled());
    QCOMPARE(profile->toolTip(), onGpus);
    QVERIFY(!d->startButton()->isEnabled());
    QCOMPARE(d->startButton()->toolTip(), onGpus);
    d->start();
    QVERIFY(!d->isRunning());
    const QString wait = QStringLiteral("The plan is running on the GPUs: wait until it finishes, or cancel it.");
    QAction* optimize = action(w, "actionOptimize");
    QVERIFY(!optimize->isEnabled());
    QCOMPARE(optimize->toolTip(), wait);
    const QString method = QString::fromStdString(placementMethods().front());
    for (QAction* a : {action(w, "actionAllBaselines"), action(w, qPrintable("actionBaseline_" + method))}) {
      QVERIFY2(!a->isEnabled(), qPrintable(a->objectName()));
      QCOMPARE(a->toolTip(), wait);
    }
    const int entries = doc.history()->count();
    doc.runBaselines({method});
    QCOMPARE(caught(warnings).value(0), wait);
    doc.optimize(OptimizeOptions{});
    QVERIFY(!doc.isOptimizing());
    QCOMPARE(caught(warnings).value(1), wait);
    // Cancel; the stand-in still returns its result normally: dropped.
    action(w, "actionCancel")->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY(!doc.isMeasuringOnGpus());
    QVERIFY(!doc.hasGpuMeasurement() && !w.timelineCompare()->hasMeasured());
    QCOMPARE(caught(warnings).value(2), QStringLiteral("Measure on GPUs cancelled"));
    QCOMPARE(doc.history()->count(), entries);  // no baseline ran
    QVERIFY(profile->isEnabled() && d->startButton()->isEnabled() && optimize->isEnabled() && measure->isEnabled());
    QVERIFY(d->startButton()->toolTip().isEmpty());
    QCOMPARE(optimize->toolTip(),
             QStringLiteral("Improve the current plan with the reinforcement-learning optimizer (options: the arrow)"));
    // Not cancelled: the result is shown.
    *release = true;
    measure->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasGpuMeasurement() && w.timelineCompare()->hasMeasured());
    QCOMPARE(doc.gpuMeasurement().measured.stepTime, 1.05 * doc.measurement().stepTime);
  }

  // A failed run says its problem once ("Measure on GPUs failed: …", no "measure: " inside).
  void gpuErrorNamesTheProblemOnce() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.gpuAvailability()->setAnswers({}, [](int) { return QString(); });
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    doc.setGpuMeasurer([](const CostModel&, const Plan&, const GpuMeasureOptions&, const ProfileProgressFn&,
                          const std::atomic<bool>*) -> GpuMeasureResult {
      throw Error("measure", "the plan uses 2 devices (gpu0..gpu1) but this machine has 1 GPU");
    });
    action(w, "actionMeasureOnGpus")->trigger();
    QVERIFY(waitIdle(w));
    QCOMPARE(w.lastError(),
             QStringLiteral("Measure on GPUs failed: the plan uses 2 devices (gpu0..gpu1) but this machine has 1 GPU"));
    QVERIFY(!doc.hasGpuMeasurement());
  }

  // A cluster and a calibration table chosen while a model opens apply to it once open, and the
  // status bar says what the cost model uses; a table cleared meanwhile stays cleared.
  void choicesMadeWhileOpeningApply() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    const QString table = writeTable(dir_.filePath(QStringLiteral("p100.json")), deviceKind("4xP100-PCIe"));
    QVERIFY(!table.isEmpty());
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("8xV100-DGX1"), {}, {}, false});
    QVERIFY(doc.isBusy());  // its result arrives through the event loop, not before the next lines
    QVERIFY(doc.setCluster(QStringLiteral("4xP100-PCIe")));
    QVERIFY(doc.loadCalibration(table));
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.workspace()->clusterLabel, QStringLiteral("4xP100-PCIe"));
    QCOMPARE(doc.cluster()->numDevices(), 4);
    QCOMPARE(doc.workspace()->calibration, doc.calibration());
    QCOMPARE(doc.workspace()->cost->numCalibrated(), 4);
    QCOMPARE(doc.measurement().stepTime, 9e-3);
    QVERIFY2(metrics(w).contains(QLatin1String("calibrated by p100.json (4 op times from it)")),
             qPrintable(metrics(w)));
    // Opened again (same cluster) and the table cleared meanwhile: the roofline's times.
    doc.open(OpenRequest{dot_, GraphMode::Default, {}, {}, {}, false});
    QVERIFY(doc.isBusy());
    doc.clearCalibration();
    QVERIFY(waitIdle(w));
    QVERIFY(!doc.hasCalibration());
    QVERIFY(!doc.workspace()->calibration);
    QCOMPARE(doc.workspace()->cost->numCalibrated(), 0);
    QVERIFY(doc.measurement().stepTime != 9e-3);
    QVERIFY2(!metrics(w).contains(QLatin1String("calibrated")), qPrintable(metrics(w)));
  }

  // A table of device kinds the cluster lacks calibrates nothing, and the app says so once; a
  // profile saved without a table keeps the one loaded.
  void foreignTableWarnsAndStays() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    QSignalSpy warnings(&doc, &Document::warning);
    const QString p100 = deviceKind("4xP100-PCIe"), v100 = deviceKind("8xV100-DGX1");
    QVERIFY(p100 != v100);
    const QString h100 = writeTable(dir_.filePath(QStringLiteral("h100.json")), QStringLiteral("H100-SXM5-80GB"));
    QVERIFY(doc.loadCalibration(h100));
    QVERIFY(waitIdle(w));
    QCOMPARE(caught(warnings),
             QStringList{QStringLiteral("h100.json: its device kinds (H100-SXM5-80GB) include none of cluster "
                                        "4xP100-PCIe's (%1), so it calibrates nothing")
                             .arg(p100)});
    // A table that matches: no warning.
    warnings.clear();
    const QString table = writeTable(dir_.filePath(QStringLiteral("p100-b.json")), p100);
    QVERIFY(doc.loadCalibration(table));
    QVERIFY(waitIdle(w));
    QCOMPARE(caught(warnings), QStringList{});
    QCOMPARE(doc.workspace()->cost->numCalibrated(), 4);
    // A profiled cluster without a table of its own (here a preset stands in for the file): the
    // loaded table stays, and warns, as it matches none of the new cluster's kinds.
    QVERIFY(doc.useProfiledCluster(QStringLiteral("8xV100-DGX1"), {}));
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.calibrationLabel(), table);
    QCOMPARE(doc.workspace()->calibration, doc.calibration());
    QVERIFY(doc.calibration() != nullptr);
    QCOMPARE(doc.workspace()->clusterLabel, QStringLiteral("8xV100-DGX1"));
    QCOMPARE(caught(warnings).size(), 1);
    QVERIFY2(caught(warnings).front().endsWith(QLatin1String(", so it calibrates nothing")),
             qPrintable(caught(warnings).front()));
    QVERIFY2(caught(warnings).front().contains(v100), qPrintable(caught(warnings).front()));
    QVERIFY2(metrics(w).contains(QLatin1String("calibrated by p100-b.json (0 op times from it)")),
             qPrintable(metrics(w)));
  }

  // A calibration table changes the step time as it says; clearing it restores the roofline's.
  void calibrationChangesTheStepTime() {
    Document doc;
    MainWindow w(&doc, nullptr, false);
    w.show();
    doc.open(OpenRequest{dot_, GraphMode::Default, QStringLiteral("4xP100-PCIe"), {}, {}, false});
    QVERIFY(waitIdle(w));
    const double roofline = doc.measurement().stepTime;
    QVERIFY(roofline > 0);
    const QString kind = QString::fromStdString(doc.cluster()->device(0).kind);
    // All four ops on gpu0 one after another: 5 + 1 + 1 + 2 ms.
    const QString table = writeTable(dir_.filePath(QStringLiteral("cal.json")), kind);
    QVERIFY(!table.isEmpty());
    QVERIFY(!action(w, "actionClearCalibration")->isEnabled());
    QVERIFY(doc.loadCalibration(table));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.measurementIsCurrent());
    QCOMPARE(doc.measurement().stepTime, 9e-3);
    QCOMPARE(doc.workspace()->cost->numCalibrated(), 4);
    QVERIFY2(metrics(w).contains(QLatin1String("step 9.00 ms")), qPrintable(metrics(w)));
    QVERIFY2(metrics(w).contains(QLatin1String("calibrated by cal.json (4 op times from it)")), qPrintable(metrics(w)));
    // It stays through a cluster switch (entries of another device kind simply do not apply).
    QVERIFY(doc.setCluster(QStringLiteral("8xV100-DGX1")));
    QVERIFY(waitIdle(w));
    QVERIFY(doc.hasCalibration() && doc.workspace()->calibration);
    QCOMPARE(doc.workspace()->cost->numCalibrated(), 0);
    QVERIFY(doc.setCluster(QStringLiteral("4xP100-PCIe")));
    QVERIFY(waitIdle(w));
    QCOMPARE(doc.measurement().stepTime, 9e-3);
    // A bad table: one line, nothing changes.
    const QString bad = dir_.filePath(QStringLiteral("bad.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write("{\"format\": \"nope\"}");
    b.close();
    QVERIFY(!doc.loadCalibration(bad));
    QVERIFY2(w.lastError().startsWith(bad), qPrintable(w.lastError()));
    QCOMPARE(doc.calibrationLabel(), table);
    QCOMPARE(doc.measurement().stepTime, 9e-3);
    // Cluster ▸ Clear Calibration Table: the roofline again.
    QAction* clear = action(w, "actionClearCalibration");
    QVERIFY(clear->isEnabled());
    clear->trigger();
    QVERIFY(waitIdle(w));
    QVERIFY(!doc.hasCalibration() && !clear->isEnabled());
    QCOMPARE(doc.measurement().stepTime, roofline);
    QVERIFY(!metrics(w).contains(QLatin1String("calibrated")));
  }

 private:
  QTranslator english_;
  QTemporaryDir dir_;
  QString dot_;
};

QTEST_MAIN(GpuActionsTest)
#include "gpu_actions_test.moc"
