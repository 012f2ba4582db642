#include "timeline/timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "timeline/timeline_format.h"

namespace gp {

namespace {
constexpr double kDragThreshold = 4;    // pixels before a press becomes a drag
constexpr double kHitTolerance = 3;     // pixels around a bar that still hit it
constexpr double kWheelZoomStep = 0.8;  // visible span per wheel notch
constexpr int kMaxTooltipOps = 12;
}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), vbar_(new QScrollBar(Qt::Vertical, this)) {
  vbar_->hide();
  vbar_->setCursor(Qt::ArrowCursor);
  connect(vbar_, &QScrollBar::valueChanged, this, [this](int value) {
    scrollY_ = value;
    update();
  });
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);
  refreshPainter();
}

void TimelineView::setData(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& m) {
  model_.build(std::move(g), c, m);
  selected_.clear();
  pathItems_.clear();
  itemSelected_.assign(model_.items().size(), 0);
  selectedItems_.clear();
  hoverItem_ = -1;
  scrollY_ = 0;
  refreshPainter();
  zoomToFit();
}

void TimelineView::clear() {
  model_.clear();
  selected_.clear();
  pathItems_.clear();
  itemSelected_.clear();
  selectedItems_.clear();
  hoverItem_ = -1;
  scrollY_ = 0;
  refreshPainter();
  zoomToFit();
}

void TimelineView::refreshPainter() {
  painter_.setModel(&model_, font(), tr("Step %1").arg(formatDuration(model_.stepTime())));
  updateGeometry();
}

int TimelineView::rowCount() const {
  return static_cast<int>(model_.rows().size());
}

QString TimelineView::rowName(int row) const {
  return row >= 0 && row < rowCount() ? model_.rows()[static_cast<size_t>(row)].name : QString();
}

QRectF TimelineView::visibleTimeRange() const {
  return QRectF(t0_, 0, t1_ - t0_, rowCount());
}

int TimelineView::contentHeight() const {
  return static_cast<int>(std::ceil(TimelinePainter::kAxisHeight + painter_.contentHeight() + 4));
}

QSize TimelineView::sizeHint() const {
  return QSize(900, std::max(160, contentHeight()));
}
QSize TimelineView::minimumSizeHint() const {
  return QSize(300, 100);
}

// ---- view window ----

double TimelineView::fitEnd() const {
  const double end = std::max(model_.endTime(), extent_);
  return end > 0 ? end * 1.02 : 1e-3;
}

void TimelineView::setTimeExtent(double seconds) {
  extent_ = std::isfinite(seconds) && seconds > 0 ? seconds : 0;
  clampView();
  update();
}

void TimelineView::setMinLabelWidth(double width) {
  painter_.setMinLabelWidth(std::max(0.0, width));
  update();
}

double TimelineView::maxScrollY() const {
  return std::max(0.0, std::ceil(painter_.contentHeight() + 4 - (height() - TimelinePainter::kAxisHeight)));
}

QRectF TimelineView::canvas() const {
  QRectF r(rect());
  if (vbar_->isVisible()) r.setWidth(r.width() - vbar_->width());
  return r;
}

void TimelineView::syncScrollBar() {
  const double max = maxScrollY();
  const bool show = max > 0;
  if (show) {
    const int w = vbar_->sizeHint().width();
    const int top = static_cast<int>(TimelinePainter::kAxisHeight);
    vbar_->setGeometry(width() - w, top, w, height() - top);
    const QSignalBlocker block(vbar_);
    vbar_->setRange(0, static_cast<int>(max));
    vbar_->setPageStep(std::max(1, height() - top));
    vbar_->setSingleStep(20);
    vbar_->setValue(static_cast<int>(scrollY_));
  }
  if (show != vbar_->isVisible()) vbar_->setVisible(show);
}

void TimelineView::clampView() {
  const double full = fitEnd(), minSpan = std::max(full * 1e-7, 1e-10);
  double span = std::clamp(t1_ - t0_, minSpan, full);
  double start = std::clamp(t0_, 0.0, full - span);
  t0_ = start, t1_ = start + span;
  scrollY_ = std::clamp(scrollY_, 0.0, maxScrollY());
  syncScrollBar();
  if (t0_ != shownT0_ || t1_ != shownT1_) {
    shownT0_ = t0_, shownT1_ = t1_;
    Q_EMIT visibleTimeRangeChanged(t0_, t1_);
  }
}

