// GraphView: mouse, wheel, keys, context menu, tooltips, drag of selected ops.
#include <QApplication>
#include <QContextMenuEvent>
#include <QDrag>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "device_colors.h"
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "graph/scope_tree.h"

namespace gp {

int32_t GraphView::itemAt(QPointF w) const { return layout_ ? layout_->findItem(toScene(w)) : -1; }

int32_t GraphView::frameAt(QPointF w) const {
  if (!layout_) return -1;
  const QPointF s = toScene(w);
  int32_t best = -1;  // the innermost frame under the point
  for (int32_t i = 0; i < static_cast<int32_t>(layout_->frames.size()); ++i)
    if (layout_->frames[i].rect.contains(s) && (best < 0 || layout_->frames[i].depth >= layout_->frames[best].depth))
      best = i;
  return best;
}

void GraphView::appendItemOps(int32_t item, std::vector<OpId>& ops) const {
  const VisItem& it = layout_->items[item];
  if (it.kind == VisItem::Kind::Op) {
    ops.push_back(it.id);
  } else {
    auto sub = tree_->subtreeOps(it.id);
    ops.insert(ops.end(), sub.begin(), sub.end());
  }
}

void GraphView::selectItems(const std::vector<int32_t>& items, bool toggle) {
  std::vector<OpId> ops;
  for (int32_t i : items) appendItemOps(i, ops);
  if (!toggle) {
    setSelection(std::move(ops), true);
    return;
  }
  // toggle: when every op is already selected remove them, else add them
  const bool allIn = std::all_of(ops.begin(), ops.end(), [&](OpId op) { return opSelected_[op]; });
  std::vector<OpId> next;
  if (allIn) {
    std::sort(ops.begin(), ops.end());
    std::set_difference(selected_.begin(), selected_.end(), ops.begin(), ops.end(), std::back_inserter(next));
  } else {
    next = selected_;
    next.insert(next.end(), ops.begin(), ops.end());
  }
  setSelection(std::move(next), true);
}

void GraphView::resizeEvent(QResizeEvent*) { update(); }

void GraphView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomAt(e->position(), std::pow(1.2, steps));
  e->accept();
}

void GraphView::mousePressEvent(QMouseEvent* e) {
  pressPos_ = e->position().toPoint();
  pressOrigin_ = origin_;
  drag_ = Drag::None;
  if (!layout_) return;
  const QRectF sceneView(toScene(QPointF(0, 0)), toScene(QPointF(width(), height())));
  if (minimapRect().contains(e->position()) && e->button() == Qt::LeftButton && !sceneView.contains(layout_->bounds)) {
    drag_ = Drag::Minimap;
    mouseMoveEvent(e);
    return;
  }
  if (e->button() == Qt::MiddleButton) {
    drag_ = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
    return;
  }
  if (e->button() != Qt::LeftButton) return;
  const int32_t item = itemAt(e->position());
  const bool modifier = e->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
  if (item >= 0) {
    drag_ = Drag::Item;  // a click on release, or a drag of the selection once it moves
    return;
  }
  if (modifier) {
    drag_ = Drag::Rubber;
    rubberToggle_ = true;
    rubber_ = QRect(pressPos_, QSize());
  } else {
    drag_ = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
  }
}

