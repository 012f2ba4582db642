// GraphView: graph, expansion state, background layout jobs, viewport, search.
// Colours: graph_view_colors.cpp; painting: graph_view_paint.cpp; mouse/keys: graph_view_input.cpp.
#include "graph/graph_view.h"

#include <QPainter>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "base/thread_handoff.h"
#include "graph/graph_layout.h"
#include "graph/scope_tree.h"

namespace gp {

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(200, 150);
  for (int i = 0; i < 24; ++i) {
    labelFonts_[i] = font();
    labelFonts_[i].setPixelSize(i + 5);
    boldFonts_[i] = labelFonts_[i];
    boldFonts_[i].setBold(true);
  }
  uiFont_ = font();
  uiFont_.setPixelSize(12);
  for (auto& l : lines_) l.reserve(1 << 16);
  arrows_.reserve(1 << 14);
}

GraphView::~GraphView() {
  if (layoutCancel_) *layoutCancel_ = true;
  if (overviewCancel_) *overviewCancel_ = true;
  for (QFuture<void>& f : jobs_) f.waitForFinished();
}

void GraphView::runInBackground(std::function<void()> work) {
  jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [](const QFuture<void>& j) { return j.isFinished(); }),
              jobs_.end());
  const HandOff handOff(HandOff::ThreadPool);  // Qt's pool hands the job over (base/thread_handoff.h)
  jobs_.push_back(handOff.send([&] {
    return QtConcurrent::run([work = std::move(work), handOff] {
      handOff.received();
      work();
    });
  }));
}

void GraphView::postToView(std::function<void()> fn) {
  const HandOff handOff(HandOff::EventQueue);  // Qt's event queue hands the call over
  handOff.send([&] {
    QMetaObject::invokeMethod(
        this,
        [fn = std::move(fn), handOff] {
          handOff.received();
          fn();
        },
        Qt::QueuedConnection);
  });
}

void GraphView::setGraph(std::shared_ptr<const Graph> g) {
  cancelLayout();
  graph_ = std::move(g);
  layout_.reset();
  overview_ = QImage();
  overviewLevels_.clear();
  minimap_ = QImage();
  ++overviewJob_;
  labels_.clear();
  subLabels_.clear();
  selected_.clear();
  opError_.clear();  // measured for another graph
  opSlack_.clear();
  matches_.clear();
  matchIndex_ = -1;
  const int n = graph_ ? graph_->numOps() : 0;
  opSelected_.assign(n, 0);
  opHighlighted_.assign(n, 0);
  if (!graph_) {
    tree_.reset();
    expanded_.clear();
    update();
    return;
  }
  tree_ = std::make_shared<const ScopeTree>(*graph_);
  expanded_.assign(tree_->numScopes(), 0);
  // a lone group at the top (e.g. "resnet50") is opened: the first screen shows structure
  ScopeId top = 0;
  for (;;) {
    auto kids = tree_->children(top);
    if (kids.size() != 1 || !tree_->directOps(top).empty()) break;
    top = kids[0];
    expanded_[top] = 1;
  }
  // ... and so is the first group under it (the forward model in a training graph: "nmt" next
  // to "gradients" and "update") when the top shows a handful of big groups and the first
  // screen stays small (at most ~60 boxes). Only a scope of the model: a display group (the
  // calls of one module, e.g. the embedding looked up at every step of an unrolled seq2seq)
  // holds more of the same, and opening it would push the groups after it (enc, dec) aside.
  if (auto kids = tree_->children(top); !kids.empty() && kids.size() <= 6 && !tree_->isDisplayGroup(kids[0]) &&
                                        tree_->subtreeOpCount(kids[0]) >= 100) {
    const size_t shown = kids.size() + tree_->directOps(top).size();
    const size_t inside = tree_->children(kids[0]).size() + tree_->directOps(kids[0]).size();
    if (shown - 1 + inside <= 60) expanded_[kids[0]] = 1;
  }
  // ... and, level by level, a group holding nearly all ops (e.g. "encoder" between a stem and a
  // head) while the first screen stays small
  for (ScopeId s = top;;) {
    ScopeId big = kNone;
    for (ScopeId c : tree_->children(s))
      if (int64_t{tree_->subtreeOpCount(c)} * 5 >= int64_t{tree_->subtreeOpCount(s)} * 4) big = c;
    if (big == kNone || expanded_[big] || tree_->subtreeOpCount(big) < 2) break;
    expanded_[big] = 1;
    if (boxesShown(0, 61) > 60) {
      expanded_[big] = 0;
      break;
    }
    s = big;
  }
  if (plan_.device.size() != static_cast<size_t>(n)) plan_ = Plan{};
  if (opCost_.size() != static_cast<size_t>(n)) opCost_.clear();
  if (opStart_.size() != static_cast<size_t>(n)) opStart_.clear();
  recomputeGroupDevices();
  recomputeColors();
  fitOnNextLayout_ = true;
  firstView_ = true;
  startLayout();
  update();
}

