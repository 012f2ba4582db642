// Document: the calibration table (measured op times) every cost model of the document is built
// with, and the switch to a profiled cluster together with its table (Cluster ▸ Profile Local
// GPUs…). Loading checks everything before anything changes; a new table rebuilds the workspace's
// cost model, restarts the history and re-measures the current plan.
#include <QFileInfo>

#include "document.h"

namespace gp {

void Document::applyCalibration(const QString& historyLabel) {
  if (!ws_) {  // kept for the next open()
    Q_EMIT calibrationChanged();
    return;
  }
  installWorkspace(withCalibration(*ws_, calibration_, calibrationLabel_));
  // Step times of another cost model do not compare with the new ones; the plans still fit.
  history_.clear();
  hasMeasurement_ = false;
  Q_EMIT calibrationChanged();
  measure(historyLabel, QStringLiteral("initial"));
}

bool Document::loadCalibration(const QString& path) {
  if (refuseWhileOptimizing()) return false;
  std::shared_ptr<const CalibrationTable> table;
  try {
    table = std::make_shared<const CalibrationTable>(CalibrationTable::load(path.toStdString()));
  } catch (const std::exception& e) {
    Q_EMIT failed(QString::fromStdString(e.what()));
    return false;
  }
  calibration_ = std::move(table);
  calibrationLabel_ = path;
  applyCalibration(tr("Current plan, calibrated with %1").arg(QFileInfo(path).fileName()));
  return true;
}

void Document::clearCalibration() {
  if (!calibration_ || refuseWhileOptimizing()) return;
  calibration_.reset();
  calibrationLabel_.clear();
  applyCalibration(tr("Current plan, without calibration"));
}

bool Document::useProfiledCluster(const QString& clusterPath, const QString& calibrationPath) {
  if (refuseWhileOptimizing()) return false;
  std::shared_ptr<const Cluster> cluster;
  std::shared_ptr<const CalibrationTable> table;
  try {
    cluster = std::make_shared<const Cluster>(loadCluster(clusterPath.toStdString()));
    if (!calibrationPath.isEmpty())
      table = std::make_shared<const CalibrationTable>(CalibrationTable::load(calibrationPath.toStdString()));
  } catch (const std::exception& e) {
    Q_EMIT failed(QString::fromStdString(e.what()));
    return false;
  }
  calibration_ = std::move(table);
  calibrationLabel_ = calibration_ ? calibrationPath : QString();
  if (!ws_) {
    pendingCluster_ = clusterPath;
    Q_EMIT calibrationChanged();
    return true;
  }
  switchCluster(std::move(cluster), clusterPath);  // builds the workspace with calibration_
  Q_EMIT calibrationChanged();
  return true;
}

}  // namespace gp
