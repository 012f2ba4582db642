// The graph view's own layered layout, for visible graphs too big for Graphviz: longest-path
// layering along a topological order of the boxes (a cycle among groups broken at its earliest
// box; the edges against the order are reversed), a few barycenter sweeps to order each layer
// (the calls of one module kept in call order), then x positions pulled toward the neighbours'
// mean without overlap.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <queue>

#include "graph/graph_layout.h"

namespace gp {
namespace {

constexpr double kNodeGap = 24;   // between boxes of one layer
constexpr double kLayerGap = 56;  // between layers (room for edges)

struct Adjacency {
  std::vector<int32_t> off, nbr, weight;
};

// CSR of `n` nodes from (node, neighbour, weight) triples.
Adjacency makeCsr(int n, const std::vector<std::array<int32_t, 3>>& triples) {
  Adjacency a;
  a.off.assign(n + 1, 0);
  for (const auto& t : triples) ++a.off[t[0] + 1];
  for (int i = 0; i < n; ++i) a.off[i + 1] += a.off[i];
  a.nbr.resize(triples.size());
  a.weight.resize(triples.size());
  std::vector<int32_t> fill(a.off.begin(), a.off.end() - 1);
  for (const auto& t : triples) {
    a.nbr[fill[t[0]]] = t[1];
    a.weight[fill[t[0]]++] = t[2];
  }
  return a;
}

// Places the boxes of one layer (already in order) as close to `want` as possible without
// overlap: push right from the left, then shift the row so the mean displacement is zero.
void packRow(const std::vector<int32_t>& row, const std::vector<double>& width, const std::vector<double>& want,
             std::vector<double>& x) {
  if (row.empty()) return;
  double shift = 0;
  for (size_t i = 0; i < row.size(); ++i) {
    const int32_t v = row[i];
    x[v] = want[v];
    if (i > 0) {
      const int32_t u = row[i - 1];
      x[v] = std::max(x[v], x[u] + (width[u] + width[v]) / 2 + kNodeGap);
    }
    shift += want[v] - x[v];
  }
  shift /= static_cast<double>(row.size());
  for (int32_t v : row) x[v] += shift;
}

}  // namespace

bool layeredLayout(const Graph& g, GraphLayout& out, const std::atomic<bool>& cancel,
                   const LayoutProgress& progress) {
  auto report = [&](int p) {
    if (progress) progress(p);
  };
  const int n = static_cast<int>(out.items.size());
  if (n == 0) return true;
  // order key: earliest topological position among the item's ops
  std::vector<int32_t> key(n, INT32_MAX);
  {
    std::span<const OpId> topo = g.topoOrder();
    for (int32_t pos = 0; pos < static_cast<int32_t>(topo.size()); ++pos) {
      const int32_t it = out.itemOfOp[topo[pos]];
      key[it] = std::min(key[it], pos);
    }
  }
  // order: a topological order of the boxes, the ready box with the earliest op first. The key
  // alone is no such order: a group's earliest op can be an input-free Constant at the very
  // start, or an early call of a group fed by later ones (the encoder fed by each step's embedding
  // lookup); edges against it would run upward. A cycle among groups is broken at its box with
  // the earliest key.
  std::vector<int32_t> order;
  std::vector<int32_t> rank(n, -1);
  {
    std::vector<int32_t> byKey(n);
    std::iota(byKey.begin(), byKey.end(), 0);
    std::sort(byKey.begin(), byKey.end(), [&](int32_t a, int32_t b) { return key[a] < key[b]; });
    std::vector<std::array<int32_t, 3>> arcs;
    arcs.reserve(out.edges.size());
    std::vector<int32_t> indeg(n, 0);
    for (const VisEdge& e : out.edges) arcs.push_back({e.from, e.to, 1}), ++indeg[e.to];
    const Adjacency next = makeCsr(n, arcs);
    using Entry = std::pair<int32_t, int32_t>;  // key, box
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    for (int32_t v = 0; v < n; ++v)
      if (indeg[v] == 0) ready.push({key[v], v});
    order.reserve(n);
    size_t forced = 0;
    while (static_cast<int>(order.size()) < n) {
      if (ready.empty()) {  // the rest lies on or behind cycles
        while (rank[byKey[forced]] >= 0) ++forced;
        ready.push({key[byKey[forced]], byKey[forced]});
      }
      const int32_t v = ready.top().second;
      ready.pop();
      if (rank[v] >= 0) continue;
      rank[v] = static_cast<int32_t>(order.size());
      order.push_back(v);
      for (int32_t i = next.off[v]; i < next.off[v + 1]; ++i)
        if (const int32_t w = next.nbr[i]; rank[w] < 0 && --indeg[w] == 0) ready.push({key[w], w});
    }
  }
  // edges oriented along the order (a DAG)
  std::vector<std::array<int32_t, 3>> fwd, bwd;
  fwd.reserve(out.edges.size());
  bwd.reserve(out.edges.size());
  for (const VisEdge& e : out.edges) {
    const bool forward = rank[e.from] < rank[e.to];
    const int32_t a = forward ? e.from : e.to, b = forward ? e.to : e.from;
    fwd.push_back({a, b, e.count});
    bwd.push_back({b, a, e.count});
  }
  const Adjacency succ = makeCsr(n, fwd), pred = makeCsr(n, bwd);
  fwd = {};
  bwd = {};
  // longest-path layering, then sinks pulled down next to their consumers
  std::vector<int32_t> layer(n, 0);
  for (int32_t v : order)
    for (int32_t i = pred.off[v]; i < pred.off[v + 1]; ++i) layer[v] = std::max(layer[v], layer[pred.nbr[i]] + 1);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int32_t v = *it;
    if (succ.off[v] == succ.off[v + 1]) continue;
    int32_t lo = INT32_MAX;
    for (int32_t i = succ.off[v]; i < succ.off[v + 1]; ++i) lo = std::min(lo, layer[succ.nbr[i]]);
    layer[v] = std::max(layer[v], lo - 1);
  }
  const int32_t numLayers = *std::max_element(layer.begin(), layer.end()) + 1;
  std::vector<std::vector<int32_t>> rows(numLayers);
  for (int32_t v = 0; v < n; ++v) rows[layer[v]].push_back(v);  // item order = scope depth-first order
  report(15);
  if (cancel) return false;

