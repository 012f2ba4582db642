// MeshView: a parallel plan's dp x tp x pp mesh drawn on the cluster — each server a box of its
// GPUs, each GPU filled with the colour of the pipeline stage it runs (grey: unused) and marked
// with its stage, data-parallel replica and tensor-parallel shard; every tensor-parallel group
// is outlined.
#pragma once
#include <QString>
#include <QWidget>
#include <vector>

#include "cluster/cluster.h"
#include "parallel/parallel_plan.h"

namespace gp {

class MeshView : public QWidget {
  Q_OBJECT
 public:
  explicit MeshView(QWidget* parent = nullptr);

  void setCluster(const Cluster& c);  // copies names and servers
  void setPlan(const ParallelPlan& plan,
               const std::vector<int>& rankDevice);  // rank -> device (its first dp x tp x pp)
  void clear();

  // What is drawn, for tests: the rank on each device (-1 unused), the TP groups' devices.
  const std::vector<int>& rankOfDevice() const { return rankOf_; }
  std::vector<std::vector<int>> tpGroupDevices() const;
  QRectF deviceRect(int device) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* e) override;
  bool event(QEvent* e) override;  // tooltips

 private:
  struct Server {
    QString name;
    std::vector<int> devices;  // in cluster order
  };
  double cellWidth() const;
  double cellHeight() const;
  double rowTop(int server) const;
  int deviceAt(QPointF pos) const;

  std::vector<Server> servers_;
  std::vector<QString> deviceNames_;
  std::vector<int> serverOfDevice_, slotOfDevice_;
  std::vector<int> rankOf_;
  ParallelPlan plan_;
};

}  // namespace gp
