// GraphView painting: level of detail (far: cached overview image; middle: plain filled boxes;
// close: boxes with names, types, device bars and arrowheads), culling through the layout's
// spatial grid, scratch buffers reused between frames.
#include <QFontMetricsF>
#include <QPainter>
#include <QPaintEvent>
#include <algorithm>
#include <cmath>

#include "device_colors.h"
#include "graph/graph_colors.h"
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "graph/scope_tree.h"

namespace gp {
namespace {

constexpr QRgb kBackground = 0xfff7f8fa;
constexpr QRgb kGroupFill = 0xffe9edf3;
constexpr QRgb kGroupBorder = 0xff6b7587;
constexpr QRgb kSelection = 0xff0b57d0;
constexpr QRgb kHighlight = 0xffd62728;
constexpr QRgb kText = 0xff1f2430;
constexpr QRgb kSubText = 0xff5b6475;
constexpr QRgb kEdge = 0xff8a93a3;
constexpr double kLabelUnits = 12.5;  // label font size in scene units
constexpr int kMinimapMax = 180;       // longer side of the minimap, in pixels
constexpr int kMinimapMaxLong = 260;   // ... of an elongated graph's (a long chain's) minimap

QRectF mapRect(const QRectF& r, double scale, QPointF origin) {
  return QRectF((r.left() - origin.x()) * scale, (r.top() - origin.y()) * scale, r.width() * scale,
                r.height() * scale);
}

// Halves an image keeping "ink": each output pixel is the pixel of its 2x2 block that differs
// most from the background, so far-out levels still show every box in its colour (a smooth
// downscale would average sparse boxes into the background).
QImage halveKeepingInk(const QImage& src) {
  const int w = std::max(1, src.width() / 2), h = std::max(1, src.height() / 2);
  QImage out(w, h, QImage::Format_RGB32);
  auto ink = [](QRgb c) {
    return std::abs(qRed(c) - qRed(kBackground)) + std::abs(qGreen(c) - qGreen(kBackground)) +
           std::abs(qBlue(c) - qBlue(kBackground));
  };
  for (int y = 0; y < h; ++y) {
    const auto* r0 = reinterpret_cast<const QRgb*>(src.constScanLine(std::min(2 * y, src.height() - 1)));
    const auto* r1 = reinterpret_cast<const QRgb*>(src.constScanLine(std::min(2 * y + 1, src.height() - 1)));
    auto* o = reinterpret_cast<QRgb*>(out.scanLine(y));
    for (int x = 0; x < w; ++x) {
      const int x0 = std::min(2 * x, src.width() - 1), x1 = std::min(2 * x + 1, src.width() - 1);
      QRgb best = r0[x0];
      for (QRgb c : {r0[x1], r1[x0], r1[x1]})
        if (ink(c) > ink(best)) best = c;
      o[x] = best;
    }
  }
  return out;
}

}  // namespace

void GraphView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor::fromRgb(kBackground));
  if (!layout_) {
    p.setPen(QColor::fromRgb(kSubText));
    p.setFont(uiFont_);
    p.drawText(rect(), Qt::AlignCenter, graph_ ? progressText_ : tr("No graph loaded."));
    return;
  }
  const QRectF sceneRect(toScene(QPointF(0, 0)), toScene(QPointF(width(), height())));
  paintScene(p, sceneRect, scale_, origin_, size(), true);
  paintOverlays(p);
}

