// ClusterPanel: the cluster the plan runs on (preset combo box, "Load…" for a cluster JSON,
// description and device kinds) and, once a plan is measured, per-device peak memory against
// capacity (red when over), utilization and busy time in a DeviceTreeView (servers and pods as
// collapsible groups with their least and most, filtered by name; it scrolls at any size), plus
// step time, lower bound, ratio and whether the plan is feasible.
#pragma once
#include <QStringList>
#include <QWidget>
#include <vector>

#include "cluster/cluster.h"
#include "sim/measurement.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;

namespace gp {

class DeviceTreeView;
class ElidedLabel;

class ClusterPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ClusterPanel(QWidget* parent = nullptr);

  void setPresets(const QStringList& names);
  // `label`: a preset name (selected in the combo box) or the path of the file it came from.
  void setCluster(const Cluster& c, const QString& label);
  void setMeasurement(const Measurement& m);
  void clearMeasurement();

  // For tests and the main window.
  QComboBox* presetCombo() const { return combo_; }
  QPushButton* loadButton() const { return loadButton_; }
  int deviceCount() const;
  DeviceTreeView* deviceTree() const { return tree_; }
  QString memoryText(int device) const;  // "11.2 / 16.0 GiB"
  bool overCapacity(int device) const;
  QString utilizationText(int device) const;
  QString busyText(int device) const;
  QString summaryText() const;  // step time, bound, ratio and status, one line each

 Q_SIGNALS:
  void presetChosen(const QString& name);  // the user picked a preset in the combo box
  void fileChosen(const QString& path);    // the user picked a cluster .json with "Load…"

 private:
  void onActivated(int index);
  void onLoadClicked();
  void selectLabelInCombo(const QString& label);

  QComboBox* combo_;
  QPushButton* loadButton_;
  ElidedLabel* description_;
  QLabel* kinds_;
  DeviceTreeView* tree_;
  QLabel* stepValue_;
  QLabel* boundValue_;
  QLabel* ratioValue_;
  QLabel* commValue_;
  QLabel* statusValue_;

  QStringList presets_;
  QString fileLabel_;  // path when the cluster came from a file, else empty
};

}  // namespace gp