void TimelineView::zoomToFit() {
  t0_ = 0, t1_ = fitEnd();
  clampView();
  update();
}

void TimelineView::setVisibleTimeRange(double start, double end) {
  if (!(end > start)) return;
  t0_ = start, t1_ = end;
  clampView();
  update();
}

void TimelineView::zoomAround(double factor, double anchor) {
  const double span = t1_ - t0_, frac = (anchor - t0_) / span;
  const double full = fitEnd(), newSpan = std::clamp(span * factor, std::max(full * 1e-7, 1e-10), full);
  t0_ = anchor - frac * newSpan, t1_ = t0_ + newSpan;
  clampView();
  update();
}

void TimelineView::panBy(double seconds) {
  const double span = t1_ - t0_;
  t0_ += seconds, t1_ = t0_ + span;
  clampView();
  update();
}

// ---- painting ----

TimelineFrame TimelineView::frame() const {
  TimelineFrame f;
  f.area = canvas();
  f.t0 = t0_, f.t1 = t1_, f.scrollY = scrollY_;
  if (!selected_.empty()) {
    f.itemSelected = itemSelected_.data();
    f.selectedItems = selectedItems_;
  }
  f.pathItems = pathItems_;
  f.hoverItem = hoverItem_;
  return f;
}

void TimelineView::setCriticalPath(const std::vector<PathStep>& path) {
  pathItems_.clear();
  std::unordered_map<int64_t, int32_t> transferItem;  // tensor * devices + destination -> item
  const auto& items = model_.items();
  const int64_t nd = std::max(model_.numDevices(), 1);
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].kind == TimelineEvent::Kind::Transfer)
      transferItem[static_cast<int64_t>(items[i].id) * nd + items[i].dst] = static_cast<int32_t>(i);
  for (const PathStep& s : path) {
    int32_t item = -1;
    if (s.kind == PathStep::Kind::Kernel) {
      item = model_.itemOfOp(s.id);
    } else if (auto it = transferItem.find(static_cast<int64_t>(s.id) * nd + s.dst); it != transferItem.end()) {
      item = it->second;
    }
    if (item >= 0) pathItems_.push_back(item);
  }
  update();
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  painter_.paint(p, frame());
  // The corner above the vertical scroll bar (next to the time axis) is outside the canvas.
  if (vbar_->isVisible())
    p.fillRect(QRect(width() - vbar_->width(), 0, vbar_->width(), static_cast<int>(TimelinePainter::kAxisHeight)),
               palette().window());
}

void TimelineView::renderTo(QPainter* painter, const QRectF& target) {
  if (!painter || target.isEmpty()) return;
  // Lay the whole timeline out at its natural height, scaled uniformly into `target`.
  const double natural = std::max(60.0, TimelinePainter::kAxisHeight + painter_.contentHeight() + 4);
  const double s = target.height() / natural;
  TimelineFrame f;
  f.area = QRectF(0, 0, target.width() / s, natural);
  f.t0 = 0, f.t1 = fitEnd();
  f.pathItems = pathItems_;
  if (!selected_.empty()) {
    f.itemSelected = itemSelected_.data();
    f.selectedItems = selectedItems_;
  }
  painter->save();
  painter->translate(target.topLeft());
  painter->scale(s, s);
  painter_.paint(*painter, f);
  painter->restore();
}

void TimelineView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  clampView();
}

void TimelineView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::FontChange) refreshPainter();
  QWidget::changeEvent(e);
}

QRectF TimelineView::opBarRect(OpId op) const {
  const int32_t item = model_.itemOfOp(op);
  if (item < 0) return {};
  const TimelineItem& it = model_.items()[static_cast<size_t>(item)];
  const QRectF plot = painter_.plotRect(canvas());
  const double pps = plot.width() / (t1_ - t0_);
  const double x0 = plot.left() + (it.start - t0_) * pps, x1 = plot.left() + (it.end - t0_) * pps;
  const double y = plot.top() + painter_.rowTop(it.row) - scrollY_;
  const QRectF r = QRectF(x0, y, x1 - x0, painter_.rowHeight(it.row)).intersected(plot);
  return r.isEmpty() && (x1 - x0 <= 0) ? QRectF(x0, y, 0, painter_.rowHeight(it.row)) : r;
}