void GraphView::paintScene(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin, QSize size,
                           bool interactive) {
  // far out: the pre-rendered overview, from the mip level just above the wanted resolution
  if (interactive && !overviewLevels_.empty() && scale <= overviewScale_ && kOpBoxH * scale < 4) {
    size_t level = 0;
    double ls = overviewScale_;
    while (level + 1 < overviewLevels_.size() && ls / 2 >= scale) ++level, ls /= 2;
    const QImage& img = overviewLevels_[level];
    const double fx = static_cast<double>(img.width()) / overviewScene_.width();
    const double fy = static_cast<double>(img.height()) / overviewScene_.height();
    const QRectF src((sceneRect.left() - overviewScene_.left()) * fx, (sceneRect.top() - overviewScene_.top()) * fy,
                     sceneRect.width() * fx, sceneRect.height() * fy);
    p.setRenderHint(QPainter::SmoothPixmapTransform, true);
    p.drawImage(QRectF(QPointF(0, 0), QSizeF(size)), img, src);
    // selection and highlights stay visible as marks
    if (!selected_.empty() || std::find(itemHighlighted_.begin(), itemHighlighted_.end(), 1) != itemHighlighted_.end()) {
      ++frameStamp_;
      layout_->grid.forEachCandidate(sceneRect, [&](int32_t i) {
        if (stamp_[i] == frameStamp_) return;
        stamp_[i] = frameStamp_;
        if (!itemSelected_[i] && !itemHighlighted_[i]) return;
        QRectF r = mapRect(layout_->items[i].rect, scale, origin);
        r = r.adjusted(-1.5, -1.5, 1.5, 1.5);
        if (r.width() < 4) r.adjust(-1, -1, 1, 1);
        p.fillRect(r, QColor::fromRgb(itemSelected_[i] ? kSelection : kHighlight));
      });
    }
    return;
  }
  p.setRenderHint(QPainter::Antialiasing, scale >= 0.15);
  const double fontPx = kLabelUnits * scale;
  // frames of open scopes (Graphviz clusters), outermost first
  for (const VisFrame& f : layout_->frames) {
    if (!f.rect.intersects(sceneRect)) continue;
    const QRectF r = mapRect(f.rect, scale, origin);
    const QRgb fill = (f.depth % 2 == 0) ? 0xffeef2f8 : 0xffe4e9f1;
    p.setPen(QPen(QColor::fromRgb(0xffb3bccb), 1));
    p.setBrush(QColor::fromRgb(fill));
    if (scale >= 0.3)
      p.drawRoundedRect(r, 6 * scale, 6 * scale);
    else
      p.drawRect(r);
    if (fontPx >= 6) {
      const int fi = std::clamp(static_cast<int>(std::lround(fontPx * 0.9)) - 5, 0, 23);
      p.setFont(boldFonts_[fi]);
      p.setPen(QColor::fromRgb(kSubText));
      const std::string_view name = tree_->shortName(*graph_, f.scope);
      p.drawText(QRectF(r.left() + 6 * scale, r.top() + 1 * scale, r.width() - 12 * scale, 13 * scale),
                 Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                 QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
    }
  }
  paintEdges(p, sceneRect, scale, origin);
  paintItems(p, sceneRect, scale, origin);
}

void GraphView::paintEdges(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin) {
  const double boxPx = kOpBoxH * scale;
  if (boxPx < 2.0) return;  // the boxes alone read better that far out
  for (auto& l : lines_) l.clear();
  arrows_.clear();
  const bool arrows = scale >= 0.3;
  // edges longer than a screen and a half whose ends are both off screen are noise: skipped;
  // long ones with an end on screen are drawn faint
  // Far out (boxes of a few pixels) an edge longer than half a screen is a line across the
  // view that tells nothing and costs its whole length in pixels: those need both ends on screen.
  const double longEdge = (boxPx < 6 ? 0.5 : 1.5) * std::max(sceneRect.width(), sceneRect.height());
  for (const VisEdge& e : layout_->edges) {
    if (!e.bounds.intersects(sceneRect) && !(e.bounds.width() == 0 && sceneRect.contains(e.bounds.topLeft())))
      continue;
    const bool isLong = e.bounds.height() + e.bounds.width() > longEdge;
    const bool fromOn = layout_->items[e.from].rect.intersects(sceneRect);
    const bool toOn = layout_->items[e.to].rect.intersects(sceneRect);
    if (isLong && (boxPx < 6 ? !(fromOn && toOn) : !(fromOn || toOn))) continue;
    auto& out = lines_[isLong ? 3 : e.count == 1 ? 0 : e.count < 10 ? 1 : 2];
    QPointF prev = (layout_->points[e.pointBegin] - origin) * scale;
    if (boxPx < 6) {  // far: curves are not worth their segments
      out.emplace_back(prev, (layout_->points[e.pointEnd - 1] - origin) * scale);
      continue;
    }
    for (int32_t i = e.pointBegin + 1; i < e.pointEnd; ++i) {
      const QPointF cur = (layout_->points[i] - origin) * scale;
      out.emplace_back(prev, cur);
      prev = cur;
    }
    if (arrows && e.pointEnd - e.pointBegin >= 2) {
      const QPointF tip = (layout_->points[e.pointEnd - 1] - origin) * scale;
      const QPointF from = (layout_->points[e.pointEnd - 2] - origin) * scale;
      const QPointF d = tip - from;
      const double len = std::hypot(d.x(), d.y());
      if (len > 0) {
        const QPointF u = d / len, n(-u.y(), u.x());
        const double a = 7 * scale;
        arrows_.emplace_back(tip, tip - u * a + n * a * 0.5);
        arrows_.emplace_back(tip, tip - u * a - n * a * 0.5);
      }
    }
  }
  // opaque colours (alpha would darken the joints of the polylines)
  const QColor c = QColor::fromRgb(lighten(kEdge, std::clamp(0.6 - boxPx / 60, 0.1, 0.6)));
  const QColor faint = QColor::fromRgb(lighten(kEdge, 0.7));
  // thin lines as cosmetic 1-pixel pens: the raster engine's fast path
  const double base = 1.3 * scale < 1.0 ? 0.0 : std::min(1.3 * scale, 2.0);
  // far (boxes of a few pixels): every edge a cosmetic 1-pixel line — wide pens leave the
  // raster engine's fast path and multiplicity is not readable at that size anyway
  const bool far = boxPx < 6;
  const double widths[4] = {base, far ? 0.0 : std::max(1.5, base * 2), far ? 0.0 : std::max(2.5, base * 3.5), base};
  for (int k = 0; k < 4; ++k) {
    if (lines_[k].empty()) continue;
    p.setPen(QPen(k == 3 ? faint : c, widths[k], Qt::SolidLine, Qt::FlatCap));
    p.drawLines(lines_[k].data(), static_cast<int>(lines_[k].size()));
  }
  if (!arrows_.empty()) {
    p.setPen(QPen(c, base * 1.2, Qt::SolidLine, Qt::FlatCap));
    p.drawLines(arrows_.data(), static_cast<int>(arrows_.size()));
  }
}

void GraphView::paintItems(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin) {
  if (++frameStamp_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    frameStamp_ = 1;
  }
  layout_->grid.forEachCandidate(sceneRect, [&](int32_t i) {
    if (stamp_[i] == frameStamp_) return;
    stamp_[i] = frameStamp_;
    const QRectF& r = layout_->items[i].rect;
    if (!r.intersects(sceneRect)) return;
    paintItem(p, i, mapRect(r, scale, origin), scale);
  });
}

void GraphView::paintItem(QPainter& p, int32_t i, const QRectF& r, double scale) {
  const VisItem& it = layout_->items[i];
  const bool group = it.kind == VisItem::Kind::Group;
  const QRgb color = i < static_cast<int32_t>(itemColor_.size()) ? itemColor_[i] : kNoValueColor;
  const bool selected = !itemSelected_.empty() && itemSelected_[i] > 0;
  const bool highlighted = !itemHighlighted_.empty() && itemHighlighted_[i];
  if (r.height() < 7) {  // far: a filled box
    QRgb fill = group ? (mode_ == ColorMode::Device || color == kNoValueColor ? 0xff9aa3b2 : color) : color;
    if (selected) fill = kSelection;
    p.fillRect(r, QColor::fromRgb(fill));
    if (highlighted) p.fillRect(r.adjusted(0, r.height() * 0.6, 0, 0), QColor::fromRgb(kHighlight));
    return;
  }
  const double fontPx = kLabelUnits * scale;
  const bool text = fontPx >= 6.5;
  const double radius = std::min(5 * scale, 6.0);
  // outline first (selection / highlight halo)
  if (highlighted) {
    p.setPen(QPen(QColor::fromRgb(kHighlight), std::max(2.0, 2.5 * scale), Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(r.adjusted(-4 * scale - 1, -4 * scale - 1, 4 * scale + 1, 4 * scale + 1), radius, radius);
  }
  if (group) {
    const QRgb fill = mode_ == ColorMode::Device || color == kNoValueColor ? kGroupFill : lighten(color, 0.55);
    // a second sheet behind: "this box holds more"
    p.setPen(QPen(QColor::fromRgb(0xffa7afbd), 1));
    p.setBrush(QColor::fromRgb(0xffdfe4ec));
    p.drawRoundedRect(r.translated(3 * scale, 3 * scale), radius, radius);
    p.setPen(QPen(QColor::fromRgb(selected ? kSelection : kGroupBorder), selected ? std::max(2.0, 3 * scale) : 1.2));
    p.setBrush(QColor::fromRgb(fill));
    p.drawRoundedRect(r, radius, radius);
    // device bar: share of the group's ops on each device
    const QRectF bar(r.left() + 8 * scale, r.bottom() - 15 * scale, r.width() - 16 * scale, 8 * scale);
    if (!scopeDevices_.empty()) {
      double x = bar.left();
      const double total = std::max(1, it.opCount);
      for (const auto& [d, count] : scopeDevices_[static_cast<size_t>(it.id)]) {
        const double w = bar.width() * count / total;
        p.fillRect(QRectF(x, bar.top(), w, bar.height()), deviceColor(d));
        x += w;
      }
    } else {
      p.fillRect(bar, QColor::fromRgb(0xffc9ced6));
    }
    if (text) {
      const int fi = std::clamp(static_cast<int>(std::lround(fontPx)) - 5, 0, 23);
      p.setPen(QColor::fromRgb(kText));
      p.setFont(boldFonts_[fi]);
      p.drawText(QRectF(r.left() + 8 * scale, r.top() + 5 * scale, r.width() - 16 * scale, 17 * scale),
                 Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, itemLabel(i));
      p.setFont(labelFonts_[std::max(0, fi - 1)]);
      p.setPen(QColor::fromRgb(kSubText));
      p.drawText(QRectF(r.left() + 8 * scale, r.top() + 22 * scale, r.width() - 16 * scale, 16 * scale),
                 Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, itemSubLabel(i));
      p.drawText(QRectF(r.right() - 24 * scale, r.top() + 5 * scale, 16 * scale, 17 * scale),
                 Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("+"));
    }
    return;
  }
  // op box: light fill in the colour, a stripe of the full colour on the left
  p.setPen(QPen(QColor::fromRgb(selected ? kSelection : darken(color, 0.35)), selected ? std::max(2.0, 3 * scale) : 1));
  p.setBrush(QColor::fromRgb(text ? lighten(color, 0.6) : color));
  p.drawRoundedRect(r, radius, radius);
  if (text) {
    p.fillRect(QRectF(r.left() + 1, r.top() + 1, 7 * scale, r.height() - 2), QColor::fromRgb(color));
    const int fi = std::clamp(static_cast<int>(std::lround(fontPx)) - 5, 0, 23);
    p.setPen(QColor::fromRgb(kText));
    p.setFont(labelFonts_[fi]);
    p.drawText(QRectF(r.left() + 13 * scale, r.top() + 3 * scale, r.width() - 18 * scale, 17 * scale),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, itemLabel(i));
    p.setPen(QColor::fromRgb(kSubText));
    p.setFont(labelFonts_[std::max(0, fi - 2)]);
    p.drawText(QRectF(r.left() + 13 * scale, r.top() + 20 * scale, r.width() - 18 * scale, 15 * scale),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, itemSubLabel(i));
  }
}

const QString& GraphView::itemLabel(int32_t i) {
  QString& s = labels_[i];
  if (s.isEmpty()) {
    const VisItem& it = layout_->items[i];
    std::string_view name = it.kind == VisItem::Kind::Op ? opShortName(graph_->opName(it.id))
                                                          : tree_->shortName(*graph_, it.id);
    // an op standing for its one-op scope (e.g. "/fc/Gemm") is named after the scope: "fc"
    if (it.kind == VisItem::Kind::Op) {
      const ScopeId home = tree_->opScope(it.id);
      if (home > 0 && tree_->subtreeOpCount(home) == 1 && !isExpanded(home)) name = tree_->shortName(*graph_, home);
    }
    const QFontMetricsF fm(labelFonts_[7]);  // 12 px: about one pixel per scene unit
    s = fm.elidedText(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())), Qt::ElideMiddle,
                      (it.kind == VisItem::Kind::Op ? kOpBoxW - 22 : kGroupBoxW - 40));
    if (s.isEmpty()) s = QStringLiteral(" ");
  }
  return s;
}

const QString& GraphView::itemSubLabel(int32_t i) {
  QString& s = subLabels_[i];
  if (s.isEmpty()) {
    const VisItem& it = layout_->items[i];
    if (it.kind == VisItem::Kind::Op) {
      const std::string_view t = graph_->opType(it.id);
      s = QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size()));
    } else {
      const int32_t calls = tree_->callCount(it.id);
      s = calls > 0 ? tr("%1 calls · %2 ops").arg(calls).arg(it.opCount)
                    : it.opCount == 1 ? tr("1 op") : tr("%1 ops").arg(it.opCount);
    }
    if (s.isEmpty()) s = QStringLiteral(" ");
  }
  return s;
}