int GraphView::boxesShown(ScopeId s, int cap) const {
  if (s != 0 && (!expanded_[s] || tree_->subtreeOpCount(s) <= 1)) return 1;
  int n = static_cast<int>(tree_->directOps(s).size());
  for (ScopeId c : tree_->children(s)) {
    if (n > cap) break;
    n += boxesShown(c, cap - n);
  }
  return n;
}

void GraphView::startLayout(ScopeId anchor) {
  if (!graph_) return;
  if (layoutCancel_) *layoutCancel_ = true;
  layoutCancel_ = std::make_shared<std::atomic<bool>>(false);
  const int job = ++layoutJob_;
  anchorScope_ = anchor;
  placedLayout_ = nullptr;
  if (anchor != kNone) fitOnNextLayout_ = firstView_ = false;  // the user's move wins over the first view
  if (anchor != kNone && layout_) {
    const QRectF r = scopeRect(anchor);
    anchorWidgetPos_ = r.isEmpty() ? QPointF(width() / 2.0, height() / 2.0) : r.center();
  }
  layoutRunning_ = true;
  layoutPercent_ = 0;
  progressText_ = tr("Laying out the graph…");
  Q_EMIT layoutStarted();
  auto graph = graph_;
  auto tree = tree_;
  auto expanded = expanded_;
  auto cancel = layoutCancel_;
  const LayoutOptions options = layoutOptions_;
  runInBackground([this, graph, tree, expanded, cancel, job, options] {
    int lastSent = -1;
    auto progress = [&](int p) {
      if (p == lastSent || *cancel) return;
      lastSent = p;
      postToView([this, job, p] {
        if (job != layoutJob_) return;
        layoutPercent_ = p;
        progressText_ = tr("Laying out the graph… %1%").arg(p);
        Q_EMIT layoutProgress(p);
        update();
      });
    };
    // the layered layout while dot still runs: shown at once, replaced when dot's arrives
    auto provisional = [this, job, cancel](std::shared_ptr<const GraphLayout> layered) {
      if (*cancel) return;
      postToView([this, job, layered] { applyLayout(job, layered, false); });
    };
    std::shared_ptr<const GraphLayout> result;
    QString failure;
    try {
      result = computeGraphLayout(*graph, *tree, expanded, *cancel, progress, options, provisional);
    } catch (const std::bad_alloc&) {
      failure = tr("not enough memory to lay out this many boxes");
    } catch (const std::exception& e) {
      failure = QString::fromStdString(e.what());
    }
    if (*cancel) return;
    if (!result) {  // the previous layout stays; the view says why and is idle again
      postToView([this, job, failure] {
        if (job != layoutJob_) return;
        layoutRunning_ = false;
        progressText_ = tr("Layout failed: %1").arg(failure.isEmpty() ? tr("no result") : failure);
        update();
        Q_EMIT layoutFinished();
      });
      return;
    }
    postToView([this, job, result] { applyLayout(job, result, true); });
  });
}

void GraphView::applyLayout(int job, std::shared_ptr<const GraphLayout> layout, bool final) {
  if (job != layoutJob_) return;  // a newer layout is on its way
  layoutRunning_ = !final;
  if (layout == layout_) {  // dot did not make it: the layered layout shown already stays
    fitOnNextLayout_ = firstView_ = false;
    anchorScope_ = kNone;
    update();
    Q_EMIT layoutFinished();
    return;
  }
  // a replacement for a provisional layout keeps the viewport the user moved since
  const bool replacing = layout_ && placedLayout_ == layout_.get();
  const bool untouched = !replacing || (origin_ == placedOrigin_ && scale_ == placedScale_);
  layout_ = std::move(layout);
  if (!final) progressText_ = tr("Refining the layout (Graphviz)…");
  overviewLevels_.clear();  // the old picture no longer matches; startOverview() makes a new one
  overview_ = QImage();
  minimap_ = QImage();
  const size_t n = layout_->items.size();
  stamp_.assign(n, 0);
  frameStamp_ = 0;
  labels_.assign(n, QString());
  subLabels_.assign(n, QString());
  recomputeColors();
  recomputeItemFlags();
  if (untouched) {
    if (fitOnNextLayout_) {
      firstView_ ? showFirstView() : zoomToFit();
    } else if (anchorScope_ != kNone) {
      // keep the group the user opened or closed where it was on screen
      const auto ops = tree_->subtreeOps(anchorScope_);
      if (!ops.empty()) {
        const QRectF r = layout_->items[layout_->itemOfOp[ops[0]]].rect;
        const QPointF target = isExpanded(anchorScope_) ? QPointF(r.center().x(), r.top()) : r.center();
        const QPointF at = isExpanded(anchorScope_) ? anchorWidgetPos_ - QPointF(0, kGroupBoxH * scale_ / 2)
                                                     : anchorWidgetPos_;
        origin_ = target - at / scale_;
      }
    }
  }
  placedLayout_ = layout_.get();
  placedOrigin_ = origin_;
  placedScale_ = scale_;
  if (final) {
    fitOnNextLayout_ = false;
    firstView_ = false;
    anchorScope_ = kNone;
  }
  startOverview();
  update();
  if (final) Q_EMIT layoutFinished();
}

