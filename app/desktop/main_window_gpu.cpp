// MainWindow: what runs on real GPUs — Cluster ▸ Profile Local GPUs… (ProfileDialog), Load /
// Clear Calibration Table…, Run ▸ Measure on GPUs and the measured timeline shown below the
// simulated one (TimelineCompare) — and the state of those actions: disabled, with the one-line
// reason as tooltip, until GpuAvailability (probed in the background once the window is shown)
// says this build and machine can run them. Profiling and Measure on GPUs never run at once (one
// CUPTI collector per process): while the profile dialog runs, Measure on GPUs is disabled; while
// the plan runs on the GPUs, the Profile action and the dialog's Start are; each says why.
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QStatusBar>
#include <algorithm>

#include "allowed_action.h"
#include "gpu_availability.h"
#include "main_window.h"
#include "profile_dialog.h"
#include "timeline/timeline_compare.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_view.h"

namespace gp {

namespace {

// "NVIDIA H200", "4 × NVIDIA H200", "NVIDIA H200, NVIDIA A100" (the GPUs that ran the step).
QString gpuText(const std::vector<GpuInfo>& gpus) {
  QStringList names;
  for (const GpuInfo& g : gpus) names << QString::fromStdString(g.name);
  QStringList distinct = names;
  distinct.removeDuplicates();
  if (distinct.isEmpty()) return MainWindow::tr("GPUs");
  if (distinct.size() == 1 && names.size() > 1)
    return MainWindow::tr("%1 × %2").arg(names.size()).arg(distinct.front());
  return distinct.join(QStringLiteral(", "));
}

// "+6.5 %", "−3.0 %"
QString signedPercent(double fraction) {
  const QString number = QLocale().toString(std::abs(fraction) * 100, 'f', 1);
  return MainWindow::tr("%1%2 %", "signed percentage")
      .arg(fraction < 0 ? QStringLiteral("\u2212") : QStringLiteral("+"), number);
}

}  // namespace

void MainWindow::createGpuActions() {
  profileAct_ = new QAction(tr("&Profile Local GPUs…"), this);
  profileAct_->setObjectName(QStringLiteral("actionProfileGpus"));
  connect(profileAct_, &QAction::triggered, this, [this] { openProfileDialog(); });
  measureGpuAct_ = new QAction(tr("Measure on &GPUs"), this);
  measureGpuAct_->setObjectName(QStringLiteral("actionMeasureOnGpus"));
  measureGpuAct_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  connect(measureGpuAct_, &QAction::triggered, doc_, [this] { doc_->measureOnGpus(); });
  loadCalibrationAct_ = new QAction(tr("Load Calibration &Table…"), this);
  loadCalibrationAct_->setObjectName(QStringLiteral("actionLoadCalibration"));
  setAllowedTip(loadCalibrationAct_, tr("Use measured op times (a calibration table) instead of the roofline estimate"));
  connect(loadCalibrationAct_, &QAction::triggered, this, &MainWindow::chooseCalibration);
  clearCalibrationAct_ = new QAction(tr("C&lear Calibration Table"), this);
  clearCalibrationAct_->setObjectName(QStringLiteral("actionClearCalibration"));
  setAllowedTip(clearCalibrationAct_, tr("Estimate every op's time with the roofline model again"));
  connect(clearCalibrationAct_, &QAction::triggered, doc_, [this] { doc_->clearCalibration(); });
  for (QAction* a : {profileAct_, measureGpuAct_}) a->setEnabled(false);  // until the GPUs are probed
}

void MainWindow::addClusterMenu() {
  QMenu* cluster = menuBar()->addMenu(tr("&Cluster"));
  cluster->setObjectName(QStringLiteral("clusterMenu"));
  cluster->setToolTipsVisible(true);  // a disabled action says why
  cluster->addAction(loadClusterAct_);
  cluster->addAction(profileAct_);
  cluster->addSeparator();
  cluster->addAction(loadCalibrationAct_);
  cluster->addAction(clearCalibrationAct_);
  connect(cluster, &QMenu::aboutToShow, gpu_, &GpuAvailability::probe);
}

void MainWindow::updateGpuActions() {
  if (!measureGpuAct_) return;
  const bool profiling = profileDialog_ && profileDialog_->isRunning();
  // Profiling and measuring share the process's one CUPTI collector: never both at once. The
  // document's rules say when it measures; the dialog that profiles is this window's.
  const QString gpusBusy = doc_->whyNot(JobKind::ProfileGpus);
  QString profileWhy = gpu_->profileUnavailable();
  if (profileWhy.isEmpty()) profileWhy = gpusBusy;
  profileAct_->setEnabled(profileWhy.isEmpty());
  const QString profileTip = profileWhy.isEmpty()
                                 ? tr("Measure this machine's GPUs and make a cluster file with a calibration table")
                                 : profileWhy;
  profileAct_->setToolTip(profileTip);
  profileAct_->setStatusTip(profileTip);
  if (profileDialog_) profileDialog_->setBlockedReason(gpusBusy);
  // measureOnGpus runs the devices the plan uses on GPUs 0, 1, …: it needs one GPU per distinct device.
  QString measureWhy = gpu_->measureUnavailable(GpuAvailability::gpusNeeded(doc_->plan()));
  if (measureWhy.isEmpty() && profiling)
    measureWhy = tr("The GPUs are being profiled: measure on them once the profile has finished.");
  if (measureWhy.isEmpty()) measureWhy = doc_->whyNot(JobKind::MeasureOnGpus);
  measureGpuAct_->setEnabled(doc_->hasModel() && measureWhy.isEmpty());
  const QString measureTip = measureWhy.isEmpty() ? tr("Run the current plan on the local GPUs and show the measured "
                                                       "timeline below the simulated one (Shift+F5)")
                                                  : measureWhy;
  measureGpuAct_->setToolTip(measureTip);
  measureGpuAct_->setStatusTip(measureTip);
  const QString calibrationWhy = doc_->whyNot(JobKind::LoadCalibration);
  allowIf(loadCalibrationAct_, true, calibrationWhy);
  allowIf(clearCalibrationAct_, doc_->hasCalibration(), calibrationWhy);
}

void MainWindow::onGpuMeasurementChanged() {
  if (!doc_->hasGpuMeasurement() || !doc_->hasModel()) {
    timelineCompare_->clearMeasured();
    updateMetrics();
    updateActions();
    return;
  }
  const GpuMeasureResult& r = doc_->gpuMeasurement();
  QString measured = tr("Measured on %1 %2 (%3)")
                         .arg(gpuText(r.gpus), formatDuration(r.measured.stepTime), signedPercent(r.difference()));
  if (r.measured.timeline.empty()) measured += QStringLiteral("  ·  ") + tr("no per-kernel timeline with this timer");
  timelineCompare_->setMeasured(doc_->sharedGraph(), *doc_->cluster(), r.measured,
                                tr("Simulated %1").arg(formatDuration(r.simulated.stepTime)), measured);
  timelineCompare_->setSelectedOps(doc_->selection());
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("timelineDock"))) {
    dock->show();
    dock->raise();
    // Two timelines need about twice the height of one (never more than half the window).
    const int want = std::min(height() / 2, 2 * timeline_->sizeHint().height() + 60);
    if (!dock->isFloating() && dock->height() < want) resizeDocks({dock}, {want}, Qt::Vertical);
  }
  statusBar()->showMessage(gpuMetricsText(), 10000);
  updateMetrics();
  updateActions();
}