  // the calls of one module keep call order among the places they take in a row
  std::vector<int32_t> callSeq(n, -1), callPos(n, 0);
  for (size_t k = 0; k < out.callOrders.size(); ++k)
    for (size_t i = 0; i < out.callOrders[k].size(); ++i) {
      callSeq[out.callOrders[k][i]] = static_cast<int32_t>(k);
      callPos[out.callOrders[k][i]] = static_cast<int32_t>(i);
    }
  std::vector<int32_t> places, members;
  auto keepCallOrder = [&](std::vector<int32_t>& row) {
    places.clear();
    for (int32_t i = 0; i < static_cast<int32_t>(row.size()); ++i)
      if (callSeq[row[i]] >= 0) places.push_back(i);
    std::stable_sort(places.begin(), places.end(),
                     [&](int32_t a, int32_t b) { return callSeq[row[a]] < callSeq[row[b]]; });
    for (size_t b = 0; b < places.size();) {  // one module's calls: their places, ascending, get them in call order
      size_t e = b;
      while (e < places.size() && callSeq[row[places[e]]] == callSeq[row[places[b]]]) ++e;
      members.clear();
      for (size_t i = b; i < e; ++i) members.push_back(row[places[i]]);
      std::sort(members.begin(), members.end(), [&](int32_t u, int32_t v) { return callPos[u] < callPos[v]; });
      for (size_t i = b; i < e; ++i) row[places[i]] = members[i - b];  // places[b..e) ascend (stable sort)
      b = e;
    }
  };

  std::vector<double> width(n), height(n), x(n, 0), want(n, 0);
  for (int32_t v = 0; v < n; ++v) width[v] = out.items[v].rect.width(), height[v] = out.items[v].rect.height();
  for (auto& row : rows) {  // initial: packed rows centred on 0
    keepCallOrder(row);
    for (int32_t v : row) want[v] = 0;
    packRow(row, width, want, x);
  }
  // barycenter sweeps: down (by predecessors), up (by successors); the last two use both sides
  // and only move boxes, keeping the order.
  constexpr int kSweeps = 6;
  auto bary = [&](int32_t v, const Adjacency& a, const Adjacency* b) {
    double sum = 0, w = 0;
    for (int32_t i = a.off[v]; i < a.off[v + 1]; ++i) {
      const double wi = std::sqrt(static_cast<double>(a.weight[i]));
      sum += wi * x[a.nbr[i]], w += wi;
    }
    if (b)
      for (int32_t i = b->off[v]; i < b->off[v + 1]; ++i) {
        const double wi = std::sqrt(static_cast<double>(b->weight[i]));
        sum += wi * x[b->nbr[i]], w += wi;
      }
    return w > 0 ? sum / w : x[v];
  };
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    const bool down = sweep % 2 == 0;
    const bool reorder = sweep < kSweeps - 2;
    for (int32_t k = 0; k < numLayers; ++k) {
      auto& row = rows[down ? k : numLayers - 1 - k];
      for (int32_t v : row) want[v] = reorder ? bary(v, down ? pred : succ, nullptr) : bary(v, pred, &succ);
      if (reorder) {
        std::stable_sort(row.begin(), row.end(), [&](int32_t a, int32_t b) { return want[a] < want[b]; });
        keepCallOrder(row);
      }
      packRow(row, width, want, x);
    }
    report(15 + 60 * (sweep + 1) / kSweeps);
    if (cancel) return false;
  }
  // y: each layer as tall as its tallest box
  double y = 0;
  for (const auto& row : rows) {
    double h = 0;
    for (int32_t v : row) h = std::max(h, height[v]);
    for (int32_t v : row) out.items[v].rect.moveCenter(QPointF(x[v], y + h / 2));
    y += h + kLayerGap;
  }
  // edges: a cubic curve from the bottom of the upper box to the top of the lower one
  out.points.clear();
  out.points.reserve(out.edges.size() * 6);
  for (VisEdge& e : out.edges) {
    const QRectF& a = out.items[e.from].rect;
    const QRectF& b = out.items[e.to].rect;
    const bool downward = a.center().y() < b.center().y();
    const QPointF p0(a.center().x(), downward ? a.bottom() : a.top());
    const QPointF p3(b.center().x(), downward ? b.top() : b.bottom());
    const double bend = std::min(std::abs(p3.y() - p0.y()) * 0.5, 3 * kLayerGap) * (downward ? 1 : -1);
    const QPointF c1(p0.x(), p0.y() + bend), c2(p3.x(), p3.y() - bend);
    const double len = std::abs(p3.x() - p0.x()) + std::abs(p3.y() - p0.y());
    const int segs = len < 2 * kLayerGap ? 3 : len < 2000 ? 6 : 10;
    e.pointBegin = static_cast<int32_t>(out.points.size());
    for (int s = 0; s <= segs; ++s) {
      const double t = static_cast<double>(s) / segs, u = 1 - t;
      out.points.push_back(u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p3);
    }
    e.pointEnd = static_cast<int32_t>(out.points.size());
  }
  report(90);
  return true;
}

}  // namespace gp
