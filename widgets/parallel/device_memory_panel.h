// DeviceMemoryPanel: every device's peak memory under a parallel plan against its capacity, in a
// DeviceTreeView: a bar per GPU in the colour of the pipeline stage it runs (red and hatched over
// capacity, grey when the plan leaves it unused), its weights, gradients, optimizer state and
// activations in the tooltip; servers and pods as collapsible groups showing their least and
// most full GPU; a filter by name. It scrolls at any cluster size.
#pragma once
#include <QString>
#include <QWidget>

#include "cluster/cluster.h"
#include "parallel/pipeline_sim.h"

namespace gp {

class DeviceTreeView;

class DeviceMemoryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DeviceMemoryPanel(QWidget* parent = nullptr);

  void setCluster(const Cluster& c);
  // Peaks per rank of the measurement (empty: none known); ranks map to devices by rankDevice.
  void setMeasurement(const ParallelMeasurement& m, int ranksPerStage);
  void clear();

  DeviceTreeView* tree() const { return tree_; }
  int deviceCount() const;
  QString memoryText(int device) const;  // "61.9 / 79.1 GiB", "– / 79.1 GiB" when unused
  bool overCapacity(int device) const;
  QString toolTip(int device) const;

 private:
  DeviceTreeView* tree_;
};

}  // namespace gp
