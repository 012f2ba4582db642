#include "parallel/pipeline_view.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "device_colors.h"

namespace gp {

namespace {

constexpr double kMargin = 6;
const QColor kSendColor(120, 124, 130);
const QColor kGradSendColor(70, 74, 80);
const QColor kSyncColor(142, 68, 173);
const QColor kUpdateColor(39, 118, 60);
const QColor kGatherColor(22, 139, 150);

// 1, 2 or 5 times a power of ten, at least `raw`.
double niceStep(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-12))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

QColor colorOf(const PipelineEvent& e) {
  switch (e.kind) {
    case PipelineEvent::Kind::Forward: return deviceColor(e.stage).lighter(150);
    case PipelineEvent::Kind::Backward: return deviceColor(e.stage);
    case PipelineEvent::Kind::Send: return e.backward ? kGradSendColor : kSendColor;
    case PipelineEvent::Kind::GradSync: return kSyncColor;
    case PipelineEvent::Kind::Update: return kUpdateColor;
    case PipelineEvent::Kind::ParamGather: return kGatherColor;
  }
  return kSendColor;
}

}  // namespace

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PipelineView::setMeasurement(const ParallelMeasurement& m, int stages) {
  events_ = m.events;
  rows_ = pipelineRows(events_, stages);
  zoomToFit();
  updateGeometry();
}

void PipelineView::clear() {
  events_.clear();
  rows_ = {};
  zoomToFit();
}

void PipelineView::zoomToFit() {
  t0_ = 0;
  t1_ = std::max(rows_.end, 1e-9);
  update();
}

int PipelineView::barCount(PipelineEvent::Kind kind) const {
  return static_cast<int>(
      std::count_if(events_.begin(), events_.end(), [kind](const PipelineEvent& e) { return e.kind == kind; }));
}

QSize PipelineView::sizeHint() const {
  const int line = fontMetrics().height();
  return {800, 2 * line + 24 + std::max(1, rows_.stages) * (line + 26)};
}

QSize PipelineView::minimumSizeHint() const { return {240, 120}; }

PipelineView::Geometry PipelineView::geometry(const QRectF& area) const {
  const QFontMetrics fm(font());
  const double labelW = fm.horizontalAdvance(tr("Stage %1").arg(88)) + 10;
  const double top = area.top() + fm.height() + 8;        // the legend
  const double bottom = area.bottom() - fm.height() - 8;  // the time axis
  Geometry g;
  g.plot =
      QRectF(area.left() + kMargin + labelW, top, area.width() - 2 * kMargin - labelW, std::max(10.0, bottom - top));
  // Rows no taller than reads well: what is left of a tall view stays empty below them.
  g.stageH = std::min(g.plot.height() / std::max(1, rows_.stages), 3.0 * fm.height() + 24);
  g.plot.setHeight(g.stageH * std::max(1, rows_.stages));
  return g;
}

QRectF PipelineView::laneRect(const Geometry& g, int stage, PipelineLane lane) const {
  const double top = g.plot.top() + stage * g.stageH;
  const double h = g.stageH - 4;  // 4 px between stages
  const double passes = std::round(h * 0.56), thin = std::max(2.0, std::floor((h - passes - 2) / 2));
  switch (lane) {
    case PipelineLane::Passes: return {g.plot.left(), top, g.plot.width(), passes};
    case PipelineLane::Sends: return {g.plot.left(), top + passes + 1, g.plot.width(), thin};
    case PipelineLane::Sync: return {g.plot.left(), top + passes + 2 + thin, g.plot.width(), thin};
  }
  return {};
}

void PipelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paint(p, QRectF(rect()), t0_, t1_);
}

void PipelineView::renderTo(QPainter* painter, const QRectF& target) {
  paint(*painter, target, 0, std::max(rows_.end, 1e-9));
}