// ---- hit testing and tooltips ----

TimelineView::Hit TimelineView::hitTest(const QPointF& pos) const {
  Hit hit;
  const QRectF plot = painter_.plotRect(canvas());
  if (!plot.adjusted(-kHitTolerance, 0, kHitTolerance, 0).contains(pos)) return hit;
  hit.row = painter_.rowAt(pos.y() - plot.top() + scrollY_);
  if (hit.row < 0) return hit;
  const double pps = plot.width() / (t1_ - t0_);
  const double t = t0_ + (pos.x() - plot.left()) / pps;
  const int32_t bar = model_.barAt(hit.row, t, kHitTolerance / pps);
  if (bar >= 0) hit.item = model_.rows()[static_cast<size_t>(hit.row)].bars[static_cast<size_t>(bar)].item;
  return hit;
}

QString TimelineView::tooltip(int32_t item) const {
  const Graph* g = model_.graph();
  const TimelineItem& it = model_.items()[static_cast<size_t>(item)];
  const QString start = formatDuration(it.start), duration = formatDuration(it.end - it.start);
  if (it.kind == TimelineEvent::Kind::Transfer) {
    const QString tensor = g ? QString::fromStdString(g->tensorName(it.id)).toHtmlEscaped() : QString::number(it.id);
    return tr("<b>Tensor %1</b><br>%2 from %3 to %4<br>Start: %5<br>Duration: %6")
        .arg(tensor, formatBytes(it.bytes), model_.deviceName(it.src), model_.deviceName(it.dst), start, duration);
  }
  const auto ops = model_.itemOps(it);
  auto opName = [&](OpId op) { return QString::fromStdString(g->opName(op)).toHtmlEscaped(); };
  auto opType = [&](OpId op) {
    return QString::fromUtf8(g->opType(op).data(), static_cast<qsizetype>(g->opType(op).size()));
  };
  if (ops.size() == 1)
    return tr("<b>%1</b><br>Type: %2<br>Device: %3<br>Start: %4<br>Duration: %5")
        .arg(opName(ops[0]), opType(ops[0]), model_.deviceName(it.src), start, duration);
  QString list;
  for (size_t i = 0; i < ops.size() && i < static_cast<size_t>(kMaxTooltipOps); ++i)
    list += tr("%1 (%2)").arg(opName(ops[i]), opType(ops[i])) + QStringLiteral("<br>");
  if (ops.size() > static_cast<size_t>(kMaxTooltipOps))
    list += tr("and %n more", nullptr, static_cast<int>(ops.size()) - kMaxTooltipOps) + QStringLiteral("<br>");
  return tr("<b>Fused kernel of %1 ops</b> (fusion group %2)<br>Device: %3<br>Start: %4<br>Duration: %5<br>%6")
      .arg(ops.size())
      .arg(it.fusionGroup)
      .arg(model_.deviceName(it.src), start, duration, list);
}

bool TimelineView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const Hit hit = hitTest(help->pos());
    if (hit.item >= 0 && model_.graph()) {
      QToolTip::showText(help->globalPos(), tooltip(hit.item), this);
    } else {
      QToolTip::hideText();
      e->ignore();
    }
    return true;
  }
  return QWidget::event(e);
}

// ---- selection ----

void TimelineView::setSelectedOps(const std::vector<OpId>& ops) {
  applySelection(ops, false);
}

void TimelineView::applySelection(std::vector<OpId> ops, bool emitSignal) {
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  for (int32_t item : selectedItems_) itemSelected_[static_cast<size_t>(item)] = 0;
  selectedItems_.clear();
  for (OpId op : ops) {
    const int32_t item = model_.itemOfOp(op);
    if (item >= 0 && !itemSelected_[static_cast<size_t>(item)]) {
      itemSelected_[static_cast<size_t>(item)] = 1;
      selectedItems_.push_back(item);
    }
  }
  selected_ = std::move(ops);
  update();
  if (emitSignal) Q_EMIT selectionChanged(selected_);
}

