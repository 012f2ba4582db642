// DeviceMemoryPanel: every device's peak memory under a parallel plan against its capacity, one
// MemoryBar per GPU (in the colour of the stage it runs; red and hatched over capacity), the
// GPUs of each server in a column under the server's name.
#pragma once
#include <QWidget>
#include <vector>

#include "cluster/cluster.h"
#include "parallel/pipeline_sim.h"

class QGridLayout;
class QLabel;

namespace gp {

class MemoryBar;

class DeviceMemoryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DeviceMemoryPanel(QWidget* parent = nullptr);

  void setCluster(const Cluster& c);
  // Peaks per rank of the measurement (empty: none known); ranks map to devices by rankDevice.
  void setMeasurement(const ParallelMeasurement& m, int ranksPerStage);
  void clear();

  int barCount() const { return static_cast<int>(bars_.size()); }
  MemoryBar* bar(int device) const { return bars_[static_cast<size_t>(device)]; }

 private:
  QGridLayout* grid_;
  std::vector<MemoryBar*> bars_;  // per device
  std::vector<QLabel*> labels_;
  std::vector<int64_t> capacity_;
  std::vector<QString> names_;
};

}  // namespace gp
