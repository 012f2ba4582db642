// DeviceLegend: the cluster's devices with their colour swatches and how many ops each holds
// (a faint bar behind each row shows its share). Ops dragged from another view (mime type
// kOpsMimeType, widgets/device_colors.h) can be dropped on a device row to move them there;
// double-clicking a row asks to select that device's ops. While ops are dragged over a row the
// legend asks what the move would do (dropHovered) and shows the answer in that row
// (setDropPreview: "→ 123.4 ms (−3.1 %)") before the drop.
//
// On more than kGroupAbove devices spread over several servers (the name before its last '/'),
// the devices fold under a row per server — its device count, its ops and their share — that a
// click opens or closes. Servers holding ops open by themselves until the user opens or closes
// one (at most kAutoOpenDevices devices that way), and a drag of ops held over a closed server
// opens it; a filter shows the matching devices' servers,
// and opens them when it matches at most kAutoOpenDevices devices. Rows exist only as indices:
// thousands of servers paint what is exposed.
#pragma once
#include <QStringList>
#include <QWidget>
class QTimer;
#include <vector>

#include "graph/graph.h"

namespace gp {

class DeviceLegend : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kGroupAbove = 16;
  static constexpr int kAutoOpenDevices = 64;
  static constexpr int kSpringOpenMs = 700;  // a drag held over a closed server opens it

  explicit DeviceLegend(QWidget* parent = nullptr);

  void setDevices(const QStringList& names);
  void setOpCounts(const std::vector<int>& opsPerDevice);  // shown next to each name

  int deviceCount() const { return static_cast<int>(names_.size()); }
  // Rows only for the devices whose name contains `text` (case-insensitive; empty: all). A
  // device without a row has an empty rowRect.
  void setFilter(const QString& text);
  int shownCount() const { return shownDevices_; }  // device rows
  int rowCount() const { return static_cast<int>(rows_.size()); }  // server and device rows

  // Servers (only while grouped; otherwise 0 servers and nothing folds).
  bool isGrouped() const { return grouped_; }
  int serverCount() const { return grouped_ ? static_cast<int>(serverNames_.size()) : 0; }
  int serverOf(int device) const { return serverOf_[static_cast<size_t>(device)]; }
  bool isServerExpanded(int server) const { return expanded_[static_cast<size_t>(server)] != 0; }
  void setServerExpanded(int server, bool open);  // as a click on its row does
  QRect serverRowRect(int server) const;           // empty when it has no row
  int serverAt(const QPoint& pos) const;           // -1 unless on a server's row

  int rowAt(const QPoint& pos) const;  // the device of the row at pos, -1 outside device rows
  QRect rowRect(int device) const;     // empty when the device has no row
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
  void mousePressEvent(QMouseEvent* event) override;
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
  int rowIndexAt(const QPoint& pos) const;  // index into rows_, -1 outside
  QRect rowRectAt(int row) const;
  void groupByServer();
  void openServersWithOps();
  void rebuildRows();
  void paintServerRow(QPainter& p, int server, const QRect& r) const;
  void updateCountTexts();
  void measureNames();
  QString rowName(int device) const;
  QRect nameRect(const QRect& row) const;
  QRect countRect(const QRect& row) const;
  void setDropRow(int row);
  void springOpen(int server);  // -1: none

  QStringList names_;
  QString filter_;
  // Rows in order: a device d >= 0, or a server s as ~s (< 0).
  std::vector<int> rows_;
  std::vector<int> rowOf_;      // per device: its row, -1 when it has none
  std::vector<int> serverRow_;  // per server: its row, -1 when it has none
  int shownDevices_ = 0;
  bool grouped_ = false;
  bool userExpanded_ = false;  // the user opened or closed a server since setDevices
  std::vector<int> serverOf_;  // per device
  std::vector<QString> serverNames_;
  std::vector<std::vector<int>> serverDevices_;
  std::vector<char> expanded_;  // per server
  std::vector<int> serverCounts_;
  std::vector<int> counts_;
  int total_ = 0;
  int maxCountWidth_ = 0;
  int maxNameWidth_ = 0;  // measured once per setDevices (sizeHint asks often)
  int hoverRow_ = -1;  // index into rows_
  int dropRow_ = -1;
  QString dropPreview_;  // for dropRow_
  QTimer* springTimer_ = nullptr;
  int springServer_ = -1;
};

}  // namespace gp
