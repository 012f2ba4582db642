#include "graph/graph_layout.h"

#include <QElapsedTimer>
#include <algorithm>

#include "graph/graphviz_process.h"
#include "graph/scope_tree.h"

namespace gp {

void buildVisibleGraph(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                       GraphLayout& out) {
  const int32_t ns = tree.numScopes();
  out.items.clear();
  out.itemOfOp.assign(g.numOps(), -1);
  out.itemOfScope.assign(ns, -1);
  // rep[s]: -1 when s is open (its ops show as boxes), else the group item that stands for it
  std::vector<int32_t> rep(ns, -1);
  for (ScopeId s : tree.preorder()) {
    const ScopeId p = tree.parent(s);
    if (s != 0 && p != kNone && rep[p] >= 0) {
      rep[s] = rep[p];
      continue;
    }
    // a scope holding a single op shows the op itself
    const bool open = s == 0 || (s < static_cast<int32_t>(expanded.size()) && expanded[s]) ||
                      tree.subtreeOpCount(s) == 1;
    if (!open) {
      rep[s] = static_cast<int32_t>(out.items.size());
      out.itemOfScope[s] = rep[s];
      out.items.push_back({VisItem::Kind::Group, s, tree.subtreeOpCount(s), {}});
      continue;
    }
    for (OpId op : tree.directOps(s)) {
      out.itemOfOp[op] = static_cast<int32_t>(out.items.size());
      out.items.push_back({VisItem::Kind::Op, op, 1, {}});
    }
  }
  for (OpId op = 0; op < g.numOps(); ++op)
    if (out.itemOfOp[op] < 0) out.itemOfOp[op] = rep[tree.opScope(op)];
  // the calls of an open group of calls (or of an open run of them), as far as they show as
  // single boxes, in call order
  out.callOrders.clear();
  using Kind = ScopeGroups::Kind;
  for (ScopeId p : tree.preorder()) {
    const bool ofCalls = tree.kind(p) == Kind::Calls ||
                         (tree.kind(p) == Kind::Run && p > 0 && tree.kind(tree.parent(p)) == Kind::Calls);
    if (!ofCalls || rep[p] >= 0) continue;  // closed: its calls are not shown
    std::vector<int32_t> seq;
    auto flush = [&] {
      if (seq.size() >= 2) out.callOrders.push_back(std::move(seq));
      seq.clear();
    };
    for (ScopeId c : tree.children(p)) {
      const int32_t item = out.itemOfScope[c] >= 0         ? out.itemOfScope[c]
                           : tree.subtreeOpCount(c) == 1 ? out.itemOfOp[tree.subtreeOps(c)[0]]
                                                          : -1;  // open: its own boxes
      if (item >= 0)
        seq.push_back(item);
      else
        flush();
    }
    flush();
  }
  // aggregate op edges into item edges
  std::vector<uint64_t> pairs;
  pairs.reserve(static_cast<size_t>(g.numEdges()));
  for (OpId u = 0; u < g.numOps(); ++u) {
    const uint32_t a = static_cast<uint32_t>(out.itemOfOp[u]);
    for (OpId v : g.fanOut(u)) {
      const uint32_t b = static_cast<uint32_t>(out.itemOfOp[v]);
      if (a != b) pairs.push_back(uint64_t{a} << 32 | b);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  out.edges.clear();
  for (size_t i = 0; i < pairs.size();) {
    size_t j = i;
    while (j < pairs.size() && pairs[j] == pairs[i]) ++j;
    out.edges.push_back({static_cast<int32_t>(pairs[i] >> 32), static_cast<int32_t>(pairs[i] & 0xffffffffu),
                         static_cast<int32_t>(j - i), 0, 0, {}});
    i = j;
  }
  for (VisItem& it : out.items) {
    const bool op = it.kind == VisItem::Kind::Op;
    it.rect = QRectF(0, 0, op ? kOpBoxW : kGroupBoxW, op ? kOpBoxH : kGroupBoxH);
  }
}

int32_t GraphLayout::findItem(QPointF p) const {
  int32_t best = -1;
  grid.forEachCandidate(QRectF(p, QSizeF(0.01, 0.01)), [&](int32_t i) {
    if (items[i].rect.contains(p)) best = std::max(best, i);
  });
  return best;
}

namespace {

// Bounds, edge boxes and the spatial index of a positioned layout.
void finishLayout(GraphLayout& out) {
  QRectF bounds;
  for (const VisItem& it : out.items) bounds = bounds.isNull() ? it.rect : bounds.united(it.rect);
  for (const VisFrame& f : out.frames) bounds = bounds.united(f.rect);
  for (VisEdge& e : out.edges) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (int32_t i = e.pointBegin; i < e.pointEnd; ++i) {
      const QPointF& q = out.points[i];
      x0 = std::min(x0, q.x()), y0 = std::min(y0, q.y()), x1 = std::max(x1, q.x()), y1 = std::max(y1, q.y());
    }
    e.bounds = e.pointEnd > e.pointBegin ? QRectF(QPointF(x0, y0), QPointF(x1, y1)) : QRectF();
  }
  out.bounds = bounds.isNull() ? QRectF(0, 0, 1, 1) : bounds;
  std::vector<QRectF> rects(out.items.size());
  for (size_t i = 0; i < rects.size(); ++i) rects[i] = out.items[i].rect;
  out.grid.build(rects, out.bounds, 4 * kGroupBoxW);
}

}  // namespace

std::shared_ptr<const GraphLayout> computeGraphLayout(const Graph& g, const ScopeTree& tree,
                                                      const std::vector<uint8_t>& expanded,
                                                      const std::atomic<bool>& cancel, const LayoutProgress& progress,
                                                      const LayoutOptions& options, const LayoutReady& provisional) {
  using Clock = GraphvizProcess::Clock;
  const auto start = Clock::now();
  QElapsedTimer timer;
  timer.start();
  auto report = [&](int p) {
    if (progress) progress(p);
  };
  auto visible = std::make_shared<GraphLayout>();
  buildVisibleGraph(g, tree, expanded, *visible);
  report(5);
  if (cancel) return nullptr;
  const int n = static_cast<int>(visible->items.size());
  std::unique_ptr<GraphvizProcess> dot;
  if (options.allowGraphviz && n <= options.graphvizMaxNodes && options.graphvizBudgetSeconds > 0)
    dot = std::make_unique<GraphvizProcess>(g, tree, expanded, *visible);
  auto layered = std::make_shared<GraphLayout>(*visible);
  if (!layeredLayout(g, *layered, cancel, progress)) return nullptr;
  finishLayout(*layered);
  layered->seconds = timer.nsecsElapsed() * 1e-9;
  report(92);
  auto seconds = [](double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); };
  auto takeDot = [&]() -> std::shared_ptr<const GraphLayout> {
    if (!dot->apply(*visible)) return layered;
    finishLayout(*visible);
    visible->seconds = timer.nsecsElapsed() * 1e-9;
    return visible;
  };
  if (dot) {
    const double headStart = std::min(options.graphvizHeadStartSeconds, options.graphvizBudgetSeconds);
    GraphvizProcess::State state = dot->waitUntil(start + seconds(headStart), cancel);
    if (cancel) return nullptr;
    if (state == GraphvizProcess::State::Running) {
      if (provisional) provisional(layered);
      state = dot->waitUntil(start + seconds(options.graphvizBudgetSeconds), cancel);
      if (cancel) return nullptr;
    }
    if (state == GraphvizProcess::State::Done) {
      report(100);
      return takeDot();
    }
  }
  report(100);
  return layered;
}

}  // namespace gp