QRectF GraphView::minimapRect() const {
  if (minimap_.isNull()) return {};
  const double w = minimap_.width(), h = minimap_.height();
  return QRectF(width() - w - 12, height() - h - 12, w, h);
}

void GraphView::paintOverlays(QPainter& p) {
  p.setRenderHint(QPainter::Antialiasing, false);
  if (drag_ == Drag::Rubber && !rubber_.isNull()) {
    p.setPen(QPen(QColor::fromRgb(kSelection), 1));
    p.setBrush(QColor(11, 87, 208, 40));
    p.drawRect(rubber_);
  }
  // minimap with the viewport
  const QRectF mm = minimapRect();
  const QRectF sceneView(toScene(QPointF(0, 0)), toScene(QPointF(width(), height())));
  if (!mm.isNull() && layout_ && !sceneView.contains(layout_->bounds)) {  // only when some is off screen
    p.fillRect(mm.adjusted(-4, -4, 4, 4), QColor(255, 255, 255, 230));
    p.setPen(QPen(QColor::fromRgb(0xffb3bccb), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(mm.adjusted(-4, -4, 4, 4));
    p.drawImage(mm.topLeft(), minimap_);
    const double s = mm.width() / overviewScene_.width();
    QRectF view((origin_.x() - overviewScene_.left()) * s + mm.left(), (origin_.y() - overviewScene_.top()) * s + mm.top(),
                width() / scale_ * s, height() / scale_ * s);
    view = view.intersected(mm);
    if (view.width() < 3) view.adjust(-1.5, 0, 1.5, 0);
    if (view.height() < 3) view.adjust(0, -1.5, 0, 1.5);
    p.setPen(QPen(QColor::fromRgb(kSelection), 1.5));
    p.setBrush(QColor(11, 87, 208, 30));
    p.drawRect(view);
  }
  paintLegend(p);
  if (layoutRunning_) {
    p.setFont(uiFont_);
    const QRectF box(12, 12, 210, 24);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(31, 36, 48, 200));
    p.drawRoundedRect(box, 12, 12);
    p.fillRect(QRectF(box.left() + 12, box.bottom() - 5, (box.width() - 24) * layoutPercent_ / 100.0, 2),
               QColor(255, 255, 255, 200));
    p.setPen(Qt::white);
    p.drawText(box.adjusted(12, 0, -12, -3), Qt::AlignLeft | Qt::AlignVCenter, progressText_);
  }
}

void GraphView::paintLegend(QPainter& p) {
  if (mode_ == ColorMode::Device || mode_ == ColorMode::FusionGroup || legendTitle_.isEmpty()) return;
  const bool scale = !legendLo_.isEmpty() || !legendHi_.isEmpty();  // else a one-line hint
  const double titleWidth = QFontMetricsF(uiFont_).horizontalAdvance(legendTitle_) + 16;
  const QRectF box = scale ? QRectF(12, height() - 62, std::max(220.0, titleWidth), 50)
                           : QRectF(12, height() - 34, titleWidth, 22);
  p.setRenderHint(QPainter::Antialiasing, true);
  p.setPen(QPen(QColor::fromRgb(0xffb3bccb), 1));
  p.setBrush(QColor(255, 255, 255, 235));
  p.drawRoundedRect(box, 4, 4);
  p.setFont(uiFont_);
  p.setPen(QColor::fromRgb(kText));
  p.drawText(QRectF(box.left() + 8, box.top() + 3, box.width() - 16, 16), Qt::AlignLeft | Qt::AlignVCenter, legendTitle_);
  if (!scale) return;
  constexpr int kSteps = 40;
  const double w = (box.width() - 16) / kSteps;
  for (int k = 0; k < kSteps; ++k)
    p.fillRect(QRectF(box.left() + 8 + k * w, box.top() + 21, w + 0.5, 9),
               QColor::fromRgb(gradientColor((k + 0.5) / kSteps)));
  p.setPen(QColor::fromRgb(kSubText));
  const QRectF labels(box.left() + 8, box.top() + 31, box.width() - 16, 16);
  p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, legendLo_);
  p.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, legendHi_);
}

