// DeviceTreeView: a DeviceTreeModel shown as a tree that scrolls — pods, servers and GPUs with a
// memory bar per row (a group's bar: its fullest GPU, a tick at its least full), a filter by
// name above it — for any number of GPUs: rows have one height and only the visible ones are
// laid out and painted. A small cluster opens expanded (every GPU a row, as a list); a large one
// opens with its servers collapsed.
#pragma once
#include <QWidget>

#include "panels/device_tree_model.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace gp {

class DeviceTreeView : public QWidget {
  Q_OBJECT
 public:
  // At most this many GPUs open expanded.
  static constexpr int kExpandedDevices = 16;

  explicit DeviceTreeView(QWidget* parent = nullptr);

  DeviceTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* filterEdit() const { return filter_; }

  // A new cluster: rows rebuilt, the filter kept, the shape chosen by size.
  void setCluster(const Cluster& c);
  // Which columns show besides name and memory (the fullest GPU's only where it fits).
  void setColumnsShown(bool kind, bool utilizationAndBusy, bool fullest);
  void setFilter(const QString& text);
  // The view's index of a device or a server (invalid when filtered out).
  QModelIndex viewIndexOfDevice(int device, int column = DeviceTreeModel::Name) const;
  QModelIndex viewIndexOfServer(int server, int column = DeviceTreeModel::Name) const;
  void expandServer(int server);
  bool isServerExpanded(int server) const;
  int visibleRowCount() const;  // rows a user could scroll to (expanded and not filtered out)

  QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* e) override;

 Q_SIGNALS:
  void deviceActivated(int device);  // double-click or Return on a GPU's row

 private:
  void applyShape();
  int countVisibleRows(int limit) const;  // stops counting at `limit`
  void fitColumns();

  DeviceTreeModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
  bool showKind_ = false, showUtil_ = true, showFullest_ = true;
};

}  // namespace gp