void PipelineView::paint(QPainter& p, const QRectF& area, double t0, double t1) const {
  p.save();
  p.fillRect(area, palette().color(QPalette::Base));
  const QFontMetrics fm(font());
  const QColor text = palette().color(QPalette::Text);
  if (rows_.stages == 0 || events_.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(area, Qt::AlignCenter, tr("No simulated step to show"));
    p.restore();
    return;
  }
  const Geometry g = geometry(area);

  // Legend along the top.
  double lx = g.plot.left();
  const double ly = area.top() + 4;
  auto legend = [&](const QColor& c, const QString& label, bool hatched = false) {
    const QRectF sw(lx, ly + 2, 14, fm.height() - 4);
    p.setPen(Qt::NoPen);
    p.setBrush(hatched ? QBrush(QColor(150, 150, 150), Qt::BDiagPattern) : QBrush(c));
    p.drawRect(sw);
    p.setPen(text);
    p.drawText(QPointF(lx + 18, ly + fm.ascent()), label);
    lx += 18 + fm.horizontalAdvance(label) + 14;
  };
  legend(deviceColor(0).lighter(150), tr("forward"));
  legend(deviceColor(0), tr("backward"));
  legend(kSendColor, tr("activations sent"));
  legend(kGradSendColor, tr("gradients sent back"));
  legend(kSyncColor, tr("gradient sync"));
  legend(kUpdateColor, tr("optimizer step"));
  legend(kGatherColor, tr("ZeRO gather"));
  legend({}, tr("bubble"), true);

  p.setRenderHint(QPainter::Antialiasing, false);
  p.setClipRect(area);
  for (int s = 0; s < rows_.stages; ++s) {
    const QRectF passes = laneRect(g, s, PipelineLane::Passes);
    p.setPen(text);
    p.drawText(QRectF(area.left() + kMargin, passes.top(), g.plot.left() - area.left() - kMargin - 6, passes.height()),
               Qt::AlignVCenter | Qt::AlignRight, tr("Stage %1").arg(s));
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.drawRect(passes);
  }
  p.setClipRect(g.plot.adjusted(0, -1, 0, 1));
  // Bubbles, then the bars over them.
  p.setBrush(QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
  for (int s = 0; s < rows_.stages; ++s) {
    const QRectF lane = laneRect(g, s, PipelineLane::Passes);
    for (const auto& [a, b] : rows_.idle[static_cast<size_t>(s)])
      p.drawRect(QRectF(QPointF(g.x(a, t0, t1), lane.top()), QPointF(g.x(b, t0, t1), lane.bottom())));
  }
  for (const PipelineBar& bar : rows_.bars) {
    const PipelineEvent& e = events_[static_cast<size_t>(bar.event)];
    if (e.end < t0 || e.start > t1) continue;
    const QRectF lane = laneRect(g, bar.stage, bar.lane);
    QRectF r(QPointF(g.x(e.start, t0, t1), lane.top()), QPointF(g.x(e.end, t0, t1), lane.bottom()));
    if (r.width() < 1) r.setWidth(1);
    const QColor c = colorOf(e);
    p.setBrush(c);
    p.setPen(r.width() > 4 ? QPen(c.darker(140), 0) : Qt::NoPen);
    p.drawRect(r);
    if (bar.lane == PipelineLane::Passes) {
      const QString label = QString::number(e.microbatch);
      if (fm.horizontalAdvance(label) + 4 <= r.width() && fm.height() <= r.height() + 2) {
        p.setPen(textColorOn(c));
        p.drawText(r, Qt::AlignCenter, label);
      }
    }
  }
  p.setClipping(false);

  // Time axis.
  const double axisY = g.plot.bottom() + 2;
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(QPointF(g.plot.left(), axisY), QPointF(g.plot.right(), axisY));
  const double spanMs = (t1 - t0) * 1e3;
  const double step = niceStep(spanMs / std::max(1.0, g.plot.width() / 90));
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
  const QLocale loc;
  p.setPen(text);
  for (double ms = std::ceil(t0 * 1e3 / step) * step; ms <= t1 * 1e3 + 1e-9; ms += step) {
    const double x = g.x(ms / 1e3, t0, t1);
    p.drawLine(QPointF(x, axisY), QPointF(x, axisY + 4));
    const QString label = tr("%1 ms").arg(loc.toString(ms, 'f', decimals));
    const double w = fm.horizontalAdvance(label);
    p.drawText(QPointF(std::clamp(x - w / 2, g.plot.left() - 4, g.plot.right() - w), axisY + 4 + fm.ascent()), label);
  }
  p.restore();
}

int PipelineView::eventAt(QPointF pos) const {
  if (rows_.stages == 0) return -1;
  const Geometry g = geometry(QRectF(rect()));
  for (const PipelineBar& bar : rows_.bars) {
    const PipelineEvent& e = events_[static_cast<size_t>(bar.event)];
    const QRectF lane = laneRect(g, bar.stage, bar.lane);
    const double a = g.x(e.start, t0_, t1_), b = std::max(a + 2, g.x(e.end, t0_, t1_));
    if (pos.y() >= lane.top() - 1 && pos.y() <= lane.bottom() + 1 && pos.x() >= a && pos.x() <= b) return bar.event;
  }
  return -1;
}

void PipelineView::wheelEvent(QWheelEvent* e) {
  if (rows_.stages == 0) return;
  const Geometry g = geometry(QRectF(rect()));
  const double frac = std::clamp((e->position().x() - g.plot.left()) / g.plot.width(), 0.0, 1.0);
  const double at = t0_ + frac * (t1_ - t0_);
  const double factor = std::pow(0.8, e->angleDelta().y() / 120.0);
  const double full = std::max(rows_.end, 1e-9);
  const double span = std::clamp((t1_ - t0_) * factor, full / 2000, full);
  t0_ = std::clamp(at - frac * span, 0.0, full - span);
  t1_ = t0_ + span;
  update();
  e->accept();
}

void PipelineView::mousePressEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    dragX_ = e->position().x();
    dragT0_ = t0_;
  }
}