void TimelineView::clickAt(const QPointF& pos, Qt::KeyboardModifiers mods) {
  const Hit hit = hitTest(pos);
  if (hit.item < 0) {
    if (!selected_.empty()) applySelection({}, true);
    return;
  }
  const TimelineItem& it = model_.items()[static_cast<size_t>(hit.item)];
  std::vector<OpId> ops;
  if (it.kind == TimelineEvent::Kind::Op) {
    const auto span = model_.itemOps(it);
    ops.assign(span.begin(), span.end());
  } else if (const Graph* g = model_.graph(); g && g->producer(it.id) >= 0) {
    ops.push_back(g->producer(it.id));
  }
  if (ops.empty()) return;
  if (mods & (Qt::ShiftModifier | Qt::ControlModifier)) {
    const bool allSelected = std::all_of(
        ops.begin(), ops.end(), [&](OpId op) { return std::binary_search(selected_.begin(), selected_.end(), op); });
    std::vector<OpId> next;
    if (allSelected) {
      std::sort(ops.begin(), ops.end());
      std::set_difference(selected_.begin(), selected_.end(), ops.begin(), ops.end(), std::back_inserter(next));
    } else {
      next = selected_;
      next.insert(next.end(), ops.begin(), ops.end());
    }
    applySelection(std::move(next), true);
  } else {
    applySelection(std::move(ops), true);
  }
}

// ---- mouse and keys ----

void TimelineView::wheelEvent(QWheelEvent* e) {
  const QRectF plot = painter_.plotRect(canvas());
  const QPoint d = e->angleDelta();
  const double span = t1_ - t0_;
  if ((e->modifiers() & Qt::AltModifier) || e->position().x() < plot.left()) {
    // Rows (Alt swaps the wheel's axes on some platforms: take whichever moved).
    const int delta = d.y() != 0 ? d.y() : d.x();
    scrollY_ -= delta / 120.0 * 3 * 20;
    clampView();
    update();
  } else if ((e->modifiers() & Qt::ShiftModifier) || std::abs(d.x()) > std::abs(d.y())) {
    const int delta = std::abs(d.x()) > std::abs(d.y()) ? d.x() : d.y();
    panBy(-delta / 120.0 * 0.1 * span);
  } else if (d.y() != 0) {
    const double x = std::clamp(e->position().x(), plot.left(), plot.right());
    const double anchor = t0_ + (x - plot.left()) / plot.width() * span;
    zoomAround(std::pow(kWheelZoomStep, d.y() / 120.0), anchor);
  }
  e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
  pressed_ = true;
  dragging_ = false;
  pressPos_ = e->position();
  pressT0_ = t0_;
  pressScrollY_ = scrollY_;
  e->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  if (pressed_ && (e->buttons() & Qt::LeftButton)) {
    const QPointF d = e->position() - pressPos_;
    if (!dragging_ && std::abs(d.x()) + std::abs(d.y()) >= kDragThreshold) {
      dragging_ = true;
      setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
      const QRectF plot = painter_.plotRect(canvas());
      const double span = t1_ - t0_;
      t0_ = pressT0_ - d.x() / plot.width() * span, t1_ = t0_ + span;
      scrollY_ = pressScrollY_ - d.y();
      clampView();
      update();
    }
    return;
  }
  const int32_t hover = hitTest(e->position()).item;
  if (hover != hoverItem_) {
    hoverItem_ = hover;
    update();
  }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !pressed_) return QWidget::mouseReleaseEvent(e);
  pressed_ = false;
  if (dragging_) {
    dragging_ = false;
    unsetCursor();
  } else {
    clickAt(e->position(), e->modifiers());
  }
  e->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    zoomToFit();
    e->accept();
  }
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
  const double span = t1_ - t0_, mid = (t0_ + t1_) / 2;
  switch (e->key()) {
    case Qt::Key_F:
    case Qt::Key_Home:
    case Qt::Key_0:
      zoomToFit();
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomAround(0.5, mid);
      break;
    case Qt::Key_Minus:
      zoomAround(2, mid);
      break;
    case Qt::Key_Left:
      panBy(-0.1 * span);
      break;
    case Qt::Key_Right:
      panBy(0.1 * span);
      break;
    case Qt::Key_Escape:
      if (!selected_.empty()) applySelection({}, true);
      break;
    default:
      return QWidget::keyPressEvent(e);
  }
  e->accept();
}

void TimelineView::leaveEvent(QEvent* e) {
  if (hoverItem_ >= 0) {
    hoverItem_ = -1;
    update();
  }
  QWidget::leaveEvent(e);
}

}  // namespace gp