void GraphView::mouseMoveEvent(QMouseEvent* e) {
  const QPointF pos = e->position();
  switch (drag_) {
    case Drag::Pan:
      origin_ = pressOrigin_ - (pos - pressPos_) / scale_;
      update();
      break;
    case Drag::Rubber:
      rubber_ = QRect(pressPos_, pos.toPoint()).normalized();
      update();
      break;
    case Drag::Minimap: {
      const QRectF mm = minimapRect();
      const double s = mm.width() / overviewScene_.width();
      centerOn(QPointF((pos.x() - mm.left()) / s + overviewScene_.left(), (pos.y() - mm.top()) / s + overviewScene_.top()));
      break;
    }
    case Drag::Item:
      if ((pos.toPoint() - pressPos_).manhattanLength() >= QApplication::startDragDistance()) {
        const int32_t item = itemAt(pressPos_);
        if (item >= 0 && itemSelected_[item] > 0 && !selected_.empty()) {
          drag_ = Drag::None;
          startOpsDrag();
        } else {  // dragging an unselected box pans
          drag_ = Drag::Pan;
          setCursor(Qt::ClosedHandCursor);
        }
      }
      break;
    case Drag::None:
      break;
  }
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
  const Drag d = drag_;
  drag_ = Drag::None;
  unsetCursor();
  if (!layout_) return;
  if (d == Drag::Rubber) {
    const QRectF sr(toScene(rubber_.topLeft()), toScene(rubber_.bottomRight()));
    std::vector<int32_t> items;
    for (int32_t i = 0; i < static_cast<int32_t>(layout_->items.size()); ++i)
      if (sr.contains(layout_->items[i].rect)) items.push_back(i);
    rubber_ = QRect();
    if (!items.empty()) {
      std::vector<OpId> ops = selected_;
      for (int32_t i : items) appendItemOps(i, ops);
      setSelection(std::move(ops), true);
    }
    update();
    return;
  }
  const bool click = (e->position().toPoint() - pressPos_).manhattanLength() < QApplication::startDragDistance();
  if (!click || e->button() != Qt::LeftButton) return;
  const bool modifier = e->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
  const int32_t item = itemAt(e->position());
  if (item >= 0) {
    selectItems({item}, modifier);
  } else if (!modifier && (d == Drag::Pan) && !selected_.empty()) {
    setSelection({}, true);  // a click on empty space clears the selection
  }
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (!layout_ || e->button() != Qt::LeftButton) return;
  const int32_t item = itemAt(e->position());
  if (item >= 0) {
    if (layout_->items[item].kind == VisItem::Kind::Group) expandScope(layout_->items[item].id);
    return;
  }
  if (const int32_t f = frameAt(e->position()); f >= 0) collapseScope(layout_->frames[f].scope);
}

void GraphView::keyPressEvent(QKeyEvent* e) {
  const int key = e->key();
  if (key >= Qt::Key_1 && key <= Qt::Key_9 && !(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
    const int device = key - Qt::Key_1;
    if (!selected_.empty() && device < numDevices()) Q_EMIT assignRequested(selected_, device);
    e->accept();
    return;
  }
  switch (key) {
    case Qt::Key_Escape:
      if (!selected_.empty()) setSelection({}, true);
      break;
    case Qt::Key_F:
    case Qt::Key_Home:
      zoomToFit();
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomAt(QPointF(width() / 2.0, height() / 2.0), 1.25);
      break;
    case Qt::Key_Minus:
      zoomAt(QPointF(width() / 2.0, height() / 2.0), 1 / 1.25);
      break;
    default:
      QWidget::keyPressEvent(e);
      return;
  }
  e->accept();
}

void GraphView::contextMenuEvent(QContextMenuEvent* e) {
  if (!layout_) return;
  const int32_t item = itemAt(e->pos());
  if (item >= 0 && itemSelected_[item] == 0) selectItems({item}, false);
  QMenu menu(this);
  const int nd = numDevices();
  if (!selected_.empty() && nd > 0) {
    QMenu* assign = menu.addMenu(tr("Assign to"));
    for (int d = 0; d < nd; ++d) {
      const QString name = d < devices_.size() ? devices_[d] : tr("Device %1").arg(d);
      QPixmap swatch(12, 12);
      swatch.fill(deviceColor(d));
      QAction* a = assign->addAction(QIcon(swatch), d < 9 ? tr("%1\t%2").arg(name).arg(d + 1) : name);
      connect(a, &QAction::triggered, this, [this, d] { Q_EMIT assignRequested(selected_, d); });
    }
  }
  if (!selected_.empty() && !selectionActions_.isEmpty()) {
    menu.addActions(selectionActions_);
    menu.addSeparator();
  }
  ScopeId scope = kNone;
  if (item >= 0) {
    const VisItem& it = layout_->items[item];
    scope = it.kind == VisItem::Kind::Group ? it.id : tree_->opScope(it.id);
    if (it.kind == VisItem::Kind::Group)
      menu.addAction(tr("Expand group"), this, [this, s = it.id, tree = tree_] {
        if (tree_ == tree) expandScope(s);  // the graph may change while the menu is open
      });
  } else if (const int32_t f = frameAt(e->pos()); f >= 0) {
    scope = layout_->frames[f].scope;
  }
  if (scope > 0 && isExpanded(scope)) {
    const std::string_view n = tree_->shortName(*graph_, scope);
    menu.addAction(tr("Collapse “%1”").arg(QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()))), this,
                   [this, scope, tree = tree_] {
                     if (tree_ == tree) collapseScope(scope);
                   });
  }
  if (scope > 0)
    menu.addAction(tr("Select all ops of the group"), this, [this, scope, tree = tree_] {
      if (tree_ != tree) return;
      auto ops = tree_->subtreeOps(scope);
      setSelection(std::vector<OpId>(ops.begin(), ops.end()), true);
    });
  menu.addSeparator();
  menu.addAction(tr("Zoom to fit"), this, &GraphView::zoomToFit);
  menu.addAction(tr("Expand all"), this, &GraphView::expandAll);
  menu.addAction(tr("Collapse all"), this, &GraphView::collapseAll);
  menu.exec(e->globalPos());
}