void GraphView::cancelLayout() {
  if (layoutCancel_) *layoutCancel_ = true;
  ++layoutJob_;
  if (layoutRunning_) {
    layoutRunning_ = false;
    update();
    Q_EMIT layoutFinished();  // the previous layout stays: nothing runs any more
  }
}

int GraphView::visibleNodeCount() const { return layout_ ? static_cast<int>(layout_->items.size()) : 0; }

// ---- expansion ----

bool GraphView::isExpanded(ScopeId s) const {
  if (s == 0) return true;
  return s > 0 && s < static_cast<ScopeId>(expanded_.size()) && expanded_[s];
}

void GraphView::expandScope(ScopeId s) {
  if (!tree_ || s <= 0 || s >= tree_->numScopes()) return;
  bool changed = false;
  for (ScopeId a = s; a > 0; a = tree_->parent(a))  // its ancestors open too, so it shows
    if (!expanded_[a]) expanded_[a] = 1, changed = true;
  // a chain of lone sub-scopes ("gradients" -> "gradients/gnmt") opens in one go
  for (ScopeId c = s; tree_->children(c).size() == 1 && tree_->directOps(c).empty();) {
    c = tree_->children(c)[0];
    if (!expanded_[c]) expanded_[c] = 1, changed = true;
  }
  if (changed) startLayout(s);
}

void GraphView::collapseScope(ScopeId s) {
  if (!tree_ || s <= 0 || s >= tree_->numScopes() || !expanded_[s]) return;
  expanded_[s] = 0;
  startLayout(s);
}

void GraphView::expandAll() {
  if (!tree_) return;
  std::fill(expanded_.begin(), expanded_.end(), 1);
  fitOnNextLayout_ = true;
  firstView_ = false;
  startLayout();
}

void GraphView::collapseAll() {
  if (!tree_) return;
  std::fill(expanded_.begin(), expanded_.end(), 0);
  fitOnNextLayout_ = true;
  firstView_ = false;
  startLayout();
}

// ---- viewport ----

void GraphView::setViewport(QPointF sceneTopLeft, double pixelsPerUnit) {
  origin_ = sceneTopLeft;
  scale_ = std::clamp(pixelsPerUnit, 1e-5, 8.0);
  update();
}

void GraphView::centerOn(QPointF scenePos) {
  origin_ = scenePos - QPointF(width() / 2.0, height() / 2.0) / scale_;
  update();
}

void GraphView::centerOnOp(OpId op) {
  if (layout_ && op >= 0 && op < static_cast<OpId>(layout_->itemOfOp.size()))
    centerOn(layout_->items[layout_->itemOfOp[op]].rect.center());
}

void GraphView::zoomToFit() {
  if (!layout_) return;
  const QRectF b = layout_->bounds.adjusted(-40, -40, 40, 40);
  scale_ = std::clamp(std::min(width() / b.width(), height() / b.height()), 1e-5, 1.0);
  centerOn(b.center());
}

bool GraphView::isGraphvizLayout() const { return layout_ && layout_->graphviz; }

void GraphView::showFirstView() {
  if (!layout_) return;
  const QRectF b = layout_->bounds.adjusted(-40, -40, 40, 40);
  const double w = std::max(1, width()), h = std::max(1, height());
  const double fit = std::min(w / b.width(), h / b.height());
  const double graphAspect = b.width() / b.height(), viewAspect = w / h;
  const double mismatch = std::max(graphAspect / viewAspect, viewAspect / graphAspect);
  if (fit >= kLegibleZoom || mismatch < 2.5) {
    zoomToFit();
    return;
  }
  // legible, showing as much as that allows
  scale_ = kLegibleZoom;
  const double viewW = w / scale_;
  double x = b.center().x() - viewW / 2;
  if (b.width() > viewW) {  // centred on the top row (the inputs), kept inside the graph
    double top = 1e300;
    for (const VisItem& it : layout_->items) top = std::min(top, it.rect.top());
    double sum = 0;
    int count = 0;
    for (const VisItem& it : layout_->items)
      if (it.rect.top() < top + kGroupBoxH) sum += it.rect.center().x(), ++count;
    const double cx = count > 0 ? sum / count : b.center().x();
    x = std::clamp(cx - viewW / 2, b.left(), b.right() - viewW);
  }
  origin_ = QPointF(x, b.top());
  update();
}