void PipelineView::mouseMoveEvent(QMouseEvent* e) {
  if (dragX_ < 0 || !(e->buttons() & Qt::LeftButton)) return;
  const Geometry g = geometry(QRectF(rect()));
  const double span = t1_ - t0_, full = std::max(rows_.end, 1e-9);
  t0_ = std::clamp(dragT0_ - (e->position().x() - dragX_) / g.plot.width() * span, 0.0, std::max(0.0, full - span));
  t1_ = t0_ + span;
  update();
}

void PipelineView::mouseReleaseEvent(QMouseEvent*) { dragX_ = -1; }

void PipelineView::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

QString PipelineView::stageNoteAt(QPointF pos) const {
  const Geometry g = geometry(QRectF(rect()));
  if (pos.x() >= g.plot.left() || pos.y() < g.plot.top() || g.stageH <= 0) return {};
  const auto stage = static_cast<size_t>((pos.y() - g.plot.top()) / g.stageH);
  return stage < stageNotes_.size() && static_cast<int>(stage) < rows_.stages ? stageNotes_[stage] : QString();
}

bool PipelineView::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const int i = eventAt(help->pos());
  if (i < 0) {
    const QString note = stageNoteAt(help->pos());
    if (note.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), note, this);
    return true;
  }
  const PipelineEvent& ev = events_[static_cast<size_t>(i)];
  const QLocale loc;
  QString what;
  switch (ev.kind) {
    case PipelineEvent::Kind::Forward: what = tr("Forward pass of micro-batch %1").arg(ev.microbatch); break;
    case PipelineEvent::Kind::Backward: what = tr("Backward pass of micro-batch %1").arg(ev.microbatch); break;
    case PipelineEvent::Kind::Send:
      what = ev.backward ? tr("Gradients of micro-batch %1 to stage %2").arg(ev.microbatch).arg(ev.stage - 1)
                         : tr("Activations of micro-batch %1 to stage %2").arg(ev.microbatch).arg(ev.stage + 1);
      break;
    case PipelineEvent::Kind::GradSync: what = tr("Gradient synchronisation, bucket %1").arg(ev.bucket); break;
    case PipelineEvent::Kind::Update: what = tr("Optimizer step"); break;
    case PipelineEvent::Kind::ParamGather: what = tr("ZeRO weight all-gather"); break;
  }
  QToolTip::showText(help->globalPos(),
                     tr("Stage %1: %2\n%3 – %4 ms")
                         .arg(ev.stage)
                         .arg(what, loc.toString(ev.start * 1e3, 'f', 2), loc.toString(ev.end * 1e3, 'f', 2)),
                     this);
  return true;
}

}  // namespace gp
