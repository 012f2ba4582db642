// Qt Test: how a graph first opens in the graph view and how long it waits for Graphviz: a long
// chain opens legible at its inputs (minimap for the rest), a compact graph fitted; dot runs in a
// child process with a time budget (0: the layered layout only), a slow dot leaves the layered
// layout shown, cancelling stops it at once; the unrolled seq2seq fixture opens in seconds.
#include <QElapsedTimer>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>
#include <utility>

#include "graph/graph_builder.h"
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "graph/scope_tree.h"
#include "graph_test_models.h"
#include "io/model_loader.h"

using namespace gp;
using gptest::childNamed;
using gptest::scopeNamed;

namespace {

// `layers` scopes in a chain, each MatMul -> Add -> Relu.
std::shared_ptr<const Graph> chainGraph(int layers) {
  GraphBuilder b("chain");
  TensorId x = b.addGraphInput({"x", {4}});
  for (int i = 0; i < layers; ++i)
    for (const char* type : {"MatMul", "Add", "Relu"})
      x = b.output(b.addOp({.name = "layer" + std::to_string(i) + "/" + type, .type = type, .inputs = {x},
                            .outputs = {{"", {4}}}, .flops = 1e6}));
  return std::make_shared<const Graph>(std::move(b).build("chain"));
}

bool waitForLayout(GraphView& v, int ms = 30000) {
  QElapsedTimer t;
  t.start();
  while ((v.isLayoutRunning() || v.visibleNodeCount() == 0) && t.elapsed() < ms) QTest::qWait(5);
  return !v.isLayoutRunning() && v.visibleNodeCount() > 0;
}

void screenshot(QWidget& w, const char* name) {
  if (const QByteArray dir = qgetenv("GP_SCREENSHOT_DIR"); !dir.isEmpty())
    QVERIFY(w.grab().save(QString::fromUtf8(dir) + "/" + name));
}

// Sibling boxes drawn on one row, left to right in the order `scopes` lists them: how many
// pairs share a row, and how many of those are out of order.
std::pair<int, int> pairsOnARow(const GraphView& v, std::span<const ScopeId> scopes) {
  int onARow = 0, swapped = 0;
  for (size_t i = 0; i < scopes.size(); ++i)
    for (size_t j = i + 1; j < scopes.size(); ++j) {
      const QRectF a = v.scopeRect(scopes[i]), b = v.scopeRect(scopes[j]);
      if (a.isEmpty() || b.isEmpty() || std::abs(a.center().y() - b.center().y()) > 1) continue;
      ++onARow;
      swapped += a.center().x() > b.center().x();
    }
  return {onARow, swapped};
}

// Every display group open, the Graph's scopes closed: each step of the seq2seq fixture one box
// (about 900), few enough for dot, too many for it to finish quickly.
std::vector<uint8_t> allCallsOpen(const ScopeTree& tree) {
  std::vector<uint8_t> expanded(tree.numScopes(), 0);
  for (ScopeId s = tree.numGraphScopes(); s < tree.numScopes(); ++s) expanded[s] = 1;
  return expanded;
}

}  // namespace

class GraphFirstViewTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void longChainOpensLegibleAtItsInputs() {
    auto g = chainGraph(30);
    GraphView view;
    view.resize(1000, 700);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.visibleNodeCount(), 30);
    QVERIFY2(view.zoom() >= GraphView::kLegibleZoom, qPrintable(QString::number(view.zoom())));
    // the first layer (the inputs) is on screen near the top; the last is not
    const QRectF first = view.scopeRect(scopeNamed(*g, "layer0"));
    QVERIFY(view.rect().contains(first.toRect()));
    QVERIFY(first.top() < view.height() / 4);
    QVERIFY(!view.rect().intersects(view.scopeRect(scopeNamed(*g, "layer29")).toRect()));
    QVERIFY(view.overviewReady() || QTest::qWaitFor([&] { return view.overviewReady(); }, 10000));
    screenshot(view, "graph_first_view_chain.png");
    // F still fits the whole chain
    view.zoomToFit();
    QVERIFY(view.zoom() < GraphView::kLegibleZoom);
    QVERIFY(view.zoom() > 0);
  }

  void compactGraphOpensFitted() {
    auto g = chainGraph(4);  // 4 groups: fits the window at a legible zoom
    GraphView view;
    view.resize(1000, 700);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    for (int i = 0; i < 4; ++i)
      QVERIFY(view.rect().contains(view.scopeRect(scopeNamed(*g, "layer" + std::to_string(i))).toRect()));
    QVERIFY(view.zoom() <= 1.0);
    // a wide window and a long chain that still fits legibly: fitted as well
    auto g8 = chainGraph(8);
    GraphView tall;
    tall.resize(600, 1200);
    tall.show();
    tall.setGraph(g8);
    QVERIFY(waitForLayout(tall));
    for (int i = 0; i < 8; ++i)
      QVERIFY(tall.rect().contains(tall.scopeRect(scopeNamed(*g8, "layer" + std::to_string(i))).toRect()));
  }

  void graphvizBudgetZeroShowsTheLayeredLayout() {
    auto g = chainGraph(4);
    GraphView view;
    view.resize(800, 600);
    view.show();
    LayoutOptions options;
    options.graphvizBudgetSeconds = 0;
    view.setLayoutOptions(options);
    QElapsedTimer t;
    t.start();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    QVERIFY(!view.isGraphvizLayout());
    QVERIFY(t.elapsed() < 2000);
    // with a budget, a small graph gets dot's layout
    GraphView dotView;
    dotView.resize(800, 600);
    dotView.show();
    dotView.setGraph(g);
    QVERIFY(waitForLayout(dotView));
    QVERIFY(dotView.isGraphvizLayout());
  }

  void slowGraphvizLeavesTheLayeredLayout() {
    const Graph g = loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx");
    const ScopeTree tree(g);
    std::vector<uint8_t> expanded = allCallsOpen(tree);
    std::atomic<bool> cancel{false};
    LayoutOptions options;
    options.graphvizBudgetSeconds = 0.2;
    options.graphvizHeadStartSeconds = 0.05;
    std::shared_ptr<const GraphLayout> shown;
    QElapsedTimer t;
    t.start();
    auto l = computeGraphLayout(g, tree, expanded, cancel, {}, options,
                                [&](std::shared_ptr<const GraphLayout> p) { shown = std::move(p); });
    const qint64 ms = t.elapsed();
    qInfo("seq2seq, %d items: layered layout in %.3f s, result after %lld ms (dot budget 0.2 s)",
          static_cast<int>(l->items.size()), l->seconds, static_cast<long long>(ms));
    QVERIFY(l);
    QVERIFY(l->items.size() > 500);
    QVERIFY(shown);             // shown while dot ran
    QCOMPARE(l.get(), shown.get());  // and kept: dot did not finish in 0.2 s
    QVERIFY(!l->graphviz);
    QVERIFY(ms < 3000);
  }

  void cancelStopsGraphvizAtOnce() {
    const Graph g = loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx");
    const ScopeTree tree(g);
    std::vector<uint8_t> expanded = allCallsOpen(tree);
    std::atomic<bool> cancel{false};
    LayoutOptions options;
    options.graphvizBudgetSeconds = 60;
    std::atomic<bool> provisional{false};
    auto job = QtConcurrent::run([&] {
      return computeGraphLayout(g, tree, expanded, cancel, {}, options,
                                [&](std::shared_ptr<const GraphLayout>) { provisional = true; });
    });
    QVERIFY(QTest::qWaitFor([&] { return provisional.load(); }, 20000));
    QElapsedTimer t;
    t.start();
    cancel = true;
    job.waitForFinished();
    QVERIFY(!job.result());
    QVERIFY(t.elapsed() < 1000);
  }

  void seq2seqWithOneEmbeddingOpensAsItsModules() {
    // the embedding called at every step (the first of a handful of groups, 180 ops) stays
    // closed: the four modules show top to bottom in data flow order
    auto g = std::make_shared<const Graph>(gptest::unrolledSeq2seq(30));
    const ScopeTree tree(*g);
    std::vector<ScopeId> modules;
    for (const char* name : {"embed", "enc", "dec", "proj"}) modules.push_back(childNamed(*g, tree, 0, name));
    QVERIFY(std::find(modules.begin(), modules.end(), kNone) == modules.end());
    QVERIFY(tree.subtreeOpCount(modules[0]) >= 100);
    GraphView view;
    view.resize(1400, 900);
    view.show();
    view.setGraph(g);
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.visibleNodeCount(), 4);
    for (ScopeId s = 1; s < tree.numScopes(); ++s) QVERIFY(!view.isExpanded(s));
    for (size_t i = 0; i < modules.size(); ++i) {
      const QRectF r = view.scopeRect(modules[i]);
      QVERIFY(view.rect().contains(r.toRect()));
      if (i > 0) QVERIFY(r.top() > view.scopeRect(modules[i - 1]).bottom());
    }
    screenshot(view, "graph_first_view_seq2seq_embed.png");
    // opened, its runs of calls lie in call order along each row, in dot's layout and in ours
    for (const double budget : {3.0, 0.0}) {
      GraphView open;
      open.resize(1400, 900);
      open.show();
      LayoutOptions options;
      options.graphvizBudgetSeconds = budget;
      open.setLayoutOptions(options);
      open.setGraph(g);
      QVERIFY(waitForLayout(open));
      open.expandScope(modules[0]);
      QVERIFY(waitForLayout(open));
      QCOMPARE(open.isGraphvizLayout(), budget > 0);
      const auto runs = tree.children(modules[0]);
      QVERIFY(runs.size() >= 4);
      for (ScopeId r : runs) QVERIFY(!open.scopeRect(r).isEmpty());
      const auto [onARow, swapped] = pairsOnARow(open, runs);
      qInfo("budget %.0f s: %d pairs of runs on a row, %d out of call order", budget, onARow, swapped);
      QVERIFY(onARow >= 3);
      QCOMPARE(swapped, 0);
      if (budget > 0) screenshot(open, "graph_first_view_seq2seq_embed_open.png");
    }
  }

  void seq2seqOpensInSeconds() {
    auto g = std::make_shared<const Graph>(loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx"));
    GraphView view;
    view.resize(1400, 900);
    view.show();
    QElapsedTimer t;
    t.start();
    view.setGraph(g);
    QVERIFY(QTest::qWaitFor([&] { return view.visibleNodeCount() > 0; }, 10000));
    qInfo("seq2seq: first layout shown after %lld ms, %d boxes", static_cast<long long>(t.elapsed()),
          view.visibleNodeCount());
    QVERIFY(t.elapsed() < 5000);
    QVERIFY(view.visibleNodeCount() <= 12);
    QVERIFY(waitForLayout(view));
    screenshot(view, "graph_first_view_seq2seq.png");
    // nothing opened: the groups of calls are the first screen
    const ScopeTree tree(*g);
    for (ScopeId s = 1; s < tree.numScopes(); ++s) QVERIFY(!view.isExpanded(s));
    // opening a group of calls shows its runs of steps, and another model cancels what runs
    ScopeId enc0 = kNone;
    for (ScopeId c : tree.children(0))
      if (tree.shortName(*g, c) == "enc.0") enc0 = c;
    QVERIFY(enc0 != kNone);
    view.expandScope(enc0);
    view.setGraph(chainGraph(3));
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.visibleNodeCount(), 3);
  }
};

QTEST_MAIN(GraphFirstViewTest)
#include "graph_first_view_test.moc"
