// DeviceTreeModel: a cluster's devices as an item model of pods → servers → GPUs (DeviceGroups),
// with each GPU's peak memory against its capacity, utilization and busy time under a plan, and
// on each group row what its GPUs add up to: the least and most peak memory, the fullest GPU,
// how many are over capacity, the utilization range and the longest busy time. Rows exist only
// as indices into DeviceGroups (no item objects), so a view creates what it shows and a
// 16,384-GPU cluster costs a few vectors. New figures repaint; the tree keeps its shape (a view's
// expanded rows stay expanded).
//
//   DeviceTreeModel m;
//   m.setCluster(cluster);                       // rows: servers, their GPUs
//   m.setFigures(figures, colors, details);      // per device; group rows follow
//   m.data(m.indexOfDevice(5, DeviceTreeModel::Memory));   // "11.2 / 16.0 GiB"
#pragma once
#include <QAbstractItemModel>
#include <QColor>
#include <QStringList>
#include <vector>

#include "cluster/cluster.h"
#include "panels/device_groups.h"

namespace gp {

class DeviceTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Name, Kind, Memory, Utilization, Busy, Fullest, ColumnCount };
  enum Role {
    PeakRole = Qt::UserRole + 1,  // qint64: a GPU's peak, a group's most (-1: none)
    MinPeakRole,                  // qint64: a group's least peak (-1 for a GPU)
    CapacityRole,                 // qint64
    ColorRole,                    // QColor the bar is filled with
    OverRole,                     // bool: over capacity (a group: any of its GPUs)
    DeviceRole,                   // int: the device, -1 for a group row
    FilterRole,                   // QString: the full name a filter matches ("node3/gpu5")
  };

  explicit DeviceTreeModel(QObject* parent = nullptr);

  void setCluster(const Cluster& c);
  // Figures per device (empty: none measured). `colors`: each GPU's bar colour (empty: its device
  // colour); `details`: a line added to each GPU's tooltip (empty: none). `busyDecimals`: the
  // precision of the busy column (-1: each figure its own).
  void setFigures(std::vector<DeviceFigures> figures, std::vector<QColor> colors = {},
                  std::vector<QString> details = {}, int busyDecimals = -1);
  void clearFigures();  // capacities only

  const DeviceGroups& groups() const { return groups_; }
  int deviceCount() const { return groups_.numDevices(); }
  bool mixedKinds() const { return mixed_; }
  const DeviceFigures& figures(int device) const { return figures_[static_cast<size_t>(device)]; }
  QModelIndex indexOfDevice(int device, int column = Name) const;
  QModelIndex indexOfServer(int server, int column = Name) const;  // invalid when servers are not shown
  // What a cell shows (tests and panels): the display text of a device's or server's column.
  QString deviceText(int device, Column column) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  bool hasChildren(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  enum class Node : quintptr { Pod = 0, Server = 1, Device = 2 };
  static quintptr id(Node n, int i) { return (static_cast<quintptr>(n) << 28) | static_cast<quintptr>(i); }
  static Node nodeOf(const QModelIndex& i) { return static_cast<Node>(i.internalId() >> 28); }
  static int numberOf(const QModelIndex& i) { return static_cast<int>(i.internalId() & ((quintptr{1} << 28) - 1)); }
  void aggregateGroups();
  QVariant deviceData(int d, int column, int role) const;
  QVariant groupData(const QString& name, const GroupFigures& g, bool pod, int column, int role) const;
  QString groupMemberName(int device, bool pod) const;

  DeviceGroups groups_;
  std::vector<std::string> kinds_;
  std::vector<DeviceFigures> figures_;
  std::vector<QColor> colors_;
  std::vector<QString> details_;
  std::vector<GroupFigures> serverFigures_, podFigures_;
  int busyDecimals_ = -1;
  bool mixed_ = false;
};

}  // namespace gp
