// Qt Test: the graph view's data model and layouts (no painting): scope tree, visible items
// and aggregated edges for an expanded set, Graphviz and the layered layout without overlaps.
#include <QTest>
#include <atomic>

#include "graph/graph_builder.h"
#include "graph/graph_layout.h"
#include "graph/scope_tree.h"
#include "graph_test_models.h"
#include "io/model_loader.h"

using namespace gp;
using gptest::scopeNamed;

namespace {

// in -> enc/l0/{a,b} -> enc/l1/{a,b} -> dec/{x,y} -> out
Graph smallGraph() {
  GraphBuilder b("t");
  TensorId t = b.addGraphInput({"x", {4}});
  const char* names[] = {"enc/l0/a", "enc/l0/b", "enc/l1/a", "enc/l1/b", "dec/x", "dec/y", "out"};
  for (const char* n : names) {
    OpId op = b.addOp({.name = n, .type = "MatMul", .inputs = {t}, .outputs = {{"", {4}}}, .flops = 1});
    t = b.output(op);
  }
  return std::move(b).build("t");
}

bool overlaps(const GraphLayout& l) {
  for (size_t i = 0; i < l.items.size(); ++i)
    for (size_t j = i + 1; j < l.items.size(); ++j)
      if (l.items[i].rect.adjusted(1, 1, -1, -1).intersects(l.items[j].rect)) return true;
  return false;
}

}  // namespace

class GraphLayoutTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void scopeTreeRanges() {
    Graph g = smallGraph();
    ScopeTree tree(g);
    const ScopeId enc = scopeNamed(g, "enc");
    QVERIFY(enc != kNone);
    QCOMPARE(tree.subtreeOpCount(enc), 4);
    QCOMPARE(tree.subtreeOpCount(0), 7);
    QCOMPARE(static_cast<int>(tree.children(enc).size()), 2);
    QCOMPARE(static_cast<int>(tree.directOps(0).size()), 1);  // "out"
    QCOMPARE(QString::fromStdString(std::string(tree.shortName(g, scopeNamed(g, "enc/l1")))), QString("l1"));
  }

  void visibleItemsAndEdges() {
    Graph g = smallGraph();
    ScopeTree tree(g);
    std::vector<uint8_t> expanded(tree.numScopes(), 0);
    std::atomic<bool> cancel{false};
    auto l = computeGraphLayout(g, tree, expanded, cancel);
    QVERIFY(l);
    QCOMPARE(static_cast<int>(l->items.size()), 3);  // enc, dec, out
    QCOMPARE(static_cast<int>(l->edges.size()), 2);  // enc->dec, dec->out; no self loops
    QVERIFY(l->graphviz);
    expanded[scopeNamed(g, "enc")] = 1;
    l = computeGraphLayout(g, tree, expanded, cancel);
    QCOMPARE(static_cast<int>(l->items.size()), 4);  // l0, l1, dec, out
    QCOMPARE(static_cast<int>(l->frames.size()), 1);
    QVERIFY(l->frames[0].rect.contains(l->items[l->itemOfScope[scopeNamed(g, "enc/l0")]].rect));
    QVERIFY(!overlaps(*l));
    // data flows downward
    QVERIFY(l->items[l->itemOfOp[g.findOp("out")]].rect.top() >
            l->items[l->itemOfOp[g.findOp("enc/l0/a")]].rect.bottom());
    // hit test
    const QPointF c = l->items[2].rect.center();
    QCOMPARE(l->findItem(c), 2);
    QCOMPARE(l->findItem(l->bounds.topLeft() - QPointF(50, 50)), -1);
  }

  void layeredLayoutNoOverlap() {
    Graph g = loadModel("zoo:resnet50");
    ScopeTree tree(g);
    std::vector<uint8_t> expanded(tree.numScopes(), 1);
    std::atomic<bool> cancel{false};
    LayoutOptions opt;
    opt.allowGraphviz = false;
    auto l = computeGraphLayout(g, tree, expanded, cancel, {}, opt);
    QVERIFY(l);
    QCOMPARE(static_cast<int>(l->items.size()), g.numOps());
    QVERIFY(!l->graphviz);
    QVERIFY(!overlaps(*l));
    // every edge goes from its source box to its target box
    for (const VisEdge& e : l->edges) {
      QVERIFY(e.pointEnd - e.pointBegin >= 2);
      QVERIFY(std::abs(l->points[e.pointBegin].x() - l->items[e.from].rect.center().x()) < 1e-6);
    }
    qInfo("resnet50 training, %d ops, %d edges, layered layout %.3f s", g.numOps(),
          static_cast<int>(l->edges.size()), l->seconds);
  }

  void graphvizOnExpandedResnet() {
    Graph g = loadModel("zoo:resnet50", {.mode = GraphMode::Inference});
    ScopeTree tree(g);
    std::vector<uint8_t> expanded(tree.numScopes(), 1);
    std::atomic<bool> cancel{false};
    auto l = computeGraphLayout(g, tree, expanded, cancel);
    QVERIFY(l);
    qInfo("resnet50 inference, %d items, graphviz=%d, %.3f s", static_cast<int>(l->items.size()), l->graphviz,
          l->seconds);
    QVERIFY(!overlaps(*l));
  }

  void gnmtFullyExpandedIsFast() {
    Graph g = loadModel("zoo:gnmt");
    QCOMPARE(g.numOps(), 63799);
    ScopeTree tree(g);
    std::vector<uint8_t> expanded(tree.numScopes(), 1);
    std::atomic<bool> cancel{false};
    int lastProgress = 0;
    auto l = computeGraphLayout(g, tree, expanded, cancel, [&](int p) { lastProgress = p; });
    QVERIFY(l);
    QCOMPARE(lastProgress, 100);
    QCOMPARE(static_cast<int>(l->items.size()), 63799);
    qInfo("gnmt training, %d scopes, %d edges, layout %.3f s, bounds %.0f x %.0f", tree.numScopes(),
          static_cast<int>(l->edges.size()), l->seconds, l->bounds.width(), l->bounds.height());
    QVERIFY(l->seconds < 10);
    // cancelled: no result
    cancel = true;
    QVERIFY(!computeGraphLayout(g, tree, expanded, cancel));
  }
};

QTEST_MAIN(GraphLayoutTest)
#include "graph_layout_test.moc"