QString MainWindow::gpuMetricsText() const {
  if (!doc_->hasGpuMeasurement()) return {};
  const GpuMeasureResult& r = doc_->gpuMeasurement();
  return tr("simulated %1, measured %2 on %3 (%4)")
      .arg(formatDuration(r.simulated.stepTime), formatDuration(r.measured.stepTime), gpuText(r.gpus),
           signedPercent(r.difference()));
}

QString MainWindow::calibrationMetricsText() const {
  if (!doc_->hasCalibration()) return {};
  const int calibrated = doc_->workspace() ? doc_->workspace()->cost->numCalibrated() : 0;
  return tr("calibrated by %1 (%n op time(s) from it)", nullptr, calibrated)
      .arg(QFileInfo(doc_->calibrationLabel()).fileName());
}

void MainWindow::chooseCalibration() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Load Calibration Table"), {},
                                                    tr("Calibration tables (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  clearError();
  lastWarning_.clear();
  if (doc_->loadCalibration(path))
    showNotice(tr("Calibration table %1 loaded").arg(QFileInfo(path).fileName()), 6000);
}

void MainWindow::showNotice(const QString& message, int ms) {
  // A warning the step just gave (a table that calibrates nothing) stays in view beside it.
  statusBar()->showMessage(lastWarning_.isEmpty() ? message : message + QStringLiteral("  ·  ") + lastWarning_, ms);
}

ProfileDialog* MainWindow::profileDialog() const {
  return profileDialog_;
}

ProfileDialog* MainWindow::openProfileDialog() {
  if (!profileDialog_) {
    profileDialog_ = new ProfileDialog(this);
    connect(profileDialog_, &ProfileDialog::profileSaved, this, [this](const QString& cluster, const QString& cal) {
      clearError();
      lastWarning_.clear();
      if (doc_->useProfiledCluster(cluster, cal))
        showNotice(tr("Now using the profiled cluster %1").arg(QFileInfo(cluster).fileName()), 8000);
    });
    // Measure on GPUs waits while the dialog profiles (and its Start while the plan runs on them).
    connect(profileDialog_, &ProfileDialog::runStarted, this, &MainWindow::updateGpuActions);
    connect(profileDialog_, &ProfileDialog::runFinished, this, &MainWindow::updateGpuActions);
    updateGpuActions();
  }
  profileDialog_->show();
  profileDialog_->raise();
  profileDialog_->activateWindow();
  return profileDialog_;
}

}  // namespace gp
