#include "timeline/timeline_painter.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "device_colors.h"
#include "timeline/timeline_format.h"

namespace gp {

namespace {

constexpr double kDeviceRowHeight = 26;
constexpr double kChannelRowHeight = 20;
constexpr double kSectionGap = 10;
constexpr double kBarInset = 3;
constexpr double kMinBarWidth = 1.5;  // narrower bars are merged into pixel-column runs

const QColor kBackground(255, 255, 255);
const QColor kAltRow(246, 247, 249);
const QColor kChannelRow(250, 250, 252);
const QColor kLabelBg(240, 242, 245);
const QColor kAxisBg(248, 249, 251);
const QColor kGrid(230, 232, 236);
const QColor kRule(200, 204, 210);
const QColor kText(32, 33, 36);
const QColor kSubtle(107, 114, 128);
const QColor kStepLine(60, 60, 60);
const QColor kSelect(17, 17, 17);

QColor blend(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

// An 8x8 tile with a diagonal line, for hatching transfer bars (a texture brush is drawn
// without making an image per fill, unlike Qt::BDiagPattern).
QBrush hatchBrush(const QColor& c) {
  QImage tile(8, 8, QImage::Format_ARGB32_Premultiplied);
  tile.fill(Qt::transparent);
  for (int i = 0; i < 8; ++i) tile.setPixelColor(i, 7 - i, c);
  return QBrush(tile);
}

double luminance(const QColor& c) {
  return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF();
}

}  // namespace

void TimelinePainter::setModel(const TimelineModel* m, const QFont& font, const QString& stepLabel) {
  model_ = m;
  font_ = font;
  smallFont_ = font;
  smallFont_.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
  auto staticText = [](const QString& text, const QFont& f) {
    QStaticText t(text);
    t.setTextFormat(Qt::PlainText);
    t.prepare(QTransform(), f);
    return t;
  };
  stepText_ = staticText(stepLabel, smallFont_);
  rowName_.clear();
  rowDetail_.clear();
  labelSlot_.clear();
  labelCache_.clear();
  tickCache_ = {};
  pens_ = {QPen(kText),
           QPen(kSubtle),
           QPen(kRule),
           QPen(kGrid),
           QPen(kStepLine, 1, Qt::DashLine),
           QPen(kSelect, 2),
           QPen(kSelect, 1),
           QPen(QColor(255, 255, 255)),
           QPen(QColor(214, 39, 40), 2)};
  pens_.select.setJoinStyle(Qt::MiterJoin);
  pens_.path.setJoinStyle(Qt::MiterJoin);
  colors_.clear();
  rowTop_.clear();
  contentHeight_ = 0;
  const QFontMetricsF fm(font_), small(smallFont_);
  double nameWidth = fm.horizontalAdvance(QStringLiteral("gpu00")), detail = 0;
  if (!m) return;
  for (int d = 0; d < m->numDevices(); ++d) {
    const QColor c = deviceColor(d);
    Colors k;
    k.bar = c;
    k.barDim = blend(c, kBackground, 0.6);
    k.xfer = blend(c, kBackground, 0.5);
    k.xferDim = blend(k.xfer, kBackground, 0.6);
    constexpr double kRunFade[4] = {0.5, 0.32, 0.14, 0};
    for (size_t l = 0; l < 4; ++l) {
      k.barRun[l] = blend(k.bar, kBackground, kRunFade[l]);
      k.barDimRun[l] = blend(k.barDim, kBackground, kRunFade[l]);
      k.xferRun[l] = blend(k.xfer, kBackground, kRunFade[l]);
      k.xferDimRun[l] = blend(k.xferDim, kBackground, kRunFade[l]);
    }
    const QColor border = c.darker(140), xferBorder = c.darker(115);
    k.border = QPen(border);
    k.borderDim = QPen(blend(border, kBackground, 0.6));
    k.xferBorder = QPen(xferBorder);
    k.xferBorderDim = QPen(blend(xferBorder, kBackground, 0.6));
    k.text = QPen(luminance(c) > 0.62 ? kText : QColor(255, 255, 255));
    k.textDim = QPen(border);
    k.hatch = hatchBrush(xferBorder);
    k.hatchDim = hatchBrush(blend(xferBorder, kBackground, 0.6));
    colors_.push_back(k);
  }
  TimelineRow::Kind prev = TimelineRow::Kind::Device;
  for (const TimelineRow& row : m->rows()) {
    if (row.kind != prev) contentHeight_ += kSectionGap;
    prev = row.kind;
    rowTop_.push_back(contentHeight_);
    contentHeight_ += row.kind == TimelineRow::Kind::Device ? kDeviceRowHeight : kChannelRowHeight;
    const QFont& f = row.kind == TimelineRow::Kind::Device ? font_ : smallFont_;
    rowName_.push_back(staticText(row.name, f));
    rowDetail_.push_back(staticText(row.detail, smallFont_));
    nameWidth = std::max(nameWidth, (row.kind == TimelineRow::Kind::Device ? fm : small).horizontalAdvance(row.name));
    detail = std::max(detail, small.horizontalAdvance(row.detail));
  }
  detailWidth_ = detail;
  labelSlot_.assign(m->items().size(), -1);
  naturalLabelWidth_ = std::ceil(std::min(320.0, 24 + nameWidth + (detail > 0 ? 10 + detail : 0) + 10));
  labelWidth_ = std::max(naturalLabelWidth_, minLabelWidth_);
}

double TimelinePainter::rowHeight(int row) const {
  return model_->rows()[static_cast<size_t>(row)].kind == TimelineRow::Kind::Device ? kDeviceRowHeight
                                                                                    : kChannelRowHeight;
}

int TimelinePainter::rowAt(double y) const {
  auto it = std::upper_bound(rowTop_.begin(), rowTop_.end(), y);
  if (it == rowTop_.begin()) return -1;
  const int row = static_cast<int>(it - rowTop_.begin()) - 1;
  return y < rowTop_[static_cast<size_t>(row)] + rowHeight(row) ? row : -1;
}

QRectF TimelinePainter::plotRect(const QRectF& a) const {
  return QRectF(a.left() + labelWidth_, a.top() + kAxisHeight, std::max(1.0, a.width() - labelWidth_ - kRightMargin),
                std::max(1.0, a.height() - kAxisHeight));
}

void TimelinePainter::paint(QPainter& p, const TimelineFrame& f) const {
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setBrush(Qt::NoBrush);
  p.fillRect(f.area, kBackground);
  const QRectF plot = plotRect(f.area);
  if (model_) {
    // Rows: background bands, grid, bars, selection, step line; clipped below the axis.
    p.save();
    p.setClipRect(QRectF(f.area.left(), plot.top(), f.area.width(), plot.height()));
    const auto& rows = model_->rows();
    for (size_t r = 0; r < rows.size(); ++r) {
      const double y = plot.top() + rowTop_[r] - f.scrollY, h = rowHeight(static_cast<int>(r));
      if (y + h < plot.top() || y > plot.bottom()) continue;
      const QColor& band = rows[r].kind == TimelineRow::Kind::Channel ? kChannelRow : (r % 2 ? kAltRow : kBackground);
      p.fillRect(QRectF(plot.left(), y, f.area.right() - plot.left(), h), band);
    }
    paintAxis(p, f, plot);  // grid lines under the bars (the axis band itself is drawn below)
    p.setFont(smallFont_);
    for (size_t r = 0; r < rows.size(); ++r) {
      const double y = plot.top() + rowTop_[r] - f.scrollY, h = rowHeight(static_cast<int>(r));
      if (y + h < plot.top() || y > plot.bottom()) continue;
      paintRowBars(p, f, plot, static_cast<int>(r), y, h);  // bars stay within the row, x clamped
    }
    p.save();
    p.setClipRect(QRectF(plot.left() - 1, plot.top(), plot.width() + kRightMargin, plot.height()), Qt::IntersectClip);
    paintPath(p, f, plot);
    paintSelection(p, f, plot);
    const double stepX = plot.left() + (model_->stepTime() - f.t0) / (f.t1 - f.t0) * plot.width();
    if (model_->stepTime() > 0 && stepX >= plot.left() - 1 && stepX <= plot.right() + kRightMargin) {
      p.setPen(pens_.step);
      p.drawLine(QPointF(stepX, plot.top()),
                 QPointF(stepX, std::min(plot.bottom(), plot.top() + contentHeight_ - f.scrollY)));
    }
    p.restore();
    p.restore();
  }
  // Axis band and labels column on top of everything that scrolls.
  p.save();
  p.setClipRect(f.area);
  paintLabels(p, f, plot);
  p.restore();
  p.restore();
}

void TimelinePainter::paintRowBars(QPainter& p, const TimelineFrame& f, const QRectF& plot, int row, double y,
                                   double h) const {
  const TimelineRow& r = model_->rows()[static_cast<size_t>(row)];
  const auto& items = model_->items();
  const double pps = plot.width() / (f.t1 - f.t0);
  const double x0px = plot.left(), by = y + kBarInset, bh = h - 2 * kBarInset;
  const size_t n = r.bars.size();
  // Current run of merged sub-pixel bars: whole pixel columns [runStart, runEnd).
  double runStart = 0, runEnd = -1e300;
  const QColor* runColor = nullptr;  // the 4 shades of the run's colour
  size_t cursor = 0;                 // for busyUntil: runs move left to right
  auto flush = [&] {
    if (!runColor) return;
    // Shade each column by its busy share; neighbouring columns of one shade are one rectangle.
    double tPrev = f.t0 + (runStart - x0px) / pps, from = runStart;
    double busyPrev = r.busyUntil(tPrev, cursor);
    int shade = -1;
    for (double c = runStart; c < runEnd; c += 1) {
      const double tNext = f.t0 + (c + 1 - x0px) / pps, busyNext = r.busyUntil(tNext, cursor);
      const double share = (busyNext - busyPrev) / (tNext - tPrev);
      const int s = std::clamp(static_cast<int>(std::ceil(share * 4)) - 1, 0, 3);
      if (s != shade) {
        if (shade >= 0) p.fillRect(QRectF(from, by, c - from, bh), runColor[shade]);
        from = c, shade = s;
      }
      tPrev = tNext, busyPrev = busyNext;
    }
    p.fillRect(QRectF(from, by, runEnd - from, bh), runColor[shade]);
    runColor = nullptr;
  };
  size_t i = r.firstReaching(f.t0);
  while (i < n) {
    const TimelineBar& b = r.bars[i];
    if (b.start > f.t1) break;
    const double x0 = x0px + (b.start - f.t0) * pps, x1 = x0px + (b.end - f.t0) * pps;
    const TimelineItem& it = items[static_cast<size_t>(b.item)];
    const bool dim = f.itemSelected && !f.itemSelected[b.item];
    if (x1 - x0 >= kMinBarWidth) {
      flush();
      const double l = std::max(x0, plot.left() - 2), rr = std::min(x1, plot.right() + 2);
      paintBar(p, it, b.item, QRectF(l, by, rr - l, bh), dim);
      ++i;
      continue;
    }
    const Colors& k = colors_[static_cast<size_t>(it.dst)];
    const QColor* color = it.kind == TimelineEvent::Kind::Op ? (dim ? k.barDimRun.data() : k.barRun.data())
                                                             : (dim ? k.xferDimRun.data() : k.xferRun.data());
    const double c0 = std::floor(x0), c1 = std::max(c0 + 1, std::ceil(x1));
    if (runColor == color && c0 <= runEnd) {
      runEnd = std::max(runEnd, c1);
    } else {
      flush();
      runStart = c0, runEnd = c1, runColor = color;
    }
    // Every further bar starting left of runEnd lies in the run's columns: jump to the last one
    // (it may reach beyond the run and is handled by the next iteration).
    const size_t j = r.gallopStartingAt(f.t0 + (runEnd - x0px) / pps, i + 1);
    i = j > i + 1 ? j - 1 : i + 1;
  }
  flush();
}

void TimelinePainter::paintBar(QPainter& p, const TimelineItem& it, int32_t item, const QRectF& r, bool dim) const {
  const Colors& k = colors_[static_cast<size_t>(it.dst)];
  const bool op = it.kind == TimelineEvent::Kind::Op;
  p.fillRect(r, op ? (dim ? k.barDim : k.bar) : (dim ? k.xferDim : k.xfer));
  if (r.width() < 4) return;
  if (!op && r.width() >= 6) p.fillRect(r, dim ? k.hatchDim : k.hatch);
  p.setPen(op ? (dim ? k.borderDim : k.border) : (dim ? k.xferBorderDim : k.xferBorder));
  p.drawRect(r.adjusted(0, 0, -1, -1));
  if (r.width() >= 20) {
    const QStaticText& label = barLabel(item);
    const QSizeF size = label.size();
    if (size.width() <= r.width() - 7) {
      p.setPen(op ? (dim ? k.textDim : k.text) : pens_.text);
      p.drawStaticText(QPointF(r.left() + 4, r.top() + (r.height() - size.height()) / 2), label);
    }
  }
}

const QStaticText& TimelinePainter::tickLabel(double t, double step, const QString& text) const {
  for (const TickLabel& l : tickCache_)
    if (l.t == t && l.step == step) return l.text;
  TickLabel& l = tickCache_[tickNext_];
  tickNext_ = (tickNext_ + 1) % tickCache_.size();
  l.t = t, l.step = step;
  // A deep copy: `text` points into the caller's stack buffer, and copying such a QString
  // (fromRawData) would share that buffer, which QStaticText reads again when it re-lays the
  // text out (a scaled painter: image export).
  l.text = QStaticText(QString(text.constData(), text.size()));
  l.text.setTextFormat(Qt::PlainText);
  l.text.prepare(QTransform(), smallFont_);
  return l.text;
}

const QStaticText& TimelinePainter::barLabel(int32_t item) const {
  int32_t& slot = labelSlot_[static_cast<size_t>(item)];
  if (slot < 0) {
    slot = static_cast<int32_t>(labelCache_.size());
    QStaticText t(model_->itemLabel(item));
    t.setTextFormat(Qt::PlainText);
    t.prepare(QTransform(), smallFont_);
    labelCache_.push_back(std::move(t));
  }
  return labelCache_[static_cast<size_t>(slot)];
}

QRectF TimelinePainter::itemRect(const TimelineFrame& f, const QRectF& plot, const TimelineItem& it, int row,
                                 double minWidth) const {
  const double pps = plot.width() / (f.t1 - f.t0);
  double x0 = plot.left() + (it.start - f.t0) * pps, x1 = plot.left() + (it.end - f.t0) * pps;
  if (x1 - x0 < minWidth) {
    const double c = (x0 + x1) / 2;
    x0 = c - minWidth / 2, x1 = c + minWidth / 2;
  }
  x0 = std::max(x0, plot.left() - 3), x1 = std::min(x1, plot.right() + 3);
  const double y = plot.top() + rowTop_[static_cast<size_t>(row)] - f.scrollY;
  return QRectF(x0, y + kBarInset - 1, x1 - x0, rowHeight(row) - 2 * kBarInset + 2);
}

void TimelinePainter::paintPath(QPainter& p, const TimelineFrame& f, const QRectF& plot) const {
  const auto& items = model_->items();
  p.setPen(pens_.path);
  for (int32_t item : f.pathItems) {
    const TimelineItem& it = items[static_cast<size_t>(item)];
    for (int32_t row : model_->itemRows(item)) {  // a transfer on every channel of its route
      const QRectF r = itemRect(f, plot, it, row, 3);
      if (r.right() < plot.left() || r.left() > plot.right()) break;
      p.drawRect(r);
    }
  }
}

void TimelinePainter::paintSelection(QPainter& p, const TimelineFrame& f, const QRectF& plot) const {
  const auto& items = model_->items();
  if (f.itemSelected) {
    for (int32_t item : f.selectedItems) {
      const TimelineItem& it = items[static_cast<size_t>(item)];
      const QRectF r = itemRect(f, plot, it, it.row, 4);
      if (r.right() < plot.left() || r.left() > plot.right()) continue;
      // Narrow bars are widened to stay visible (the rows pass drew wide ones, label included).
      if ((it.end - it.start) * plot.width() / (f.t1 - f.t0) < 4)
        p.fillRect(r, colors_[static_cast<size_t>(it.dst)].bar);
      p.setPen(pens_.select);
      p.drawRect(r);
    }
  }
  if (f.hoverItem >= 0 && static_cast<size_t>(f.hoverItem) < items.size()) {
    const TimelineItem& it = items[static_cast<size_t>(f.hoverItem)];
    const QRectF r = itemRect(f, plot, it, it.row, 3);
    p.setPen(pens_.hover);
    p.drawRect(r.adjusted(0, 0, -1, -1));
  }
}

void TimelinePainter::paintAxis(QPainter& p, const TimelineFrame& f, const QRectF& plot) const {
  // Vertical grid lines at the major ticks, over the whole row area.
  const double span = f.t1 - f.t0, pps = plot.width() / span;
  const double step = niceTickStep(span * 90 / plot.width());
  p.setPen(pens_.grid);
  const double bottom = std::min(plot.bottom(), plot.top() + contentHeight_ - f.scrollY);
  for (double k = std::ceil(f.t0 / step); k * step <= f.t1; k += 1) {
    const double x = std::round(plot.left() + (k * step - f.t0) * pps) + 0.5;
    p.drawLine(QPointF(x, plot.top()), QPointF(x, bottom));
  }
}

void TimelinePainter::paintLabels(QPainter& p, const TimelineFrame& f, const QRectF& plot) const {
  const QRectF& a = f.area;
  // Time axis band.
  const QRectF axis(a.left(), a.top(), a.width(), kAxisHeight);
  p.fillRect(axis, kAxisBg);
  p.setPen(pens_.rule);
  p.drawLine(QPointF(a.left(), axis.bottom() - 0.5), QPointF(a.right(), axis.bottom() - 0.5));
  const double span = f.t1 - f.t0, pps = plot.width() / span;
  const double step = niceTickStep(span * 90 / plot.width());
  const double mant = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double minor = step / (std::fabs(mant - 2) < 0.01 ? 4 : 5);
  const TickUnit unit = tickUnit(step, std::max(std::fabs(f.t0), std::fabs(f.t1)));
  p.save();
  p.setClipRect(QRectF(plot.left() - 1, a.top(), plot.width() + kRightMargin + 1, kAxisHeight));
  p.setFont(smallFont_);
  for (double k = std::ceil(f.t0 / minor); k * minor <= f.t1; k += 1) {
    const double x = std::round(plot.left() + (k * minor - f.t0) * pps) + 0.5;
    p.setPen(pens_.rule);
    p.drawLine(QPointF(x, axis.bottom() - 4), QPointF(x, axis.bottom()));
  }
  const double ascent = QFontMetricsF(smallFont_).ascent();
  QChar buf[48];
  for (double k = std::ceil(f.t0 / step); k * step <= f.t1 + step; k += 1) {
    const double t = k * step;
    const double x = std::round(plot.left() + (t - f.t0) * pps) + 0.5;
    p.setPen(pens_.subtle);
    p.drawLine(QPointF(x, axis.bottom() - 10), QPointF(x, axis.bottom()));
    const int len = formatTick(t, unit, buf, 48);
    const QStaticText& label = tickLabel(t, step, QString::fromRawData(buf, len));
    const QSizeF size = label.size();
    if (x + 3 + size.width() > a.right() - 1) continue;  // would be cut off
    p.setPen(pens_.text);
    p.drawStaticText(QPointF(x + 3, axis.top() + 14 - ascent), label);
  }
  // Step-time marker on the axis.
  if (model_ && model_->stepTime() > 0) {
    const double x = plot.left() + (model_->stepTime() - f.t0) * pps;
    if (x >= plot.left() - 1 && x <= plot.right() + kRightMargin) {
      const QSizeF size = stepText_.size();
      const double w = size.width() + 8;
      const QRectF box(std::max(plot.left(), std::min(x - w, plot.right() + kRightMargin - w)), axis.bottom() - 13, w,
                       13);
      p.fillRect(box, kStepLine);
      p.setPen(pens_.white);
      p.drawStaticText(QPointF(box.left() + 4, box.top() + (box.height() - size.height()) / 2), stepText_);
    }
  }
  p.restore();

  // Row labels column.
  const QRectF col(a.left(), plot.top(), labelWidth_, a.bottom() - plot.top());
  p.fillRect(col, kLabelBg);
  p.fillRect(QRectF(a.left(), a.top(), labelWidth_, kAxisHeight - 1), kLabelBg);
  p.setPen(pens_.rule);
  p.drawLine(QPointF(col.right() - 0.5, a.top()), QPointF(col.right() - 0.5, a.bottom()));
  if (!model_) return;
  p.save();
  p.setClipRect(col);
  const auto& rows = model_->rows();
  // Two passes so the font changes twice per frame, not per row: device rows, then the rest.
  for (int pass = 0; pass < 2; ++pass) {
    p.setFont(pass == 0 ? font_ : smallFont_);
    for (size_t r = 0; r < rows.size(); ++r) {
      const double y = plot.top() + rowTop_[r] - f.scrollY, h = rowHeight(static_cast<int>(r));
      if (y + h < plot.top() || y > a.bottom()) continue;
      const TimelineRow& row = rows[r];
      const bool dev = row.kind == TimelineRow::Kind::Device;
      if (pass == 0 && dev) {
        p.fillRect(QRectF(a.left() + 8, y + h / 2 - 5, 10, 10), colors_[static_cast<size_t>(row.index)].bar);
        p.setPen(pens_.text);
        p.drawStaticText(QPointF(a.left() + 24, y + (h - rowName_[r].size().height()) / 2), rowName_[r]);
      } else if (pass == 1) {
        if (!dev) {
          p.setPen(pens_.rule);
          p.drawLine(QPointF(a.left() + 13, y + 2), QPointF(a.left() + 13, y + h - 2));
          p.setPen(pens_.subtle);
          p.drawStaticText(QPointF(a.left() + 24, y + (h - rowName_[r].size().height()) / 2), rowName_[r]);
        }
        const QSizeF size = rowDetail_[r].size();
        p.setPen(pens_.subtle);
        p.drawStaticText(QPointF(a.left() + labelWidth_ - 8 - size.width(), y + (h - size.height()) / 2),
                         rowDetail_[r]);
      }
    }
  }
  p.restore();
}

}  // namespace gp
