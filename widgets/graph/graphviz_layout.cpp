// Graphviz `dot` layout for small visible graphs: expanded scopes become nested clusters (drawn
// as frames), items fixed-size boxes, edges come back as splines. cgraph/gvc keep global state,
// so every Graphviz call happens under one mutex (a forked child inherits it held, see
// forkForGraphviz).
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <string>

#include "graph/graph_layout.h"
#include "graph/graphviz_process.h"
#include "graph/scope_tree.h"

namespace gp {
namespace {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

// cgraph's C API takes char* for strings it only reads.
char* cs(const char* s) { return const_cast<char*>(s); }

std::string inches(double units) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", units / 72.0);
  return buf;
}

void appendCubic(std::vector<QPointF>& pts, QPointF p0, QPointF c1, QPointF c2, QPointF p3) {
  constexpr int kSegs = 6;
  for (int s = 1; s <= kSegs; ++s) {
    const double t = static_cast<double>(s) / kSegs, u = 1 - t;
    pts.push_back(u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p3);
  }
}

// Made once, under the mutex, in the process that forks (children inherit it).
GVC_t* graphvizContext() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

}  // namespace

pid_t forkForGraphviz(const std::function<void()>& child) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  if (!graphvizContext()) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    child();
    ::_exit(3);
  }
  return pid;
}

bool graphvizLayout(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                    GraphLayout& out) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  return graphvizLayoutLocked(g, tree, expanded, out);
}

bool graphvizLayoutLocked(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                          GraphLayout& out) {
  (void)g;
  GVC_t* gvc = graphvizContext();
  if (!gvc) return false;
  Agraph_t* root = agopen(cs("g"), Agdirected, nullptr);
  if (!root) return false;
  agattr(root, AGRAPH, cs("rankdir"), cs("TB"));
  agattr(root, AGRAPH, cs("nodesep"), cs("0.3"));
  agattr(root, AGRAPH, cs("ranksep"), cs("0.55"));
  agattr(root, AGRAPH, cs("label"), cs(""));
  // calls kept in call order (below): dot's second crossing minimisation over all clusters
  // ignores the order edges of a cluster spanning several ranks, so it is left out then
  if (!out.callOrders.empty()) agattr(root, AGRAPH, cs("remincross"), cs("false"));
  Agsym_t* clusterMargin = agattr(root, AGRAPH, cs("margin"), cs("0"));
  agattr(root, AGNODE, cs("shape"), cs("box"));
  agattr(root, AGNODE, cs("fixedsize"), cs("true"));
  agattr(root, AGNODE, cs("label"), cs(""));
  Agsym_t* symW = agattr(root, AGNODE, cs("width"), cs("1"));
  Agsym_t* symH = agattr(root, AGNODE, cs("height"), cs("0.5"));
  agattr(root, AGEDGE, cs("arrowhead"), cs("none"));
  Agsym_t* symWeight = agattr(root, AGEDGE, cs("weight"), cs("1"));
  Agsym_t* symMinlen = agattr(root, AGEDGE, cs("minlen"), cs("1"));

  // clusters for the open scopes (parents before children), then nodes inside them
  const int32_t ns = tree.numScopes();
  std::vector<Agraph_t*> sub(ns, nullptr);
  sub[0] = root;
  std::vector<ScopeId> clusterScopes;
  for (ScopeId s : tree.preorder()) {
    if (s == 0) continue;
    const ScopeId p = tree.parent(s);
    if (p == kNone || !sub[p] || s >= static_cast<int32_t>(expanded.size()) || !expanded[s]) continue;
    char name[32];
    std::snprintf(name, sizeof name, "cluster_%d", s);
    sub[s] = agsubg(sub[p], name, 1);
    agxset(sub[s], clusterMargin, cs("14"));
    clusterScopes.push_back(s);
  }
  std::vector<Agnode_t*> nodes(out.items.size());
  for (size_t i = 0; i < out.items.size(); ++i) {
    const VisItem& it = out.items[i];
    ScopeId home = it.kind == VisItem::Kind::Op ? tree.opScope(it.id) : tree.parent(it.id);
    while (home > 0 && !sub[home]) home = tree.parent(home);  // the innermost open scope
    Agraph_t* where = home > 0 ? sub[home] : root;
    char name[32];
    std::snprintf(name, sizeof name, "n%zu", i);
    nodes[i] = agnode(where, name, 1);
    agxset(nodes[i], symW, cs(inches(it.rect.width()).c_str()));
    agxset(nodes[i], symH, cs(inches(it.rect.height()).c_str()));
  }
  std::vector<Agedge_t*> edges(out.edges.size());
  for (size_t i = 0; i < out.edges.size(); ++i) {
    const VisEdge& e = out.edges[i];
    edges[i] = agedge(root, nodes[e.from], nodes[e.to], nullptr, 1);
    char weight[16];
    std::snprintf(weight, sizeof weight, "%d", std::min(e.count, 8));
    agxset(edges[i], symWeight, weight);
  }
  // Calls of one module in call order (callOrders): dot orders boxes with the same neighbours
  // (embedding lookups of every step, all feeding the encoder) as it likes, so each shown call
  // is tied to the next by an edge that is never drawn, of length 0: on one rank it puts the
  // earlier call left of the later one (a flat edge), across ranks it only pulls them together.
  for (const std::vector<int32_t>& seq : out.callOrders)
    for (size_t k = 1; k < seq.size(); ++k)
      agxset(agedge(root, nodes[seq[k - 1]], nodes[seq[k]], nullptr, 1), symMinlen, cs("0"));
  if (gvLayout(gvc, root, "dot") != 0) {
    agclose(root);
    return false;
  }
  const boxf bb = GD_bb(root);
  auto toScene = [&](pointf p) { return QPointF(p.x, bb.UR.y - p.y); };
  for (size_t i = 0; i < out.items.size(); ++i) out.items[i].rect.moveCenter(toScene(ND_coord(nodes[i])));
  out.frames.clear();
  for (ScopeId s : clusterScopes) {
    const boxf b = GD_bb(sub[s]);
    int depth = 0;
    for (ScopeId p = tree.parent(s); p > 0; p = tree.parent(p)) ++depth;
    out.frames.push_back({s, depth, QRectF(toScene(b.LL), toScene(b.UR)).normalized()});
  }
  out.points.clear();
  for (size_t i = 0; i < out.edges.size(); ++i) {
    VisEdge& e = out.edges[i];
    e.pointBegin = static_cast<int32_t>(out.points.size());
    const splines* spl = ED_spl(edges[i]);
    if (spl && spl->size > 0 && spl->list[0].size >= 4) {
      const bezier& bz = spl->list[0];
      out.points.push_back(toScene(bz.list[0]));
      for (int k = 1; k + 2 < bz.size; k += 3)
        appendCubic(out.points, toScene(bz.list[k - 1]), toScene(bz.list[k]), toScene(bz.list[k + 1]),
                    toScene(bz.list[k + 2]));
    } else {
      out.points.push_back(out.items[e.from].rect.center());
      out.points.push_back(out.items[e.to].rect.center());
    }
    e.pointEnd = static_cast<int32_t>(out.points.size());
  }
  gvFreeLayout(gvc, root);
  agclose(root);
  return true;
}

}  // namespace gp
