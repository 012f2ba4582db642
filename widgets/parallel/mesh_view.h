// MeshView: a parallel plan's dp x cp x tp x pp mesh drawn on the cluster — each server a box of
// its GPUs, each GPU filled with the colour of the pipeline stage it runs (grey: unused) and
// marked with its stage, data-parallel replica and tensor-parallel shard; every tensor-parallel
// group is outlined. When the servers do not fit as boxes (hundreds of servers: 2,048 at 16,384
// GPUs) the mesh is drawn compact: every server a strip of small cells, servers in columns, the
// stages as bands of colour and a legend of stages above; the picture is made once per plan and
// size, and the tooltip names the GPU under the pointer either way.
#pragma once
#include <QImage>
#include <QString>
#include <QWidget>
#include <vector>

#include "cluster/cluster.h"
#include "panels/device_groups.h"
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
  bool isCompact() const;  // servers drawn as strips of small cells
  QString toolTipAt(QPointF pos) const;  // "" where no GPU is

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  bool event(QEvent* e) override;  // tooltips

 private:
  struct Compact {
    int cell = 1, gap = 1, columns = 1;
    int tileW = 1, tileH = 1, border = 0;  // a server's strip with its gap, its box's border
    double left = 0, top = 0;
    bool fits = false;
  };
  double cellWidth() const;
  double cellHeight() const;
  double rowTop(int server) const;
  double labelWidth() const;
  Compact compactLayout() const;
  QRectF compactRect(const Compact& c, int device) const;
  int deviceAt(QPointF pos) const;
  int stageOf(int device) const;
  void paintBoxes(QPainter& p);
  void paintCompact(QPainter& p);

  DeviceGroups groups_;
  std::vector<int> rankOf_;
  ParallelPlan plan_;
  QImage compactImage_;  // the compact picture, for the plan and size it was made at
  bool compactStale_ = true;
};

}  // namespace gp
