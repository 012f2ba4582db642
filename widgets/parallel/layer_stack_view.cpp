#include "parallel/layer_stack_view.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "device_colors.h"
#include "parallel/parallel_edits.h"
#include "parallel/parallel_format.h"

namespace gp {

namespace {
constexpr double kMargin = 8;
constexpr double kHandleReach = 6;  // px either side of a boundary that grab it
}  // namespace

LayerStackView::LayerStackView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void LayerStackView::setStack(const LayerStack& st) {
  parts_.clear();
  auto add = [this](const StackPart& p) {
    parts_.push_back({QString::fromStdString(p.name), p.forwardFlops, p.params});
  };
  add(st.prologue);
  for (const StackPart& p : st.layers) add(p);
  add(st.epilogue);
  dragging_ = -1;
  update();
}

void LayerStackView::setPlan(const ParallelPlan& plan) {
  plan_ = plan;
  dragging_ = -1;
  update();
}

void LayerStackView::setEditable(bool editable) {
  editable_ = editable;
  if (!editable) dragging_ = -1;
  update();
}

void LayerStackView::clear() {
  parts_.clear();
  plan_ = {};
  dragging_ = -1;
  update();
}

QSize LayerStackView::sizeHint() const {
  const int line = fontMetrics().height();
  return {800, 2 * line + 54};
}

QSize LayerStackView::minimumSizeHint() const { return {200, sizeHint().height()}; }

double LayerStackView::left() const { return kMargin; }

double LayerStackView::unit() const {
  const int n = std::max<int>(1, static_cast<int>(parts_.size()));
  return std::max(1.0, (width() - 2 * kMargin) / n);
}

QRectF LayerStackView::partRect(int part) const {
  const int line = fontMetrics().height();
  const double top = line + 12;
  const double h = height() - top - line - 8;
  return {left() + (part + 1) * unit() + 1, top, unit() - 2, std::max(8.0, h)};
}

double LayerStackView::boundaryX(int boundary) const {
  const ParallelPlan& p = dragging_ >= 0 ? dragged_ : plan_;
  if (boundary < 1 || boundary >= static_cast<int>(p.stages.size())) return -1;
  return left() + (p.stages[static_cast<size_t>(boundary)].first + 1) * unit();
}

int LayerStackView::stageOf(int part) const {
  const ParallelPlan& p = dragging_ >= 0 ? dragged_ : plan_;
  if (p.stages.empty()) return -1;
  if (part < 0) return 0;
  for (size_t s = 0; s < p.stages.size(); ++s)
    if (part < p.stages[s].last) return static_cast<int>(s);
  return static_cast<int>(p.stages.size()) - 1;
}

QRectF LayerStackView::headerRect(int stage) const {
  const ParallelPlan& p = dragging_ >= 0 ? dragged_ : plan_;
  const PipeStage& s = p.stages[static_cast<size_t>(stage)];
  const int firstPart = stage == 0 ? -1 : s.first;
  const int lastPart = stage + 1 == static_cast<int>(p.stages.size()) ? layers() : s.last - 1;
  const QRectF a = partRect(firstPart), b = partRect(lastPart);
  return {a.left(), 4, b.right() - a.left(), fontMetrics().height() + 4.0};
}

QString LayerStackView::stageText(int stage) const {
  const ParallelPlan& p = dragging_ >= 0 ? dragged_ : plan_;
  if (stage < 0 || stage >= static_cast<int>(p.stages.size())) return {};
  const PipeStage& s = p.stages[static_cast<size_t>(stage)];
  QString text = tr("Stage %1 · layers %2–%3 · tp %4 · dp %5")
                     .arg(p.stageOfChunk(stage))
                     .arg(s.first)
                     .arg(s.last - 1)
                     .arg(p.tp)
                     .arg(p.dp);
  if (p.virtualStages > 1) text += tr(" · chunk %1").arg(stage);
  if (s.recompute != Recompute::None) text += tr(" · %1 recomputation").arg(pformat::recomputeName(s.recompute).toLower());
  return text;
}

int LayerStackView::boundaryAt(double x) const {
  for (int b = 1; b < static_cast<int>(plan_.stages.size()); ++b)
    if (std::fabs(boundaryX(b) - x) <= kHandleReach) return b;
  return -1;
}

int LayerStackView::layerGapAt(double x) const { return static_cast<int>(std::lround((x - left()) / unit())) - 1; }

void LayerStackView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  const ParallelPlan& plan = dragging_ >= 0 ? dragged_ : plan_;
  if (parts_.empty() || plan.stages.empty()) return;
  const QFontMetrics fm(font());

  // Stage headers: the stage's colour, its text shortened to what fits.
  for (int s = 0; s < static_cast<int>(plan.stages.size()); ++s) {
    const QRectF r = headerRect(s);
    const QColor c = deviceColor(plan.stageOfChunk(s));
    p.setPen(Qt::NoPen);
    p.setBrush(c.lighter(165));
    p.drawRoundedRect(r, 3, 3);
    p.setPen(palette().color(QPalette::Text));
    const QString full = stageText(s);
    const QString shorter = tr("S%1 · tp %2 · dp %3").arg(plan.stageOfChunk(s)).arg(plan.tp).arg(plan.dp);
    const Recompute rc = plan.stages[static_cast<size_t>(s)].recompute;
    const QString medium =
        rc == Recompute::None ? shorter : shorter + (rc == Recompute::Full ? tr(" · recompute") : tr(" · selective"));
    const double room = r.width() - 6;
    QString text = fm.elidedText(QString::number(plan.stageOfChunk(s)), Qt::ElideRight, static_cast<int>(room));
    for (const QString& t : {full, medium, shorter})
      if (fm.horizontalAdvance(t) <= room) {
        text = t;
        break;
      }
    p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
  }

