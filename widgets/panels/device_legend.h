// DeviceLegend: the cluster's devices with their colour swatches and how many ops each holds
// (a faint bar behind each row shows its share). Ops dragged from another view (mime type
// kOpsMimeType, widgets/device_colors.h) can be dropped on a device row to move them there;
// double-clicking a row asks to select that device's ops. While ops are dragged over a row the
// legend asks what the move would do (dropHovered) and shows the answer in that row
// (setDropPreview: "→ 123.4 ms (−3.1 %)") before the drop.
#pragma once
#include <QStringList>
#include <QWidget>
#include <vector>

#include "graph/graph.h"

namespace gp {

class DeviceLegend : public QWidget {
  Q_OBJECT
 public:
  explicit DeviceLegend(QWidget* parent = nullptr);

  void setDevices(const QStringList& names);
  void setOpCounts(const std::vector<int>& opsPerDevice);  // shown next to each name

  int deviceCount() const { return static_cast<int>(names_.size()); }
  // Rows only for the devices whose name contains `text` (case-insensitive; empty: all). A
  // device without a row has an empty rowRect.
  void setFilter(const QString& text);
  int shownCount() const { return static_cast<int>(shown_.size()); }
  int rowAt(const QPoint& pos) const;  // -1 outside the rows
  QRect rowRect(int device) const;
  int dropTargetRow() const { return dropRow_; }  // row highlighted under a drag, -1 if none
  QString countText(int device) const;
  // The text shown in row `device` while ops are dragged over it (cleared when the drag leaves
  // the row or drops); ignored when that row is no longer the drop target.
  void setDropPreview(int device, const QString& text);
  QString dropPreview() const { return dropPreview_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void assignRequested(const std::vector<gp::OpId>& ops, int device);  // ops dropped on a device
  void deviceActivated(int device);                                    // double-click: select its ops
  void dropHovered(const std::vector<gp::OpId>& ops, int device);      // a drag entered a device's row

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dragLeaveEvent(QDragLeaveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  int rowHeight() const;
  void updateCountTexts();
  void measureNames();
  QRect nameRect(const QRect& row) const;
  QRect countRect(const QRect& row) const;
  void setDropRow(int row);

  QStringList names_;
  QString filter_;
  std::vector<int> shown_;  // the devices with a row, in row order
  std::vector<int> rowOf_;  // per device: its row, -1 when filtered out
  std::vector<int> counts_;
  int total_ = 0;
  int maxCountWidth_ = 0;
  int maxNameWidth_ = 0;  // measured once per setDevices (sizeHint asks often)
  int hoverRow_ = -1;
  int dropRow_ = -1;
  QString dropPreview_;  // for dropRow_
};

}  // namespace gp