void GraphView::startOverview() {
  if (!layout_) return;
  if (overviewCancel_) *overviewCancel_ = true;
  overviewCancel_ = std::make_shared<std::atomic<bool>>(false);
  const int job = ++overviewJob_;
  auto layout = layout_;
  auto colors = std::make_shared<std::vector<QRgb>>(itemColor_);
  auto cancel = overviewCancel_;
  const bool deviceMode = mode_ == ColorMode::Device;
  const double minimapLong = std::min<double>(kMinimapMaxLong, std::max(kMinimapMax, height() * 3 / 5));
  runInBackground([this, job, layout, colors, cancel, deviceMode, minimapLong] {
    const QRectF b = layout->bounds.adjusted(-40, -40, 40, 40);
    double s = std::min({1.0, std::sqrt(6e6 / (b.width() * b.height())), 16000 / b.width(), 16000 / b.height()});
    QImage img(std::max(1, static_cast<int>(b.width() * s)), std::max(1, static_cast<int>(b.height() * s)),
               QImage::Format_RGB32);
    s = std::min(img.width() / b.width(), img.height() / b.height());
    img.fill(kBackground);
    {
      QPainter p(&img);
      for (const VisFrame& f : layout->frames)
        p.fillRect(mapRect(f.rect, s, b.topLeft()), QColor::fromRgb(f.depth % 2 ? 0xffe4e9f1 : 0xffeef2f8));
      if (*cancel) return;
      // edges only where they stay readable (short ones); far out they would grey everything
      p.setPen(QPen(QColor::fromRgb(lighten(kEdge, 0.5)), 0));
      const double maxLen = 40 / s;
      for (const VisEdge& e : layout->edges)
        if (e.bounds.width() + e.bounds.height() < maxLen)
          p.drawLine((layout->points[e.pointBegin] - b.topLeft()) * s, (layout->points[e.pointEnd - 1] - b.topLeft()) * s);
      if (*cancel) return;
      for (size_t i = 0; i < layout->items.size(); ++i) {
        const VisItem& it = layout->items[i];
        QRectF r = mapRect(it.rect, s, b.topLeft());
        if (r.width() < 1) r.setWidth(1);
        if (r.height() < 1) r.setHeight(1);
        const QRgb c = (*colors)[i];
        const QRgb fill = it.kind == VisItem::Kind::Group && (deviceMode || c == kNoValueColor) ? 0xff9aa3b2 : c;
        p.fillRect(r, QColor::fromRgb(fill));
      }
    }
    if (*cancel) return;
    auto levels = std::make_shared<std::vector<QImage>>();
    levels->push_back(img);
    while (levels->back().width() > 48 && levels->back().height() > 48)
      levels->push_back(halveKeepingInk(levels->back()));
    const double aspect = std::max(b.width(), b.height()) / std::min(b.width(), b.height());
    const double side = aspect >= 4 ? minimapLong : kMinimapMax;
    const double ms = std::min(side / b.width(), side / b.height());
    QImage minimap = img.scaled(std::max(8, static_cast<int>(b.width() * ms)), std::max(8, static_cast<int>(b.height() * ms)),
                                Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (*cancel) return;
    // the view's thread becomes the images' only owner
    postToView([this, job, levels = std::move(levels), minimap = std::move(minimap), s, b] {
      if (job != overviewJob_) return;
      overviewLevels_ = std::move(*levels);
      overview_ = overviewLevels_.front();
      minimap_ = minimap;
      overviewScale_ = s;
      overviewScene_ = b;
      update();
    });
  });
}

}  // namespace gp