void GraphView::zoomAt(QPointF widgetPos, double factor) {
  const QPointF scenePos = toScene(widgetPos);
  scale_ = std::clamp(scale_ * factor, 1e-5, 8.0);
  origin_ = scenePos - widgetPos / scale_;
  update();
}

QRectF GraphView::opRect(OpId op) const {
  if (!layout_ || op < 0 || op >= static_cast<OpId>(layout_->itemOfOp.size())) return {};
  const QRectF r = layout_->items[layout_->itemOfOp[op]].rect;
  return QRectF(toWidget(r.topLeft()), r.size() * scale_);
}

QRectF GraphView::scopeRect(ScopeId s) const {
  if (!layout_ || s < 0 || s >= static_cast<ScopeId>(layout_->itemOfScope.size())) return {};
  if (layout_->itemOfScope[s] >= 0) {
    const QRectF r = layout_->items[layout_->itemOfScope[s]].rect;
    return QRectF(toWidget(r.topLeft()), r.size() * scale_);
  }
  for (const VisFrame& f : layout_->frames)
    if (f.scope == s) return QRectF(toWidget(f.rect.topLeft()), f.rect.size() * scale_);
  return {};
}

void GraphView::renderTo(QPainter* painter, const QRectF& target) {
  if (!layout_ || !painter) return;
  const QRectF b = layout_->bounds.adjusted(-20, -20, 20, 20);
  const double s = std::min(target.width() / b.width(), target.height() / b.height());
  painter->save();
  painter->translate(target.topLeft() + QPointF((target.width() - b.width() * s) / 2,
                                                (target.height() - b.height() * s) / 2));
  paintScene(*painter, b, s, b.topLeft(), QSize(int(b.width() * s) + 1, int(b.height() * s) + 1), false);
  painter->restore();
}

// ---- search ----

int GraphView::search(const QString& text, SearchKind kind) {
  matches_.clear();
  matchIndex_ = -1;
  if (graph_ && !text.isEmpty()) {
    const Graph& g = *graph_;
    if (kind == SearchKind::OpType) {
      std::vector<uint8_t> typeMatch(g.opTypeNames().size(), 0);
      for (size_t t = 0; t < typeMatch.size(); ++t)
        typeMatch[t] = QString::fromStdString(g.opTypeNames()[t]).compare(text, Qt::CaseInsensitive) == 0;
      for (OpId op = 0; op < g.numOps(); ++op)
        if (typeMatch[g.opTypeId(op)]) matches_.push_back(op);
    } else if (kind == SearchKind::Regex) {
      QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
      if (re.isValid()) {
        QString name;
        for (OpId op = 0; op < g.numOps(); ++op) {
          const std::string& n = g.opName(op);
          name = QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
          if (re.match(name).hasMatch()) matches_.push_back(op);
        }
      }
    } else {
      const QByteArray needle = text.toLower().toUtf8();
      const std::string_view nv(needle.constData(), static_cast<size_t>(needle.size()));
      std::string lower;
      for (OpId op = 0; op < g.numOps(); ++op) {
        lower = g.opName(op);
        for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (lower.find(nv) != std::string::npos) matches_.push_back(op);
      }
    }
  }
  setSelection(matches_, true);
  if (!matches_.empty()) matchIndex_ = 0;
  showMatch();
  return static_cast<int>(matches_.size());
}

void GraphView::nextMatch() {
  if (matches_.empty()) return;
  matchIndex_ = (matchIndex_ + 1) % static_cast<int>(matches_.size());
  showMatch();
}

void GraphView::previousMatch() {
  if (matches_.empty()) return;
  matchIndex_ = (matchIndex_ + static_cast<int>(matches_.size()) - 1) % static_cast<int>(matches_.size());
  showMatch();
}

void GraphView::showMatch() {
  Q_EMIT matchChanged(matchIndex_, static_cast<int>(matches_.size()));
  if (matchIndex_ < 0 || !layout_) return;
  const QRectF r = layout_->items[layout_->itemOfOp[matches_[matchIndex_]]].rect;
  if (scale_ < 0.4) scale_ = 0.6;  // close enough to read the name
  centerOn(r.center());
}

}  // namespace gp
