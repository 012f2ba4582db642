// TimelineView: the Gantt chart of one measured step. One row per device
// (its kernels, coloured by device), then one row per directed channel that carried a transfer
// (coloured, lighter and hatched, by the destination device); a time axis on top and a dashed
// line at the step time.
//
// Mouse and keys: the wheel (with or without Ctrl) zooms time around the cursor; Shift+wheel
// or a horizontal wheel pans time; Alt+wheel, or the wheel over the row labels, scrolls rows
// (a scroll bar appears when they overflow); dragging pans time and rows;
// double-click, F, Home or 0 zoom to fit; + / - zoom, Left / Right pan. Hovering a bar shows a
// tooltip. Clicking a kernel selects its op (the whole group for a fused kernel), clicking a
// transfer selects the op that produced the tensor; Shift/Ctrl-click toggles; clicking empty
// space (or Escape) clears. Each of these emits selectionChanged. Every change of the visible
// time window emits visibleTimeRangeChanged (TimelineCompare keeps two views on one axis).
#pragma once
#include <QRectF>
#include <QWidget>
#include <memory>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/critical_path.h"
#include "sim/measurement.h"
#include "timeline/timeline_model.h"
#include "timeline/timeline_painter.h"

class QPainter;
class QScrollBar;

namespace gp {

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(QWidget* parent = nullptr);

  // Shows m.timeline: one row per device ("gpu0"...), then one row per directed channel that
  // carried a transfer (Channel::name, e.g. "gpu0->host"). Copies what it needs and keeps `g`
  // (shared) for names in labels and tooltips. Zooms to fit and clears the selection.
  void setData(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& m);
  void clear();
  // Highlights these ops (strong outline, others dimmed); does not emit selectionChanged.
  void setSelectedOps(const std::vector<OpId>& ops);
  const std::vector<OpId>& selectedOps() const { return selected_; }
  // Outlines these steps of the critical path (sim/critical_path.h) in red; empty: none. Kept
  // until the next setData or call.
  void setCriticalPath(const std::vector<PathStep>& path);
  size_t criticalPathBars() const { return pathItems_.size(); }
  void zoomToFit();
  // Shows [start, end] seconds (clamped to a sensible window around the step).
  void setVisibleTimeRange(double start, double end);
  // Two timelines on one time axis (TimelineCompare): fitting shows at least [0, seconds]
  // (0: the timeline's own end), and the row labels take at least `width` pixels.
  void setTimeExtent(double seconds);
  void setMinLabelWidth(double width);
  double naturalLabelWidth() const { return painter_.naturalLabelWidth(); }
  double endTime() const { return model_.endTime(); }  // the last event's end (or the step time)
  double stepTime() const { return model_.stepTime(); }

  int rowCount() const;
  QString rowName(int row) const;
  QRectF visibleTimeRange() const;  // x = start seconds, width = seconds shown; y = 0, height = rowCount()
  // Where the bar of `op` is in widget coordinates (empty if the op has none or it is scrolled away).
  QRectF opBarRect(OpId op) const;
  // Number of bars (fused kernels count once, a transfer once per channel of its route).
  size_t barCount() const { return model_.numBars(); }
  int hiddenDevices() const { return model_.hiddenDevices(); }  // idle devices given no row
  // Height the whole timeline needs (axis + all rows), for export.
  int contentHeight() const;
  // Draws the whole timeline (all rows, zoomed to fit) into `target` (PNG/SVG export).
  void renderTo(QPainter* painter, const QRectF& target);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  // The user clicked a bar (its op / ops) or empty space (empty).
  void selectionChanged(const std::vector<gp::OpId>& ops);
  // The visible time window moved or zoomed (by the user or a call), in seconds.
  void visibleTimeRangeChanged(double start, double end);

 protected:
  bool event(QEvent* e) override;
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void leaveEvent(QEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  struct Hit {
    int row = -1;
    int32_t item = -1;
  };
  QRectF canvas() const;  // the widget without the vertical scroll bar
  TimelineFrame frame() const;
  void syncScrollBar();
  Hit hitTest(const QPointF& pos) const;
  QString tooltip(int32_t item) const;
  void clickAt(const QPointF& pos, Qt::KeyboardModifiers mods);
  void applySelection(std::vector<OpId> ops, bool emitSignal);
  void zoomAround(double factor, double anchorTime);
  void panBy(double seconds);
  void clampView();
  double fitEnd() const;
  double maxScrollY() const;
  void refreshPainter();

  QScrollBar* vbar_;
  TimelineModel model_;
  TimelinePainter painter_;
  double t0_ = 0, t1_ = 1e-3, scrollY_ = 0;
  double extent_ = 0;                     // setTimeExtent
  double shownT0_ = -1, shownT1_ = -1;    // the window last announced (visibleTimeRangeChanged)
  std::vector<OpId> selected_;         // sorted, unique
  std::vector<uint8_t> itemSelected_;  // per item
  std::vector<int32_t> selectedItems_;
  std::vector<int32_t> pathItems_;     // the critical path's items
  int32_t hoverItem_ = -1;
  // Drag state.
  QPointF pressPos_;
  double pressT0_ = 0, pressScrollY_ = 0;
  bool pressed_ = false, dragging_ = false;
};

}  // namespace gp
