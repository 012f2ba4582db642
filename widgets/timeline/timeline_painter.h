// TimelinePainter: draws a TimelineModel (rows of bars, time axis, row labels, step line)
// with QPainter, for the widget and for PNG/SVG export alike.
//
// Level of detail: per row, only bars reaching into the visible window are visited (binary
// search); bars narrower than ~1.5 px are merged into runs of whole pixel columns (a busy
// stretch is never left blank; each column is shaded by the share of it that is busy, from
// prefix sums of bar durations, so a sparse stretch does not look saturated), and a run skips, by binary search, every
// further bar that starts inside the pixel column it already covers, so a frame costs O(visible pixels * log n) rather
// than O(bars). Colours, pens, row geometry and row labels are made in setModel(); a bar's label is laid out once, the
// first time it is shown, and so is each tick label (a small cache); hatching uses a prepared texture (pattern brushes
// make an image per fill).
#pragma once
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPen>
#include <QRectF>
#include <QStaticText>
#include <QString>
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "timeline/timeline_model.h"

class QPainter;

namespace gp {

// What one frame shows, in the painter's coordinates.
struct TimelineFrame {
  QRectF area;                            // the whole canvas: axis on top, labels on the left
  double t0 = 0, t1 = 1;                  // visible time window, seconds
  double scrollY = 0;                     // rows scrolled up by this many pixels
  const uint8_t* itemSelected = nullptr;  // per item, or nullptr when nothing is selected
  std::span<const int32_t> selectedItems;
  std::span<const int32_t> pathItems;     // the critical path's bars, outlined in red
  int32_t hoverItem = -1;
};

class TimelinePainter {
 public:
  static constexpr double kAxisHeight = 30;
  static constexpr double kRightMargin = 12;

  // Recomputes row geometry, colours and the label column for `m` (which must outlive the
  // painter's use of it); `font` is the widget's font. `stepLabel` is drawn at the step line.
  void setModel(const TimelineModel* m, const QFont& font, const QString& stepLabel);

  double labelWidth() const { return labelWidth_; }
  // The label column is at least this wide (two timelines stacked line their time axes up).
  void setMinLabelWidth(double w) {
    minLabelWidth_ = w;
    labelWidth_ = std::max(naturalLabelWidth_, minLabelWidth_);
  }
  double naturalLabelWidth() const { return naturalLabelWidth_; }  // what the rows' labels need
  double contentHeight() const { return contentHeight_; }                     // rows, without the axis
  double rowTop(int row) const { return rowTop_[static_cast<size_t>(row)]; }  // content coordinates
  double rowHeight(int row) const;
  int rowAt(double contentY) const;           // -1 if between or outside rows
  QRectF plotRect(const QRectF& area) const;  // where bars go (below the axis, right of labels)

  void paint(QPainter& p, const TimelineFrame& f) const;

 private:
  struct Colors {  // per device; pens and brushes made once (QPen(QColor) allocates)
    QColor bar, barDim, xfer, xferDim;
    // Merged sub-pixel runs, by how busy a pixel column is (up to 1/4, 1/2, 3/4, all of it).
    std::array<QColor, 4> barRun, barDimRun, xferRun, xferDimRun;
    QPen border, borderDim, xferBorder, xferBorderDim, text, textDim;
    QBrush hatch, hatchDim;
  };
  struct Pens {
    QPen text, subtle, rule, grid, step, select, hover, white, path;
  };
  void paintRowBars(QPainter& p, const TimelineFrame& f, const QRectF& plot, int row, double y, double h) const;
  void paintBar(QPainter& p, const TimelineItem& it, int32_t item, const QRectF& r, bool dim) const;
  void paintSelection(QPainter& p, const TimelineFrame& f, const QRectF& plot) const;
  void paintPath(QPainter& p, const TimelineFrame& f, const QRectF& plot) const;
  void paintAxis(QPainter& p, const TimelineFrame& f, const QRectF& plot) const;
  void paintLabels(QPainter& p, const TimelineFrame& f, const QRectF& plot) const;
  QRectF itemRect(const TimelineFrame& f, const QRectF& plot, const TimelineItem& it, int row, double minWidth) const;

  const TimelineModel* model_ = nullptr;
  QFont font_, smallFont_;
  // Text laid out once (QStaticText): row names and details, the step label, and bar labels
  // made the first time their bar is wide enough to show one.
  std::vector<QStaticText> rowName_, rowDetail_;
  QStaticText stepText_;
  const QStaticText& barLabel(int32_t item) const;
  mutable std::vector<int32_t> labelSlot_;  // per item: index into labelCache_, -1 if not made yet
  mutable std::vector<QStaticText> labelCache_;
  // Tick labels of recent frames (panning shows the same ticks again), replaced round-robin.
  struct TickLabel {
    double t = -1, step = 0;
    QStaticText text;
  };
  const QStaticText& tickLabel(double t, double step, const QString& text) const;
  mutable std::array<TickLabel, 64> tickCache_;
  mutable size_t tickNext_ = 0;
  std::vector<Colors> colors_;  // per device
  Pens pens_;
  std::vector<double> rowTop_;
  double contentHeight_ = 0, labelWidth_ = 80, detailWidth_ = 0;
  double naturalLabelWidth_ = 80, minLabelWidth_ = 0;
};

}  // namespace gp