bool GraphView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && layout_) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int32_t item = itemAt(help->pos());
    if (item < 0) {
      QToolTip::hideText();
      return true;
    }
    const VisItem& it = layout_->items[item];
    QString text;
    if (it.kind == VisItem::Kind::Op) {
      const OpId op = it.id;
      const int d = plan_.device.empty() ? -1 : plan_.device[op];
      const QString dev = d < 0 ? tr("unplaced") : d < devices_.size() ? devices_[d] : tr("Device %1").arg(d);
      text = tr("<b>%1</b><br>%2 · %3 · %4 GFLOP")
                 .arg(QString::fromStdString(graph_->opName(op)).toHtmlEscaped(),
                      QString::fromUtf8(graph_->opType(op).data(), static_cast<qsizetype>(graph_->opType(op).size())),
                      dev)
                 .arg(graph_->flops(op) * 1e-9, 0, 'g', 3);
      // The schedule and fusion, when the plan has them.
      const bool prio = plan_.priority.size() == plan_.device.size() && !plan_.priority.empty();
      const int32_t grp = plan_.fusionGroup.size() == plan_.device.size() && !plan_.fusionGroup.empty()
                              ? plan_.fusionGroup[op]
                              : -1;
      if (prio || grp >= 0)
        text += QStringLiteral("<br>") +
                tr("Priority %1 · %2")
                    .arg(prio ? QString::number(plan_.priority[op]) : tr("FIFO"),
                         grp >= 0 ? tr("fusion group %1").arg(grp) : tr("not fused"));
    } else {
      text = tr("<b>%1</b><br>%2 ops; double-click to expand")
                 .arg(QString::fromStdString(tree_->fullName(*graph_, it.id)).toHtmlEscaped())
                 .arg(it.opCount);
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

void GraphView::startOpsDrag() {
  auto* drag = new QDrag(this);
  drag->setMimeData(opsToMime(selected_));
  QPixmap pm(110, 26);
  pm.fill(QColor(11, 87, 208));
  {
    QPainter p(&pm);
    p.setPen(Qt::white);
    p.setFont(uiFont_);
    p.drawText(pm.rect(), Qt::AlignCenter, selected_.size() == 1 ? tr("1 op") : tr("%1 ops").arg(selected_.size()));
  }
  drag->setPixmap(pm);
  drag->exec(Qt::CopyAction | Qt::MoveAction, Qt::CopyAction);
}

}  // namespace gp
