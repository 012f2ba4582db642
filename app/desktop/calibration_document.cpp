// Document: the calibration table (measured op times) every cost model of the document is built
// with, and the switch to a profiled cluster together with its table (Cluster ▸ Profile Local
// GPUs…). Loading checks everything before anything changes; a new table rebuilds the workspace's
// cost model, restarts the history and re-measures the current plan. A profile that calibrated
// nothing keeps the table the document holds (the profiled cluster is one more cluster switch).
// A table none of whose device kinds the cluster has is said to calibrate nothing (warning()).
#include <QFileInfo>
#include <QStringList>
#include <set>
#include <string>

#include "document.h"

namespace gp {

namespace {

// "a, b, c, d, …": at most four of them.
QString joined(const std::set<std::string>& items) {
  QStringList out;
  for (const std::string& s : items) {
    if (out.size() == 4) {
      out << QStringLiteral("…");
      break;
    }
    out << QString::fromStdString(s);
  }
  return out.join(QStringLiteral(", "));
}

}  // namespace

void Document::warnIfCalibratesNothing() {
  if (!ws_ || !ws_->calibration) return;
  std::set<std::string> tableKinds, clusterKinds;
  for (const CalibrationTable::Entry& e : ws_->calibration->entries()) tableKinds.insert(e.deviceKind);
  const Cluster& c = *ws_->cluster;
  for (int d = 0; d < c.numDevices(); ++d) clusterKinds.insert(c.device(d).kind);
  for (const std::string& k : tableKinds)
    if (clusterKinds.count(k)) return;
  const QString table = QFileInfo(ws_->calibrationLabel).fileName();
  if (tableKinds.empty())
    Q_EMIT warning(tr("%1: the table has no entries, so it calibrates nothing").arg(table));
  else
    Q_EMIT warning(tr("%1: its device kinds (%2) include none of cluster %3's (%4), so it calibrates nothing")
                       .arg(table, joined(tableKinds), QString::fromStdString(c.name()), joined(clusterKinds)));
}

void Document::applyCalibration(const QString& historyLabel) {
  if (!ws_) {  // kept for the next open()
    Q_EMIT calibrationChanged();
    return;
  }
  // Step times of another cost model do not compare with the new ones; the plans still fit.
  resetWorkspace(withCalibration(*ws_, calibration_.table(), calibration_.label()), plan_, UndoSteps::Keep);
  Q_EMIT calibrationChanged();
  measure(historyLabel, HistoryKind::Initial);
}

bool Document::loadCalibration(const QString& path) {
  if (refuses(JobKind::LoadCalibration)) return false;
  std::shared_ptr<const CalibrationTable> table;
  try {
    table = std::make_shared<const CalibrationTable>(CalibrationTable::load(path.toStdString()));
  } catch (const std::exception& e) {
    Q_EMIT failed(QString::fromStdString(e.what()));
    return false;
  }
  calibration_.set(std::move(table), path);
  applyCalibration(tr("Current plan, calibrated with %1").arg(QFileInfo(path).fileName()));
  return true;
}

void Document::clearCalibration() {
  if (!calibration_.has() || refuses(JobKind::LoadCalibration)) return;
  calibration_.clear();
  applyCalibration(tr("Current plan, without calibration"));
}

bool Document::useProfiledCluster(const QString& clusterPath, const QString& calibrationPath) {
  if (refuses(JobKind::UseProfiledCluster)) return false;
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
  if (table) calibration_.set(std::move(table), calibrationPath);  // none: it calibrated nothing, the table stays
  chosenCluster_.choose(cluster, clusterPath, hasModel());  // an open still running uses it too
  if (!ws_) {
    Q_EMIT calibrationChanged();
    return true;
  }
  switchCluster(std::move(cluster), clusterPath);  // builds the workspace with calibration_
  Q_EMIT calibrationChanged();
  return true;
}

}  // namespace gp