  // Layer boxes: filled with their stage's colour, hatched where the stage recomputes everything,
  // dotted where it recomputes the attention cores.
  const double u = unit();
  const bool numbersInside = fm.horizontalAdvance(QString::number(layers())) + 4 <= u;
  for (int part = -1; part <= layers(); ++part) {
    const QRectF r = partRect(part);
    const int s = stageOf(part);
    const QColor c = deviceColor(plan.stageOfChunk(s));
    const bool edge = part < 0 || part == layers();
    p.setPen(QPen(c.darker(130), 1));
    p.setBrush(edge ? c.lighter(140) : c);
    p.drawRoundedRect(r, 2, 2);
    if (const Recompute rc = plan.stages[static_cast<size_t>(s)].recompute; rc != Recompute::None && !edge) {
      p.setBrush(QBrush(QColor(255, 255, 255, 110), rc == Recompute::Full ? Qt::BDiagPattern : Qt::Dense6Pattern));
      p.drawRoundedRect(r, 2, 2);
    }
    const QString label = part < 0 ? tr("P") : part == layers() ? tr("E") : QString::number(part);
    if (numbersInside || edge) {
      p.setPen(textColorOn(edge ? c.lighter(140) : c));
      p.drawText(r, Qt::AlignCenter, label);
    }
  }
  // Layer numbers under the boxes when they do not fit inside: each stage's first layer.
  if (!numbersInside) {
    p.setPen(palette().color(QPalette::Text));
    for (const PipeStage& s : plan.stages) {
      const QRectF r = partRect(s.first);
      p.drawText(QRectF(r.left() - 20, r.bottom() + 2, 40 + r.width(), fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                 QString::number(s.first));
    }
  }
  // Boundaries: a dark bar with a grip; the dragged one in the highlight colour.
  for (int b = 1; b < static_cast<int>(plan.stages.size()); ++b) {
    const double x = boundaryX(b);
    const QRectF boxes = partRect(0);
    const QColor c = b == dragging_ ? palette().color(QPalette::Highlight) : QColor(40, 40, 40);
    p.setPen(QPen(c, editable_ ? 3 : 2));
    p.drawLine(QPointF(x, 2), QPointF(x, boxes.bottom() + 3));
    if (editable_) {
      p.setPen(Qt::NoPen);
      p.setBrush(c);
      p.drawRoundedRect(QRectF(x - 4, boxes.center().y() - 8, 8, 16), 2, 2);
    }
  }
}

void LayerStackView::mousePressEvent(QMouseEvent* e) {
  if (!editable_ || e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
  const int b = boundaryAt(e->position().x());
  if (b < 0) return QWidget::mousePressEvent(e);
  dragging_ = b;
  dragged_ = plan_;
  update();
}

void LayerStackView::mouseMoveEvent(QMouseEvent* e) {
  const double x = e->position().x();
  if (dragging_ >= 0) {
    dragged_ = pedit::withBoundary(plan_, dragging_, layerGapAt(x));
    update();
    return;
  }
  setCursor(editable_ && boundaryAt(x) >= 0 ? Qt::SplitHCursor : Qt::ArrowCursor);
}

void LayerStackView::mouseReleaseEvent(QMouseEvent* e) {
  if (dragging_ < 0) return QWidget::mouseReleaseEvent(e);
  const int b = dragging_;
  const int first = dragged_.stages[static_cast<size_t>(b)].first;
  const bool moved = first != plan_.stages[static_cast<size_t>(b)].first;
  dragging_ = -1;
  update();
  if (moved) Q_EMIT boundaryMoved(b, first);
}

bool LayerStackView::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const QPointF pos = help->pos();
  QString text;
  if (editable_ && boundaryAt(pos.x()) >= 0) {
    text =
        tr("Drag to move the boundary between stages %1 and %2").arg(boundaryAt(pos.x()) - 1).arg(boundaryAt(pos.x()));
  } else {
    for (int part = -1; part <= layers() && !parts_.empty(); ++part) {
      if (!partRect(part).contains(pos)) continue;
      const Part& pt = parts_[static_cast<size_t>(part + 1)];
      const QLocale loc;
      text = tr("%1 (stage %2)\n%3 GFLOP forward per sample, %4 M parameters")
                 .arg(pt.name)
                 .arg(plan_.stageOfChunk(std::max(0, stageOf(part))))
                 .arg(loc.toString(pt.forwardFlops / 1e9, 'f', 2),
                      loc.toString(static_cast<double>(pt.params) / 1e6, 'f', 1));
      break;
    }
    if (text.isEmpty() && !plan_.stages.empty())
      for (int s = 0; s < static_cast<int>(plan_.stages.size()); ++s)
        if (headerRect(s).contains(pos)) text = stageText(s);
  }
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace gp
