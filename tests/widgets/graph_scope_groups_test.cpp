// Qt Test: the display grouping of the graph view's scope tree (scope_groups.h): calls of one
// module (`enc.1_6`) under one group, loose top-level ops folded into the groups they feed, long
// levels folded into runs — on small built graphs and on torch.onnx.export fixtures.
#include <QElapsedTimer>
#include <QTest>
#include <functional>
#include <string>

#include "graph/graph_builder.h"
#include "graph/scope_tree.h"
#include "io/model_loader.h"
#include "graph_test_models.h"
#include "synthetic_graph.h"

using namespace gp;
using gptest::childNamed;
using gptest::scopeNamed;

namespace {

int itemsShown(const ScopeTree& t, ScopeId s) {
  return static_cast<int>(t.children(s).size() + t.directOps(s).size());
}

// An unrolled two-layer RNN as torch.onnx.export names it: step t of module `enc.L` is scope
// `enc.L` (t = 0) or `enc.L_t`; every step reads an input slice made by loose top-level ops
// (`/Constant_k` -> `/Gather_k`), and the outputs are stacked by loose `/Unsqueeze_k` -> `/Concat`.
Graph unrolledRnn(int steps) {
  GraphBuilder b("rnn");
  const TensorId x = b.addGraphInput({"x", {steps, 8}});
  TensorId h0 = b.addGraphInput({"h0", {1, 8}}), h1 = h0;
  std::vector<TensorId> stacked;
  auto op = [&](const std::string& name, const char* type, std::vector<TensorId> in) {
    return b.output(b.addOp({.name = name, .type = type, .inputs = std::move(in), .outputs = {{"", {1, 8}}}, .flops = 1}));
  };
  for (int t = 0; t < steps; ++t) {
    const std::string k = std::to_string(t);
    const TensorId idx = op("/Constant_" + k, "Constant", {});
    const TensorId xt = op("/Gather_" + k, "Gather", {x, idx});
    const std::string s0 = t == 0 ? "/enc.0/" : "/enc.0_" + k + "/", s1 = t == 0 ? "/enc.1/" : "/enc.1_" + k + "/";
    h0 = op(s0 + "Tanh", "Tanh", {op(s0 + "Gemm", "Gemm", {xt, h0})});
    h1 = op(s1 + "Tanh", "Tanh", {op(s1 + "Gemm", "Gemm", {h0, h1})});
    stacked.push_back(op("/Unsqueeze_" + k, "Unsqueeze", {h1, op("/Constant_axes_" + k, "Constant", {})}));
  }
  op("/Concat", "Concat", stacked);
  return std::move(b).build("rnn");
}

}  // namespace

class GraphScopeGroupsTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void callSuffixes() {
    std::string_view base;
    int32_t call = -1;
    QVERIFY(splitCallSuffix("enc.1_6", base, call));
    QCOMPARE(std::string(base), std::string("enc.1"));
    QCOMPARE(call, 6);
    QVERIFY(splitCallSuffix("relu_1", base, call));
    QCOMPARE(std::string(base), std::string("relu"));
    QVERIFY(!splitCallSuffix("enc.1", base, call));
    QCOMPARE(std::string(base), std::string("enc.1"));
    QCOMPARE(call, 0);
    QVERIFY(!splitCallSuffix("encoder_layer_0", base, call));  // torch's first call has no suffix
    QVERIFY(!splitCallSuffix("Conv2d_1a_3x3", base, call));
    QVERIFY(!splitCallSuffix("_3", base, call));
    QVERIFY(!splitCallSuffix("x_", base, call));
  }

  void callsOfOneModuleBecomeOneGroup() {
    const Graph g = unrolledRnn(6);
    const ScopeTree t(g);
    const ScopeId enc1 = childNamed(g, t, 0, "enc.1");
    QVERIFY(enc1 != kNone);
    QVERIFY(t.isDisplayGroup(enc1));
    QCOMPARE(t.kind(enc1), ScopeGroups::Kind::Calls);
    QCOMPARE(t.callCount(enc1), 6);
    // the calls, in call order, are the Graph's own scopes
    const auto calls = t.children(enc1);
    QCOMPARE(static_cast<int>(calls.size()), 6);
    QCOMPARE(calls[0], scopeNamed(g, "enc.1"));
    for (int k = 1; k < 6; ++k) QCOMPARE(calls[k], scopeNamed(g, "enc.1_" + std::to_string(k)));
    QCOMPARE(t.fullName(g, scopeNamed(g, "enc.1_4")), std::string("enc.1/enc.1_4"));
    QCOMPARE(t.subtreeOpCount(enc1), 6 * 4 + 1);  // Gemm, Tanh + the stacking Unsqueeze, Constant; Concat
    // the Graph itself is untouched
    QCOMPARE(g.opScope(g.findOp("/Gather_3")), 0);
    QCOMPARE(g.scopeName(g.opScope(g.findOp("/enc.1_4/Gemm"))), std::string("enc.1_4"));
  }

  void looseTopLevelOpsJoinTheGroupsTheyFeed() {
    const Graph g = unrolledRnn(6);
    const ScopeTree t(g);
    // 6 x (Constant, Gather, Unsqueeze, Constant) + Concat loose ops: none stays at the top
    QCOMPARE(static_cast<int>(t.directOps(0).size()), 0);
    QCOMPARE(itemsShown(t, 0), 2);  // enc.0, enc.1
    // the input slice of step 3 sits in step 3 of enc.0, the stacking of step 3's output with enc.1_3
    QCOMPARE(t.opScope(g.findOp("/Gather_3")), scopeNamed(g, "enc.0_3"));
    QCOMPARE(t.opScope(g.findOp("/Constant_3")), scopeNamed(g, "enc.0_3"));
    QCOMPARE(t.opScope(g.findOp("/Unsqueeze_3")), scopeNamed(g, "enc.1_3"));
    QCOMPARE(t.opScope(g.findOp("/Constant_axes_3")), scopeNamed(g, "enc.1_3"));
    // every op still shows exactly once
    QCOMPARE(t.subtreeOpCount(0), g.numOps());
  }

  void fewCallsOrNoBaseStayAsTheyAre() {
    GraphBuilder b("m");
    TensorId x = b.addGraphInput({"x", {4}});
    for (const char* n : {"/relu/Relu", "/conv/Conv", "/relu_1/Relu", "/layer_1/a", "/layer_1/b", "/layer_2/a",
                          "/layer_2/b", "/layer_3/a", "/layer_3/b"})
      x = b.output(b.addOp({.name = n, .type = "Relu", .inputs = {x}, .outputs = {{"", {4}}}, .flops = 1}));
    const Graph g = std::move(b).build("m");
    const ScopeTree t(g);
    QCOMPARE(t.numScopes(), g.numScopes());  // two calls of relu; layer_N without a `layer` call
    QCOMPARE(itemsShown(t, 0), 6);
    const ScopeTree plain(g, {.enabled = false});
    QCOMPARE(plain.numScopes(), g.numScopes());
  }

  void longLevelsFoldIntoRuns() {
    // 300 unscoped ops in a chain: runs of consecutive ops, none showing more than 40 boxes
    GraphBuilder b("flat");
    TensorId x = b.addGraphInput({"x", {4}});
    for (int i = 0; i < 300; ++i)
      x = b.output(b.addOp({.name = "op" + std::to_string(i), .type = "Relu", .inputs = {x}, .outputs = {{"", {4}}}, .flops = 1}));
    const Graph g = std::move(b).build("flat");
    const ScopeTree t(g);
    QVERIFY(itemsShown(t, 0) <= 40);
    QVERIFY(itemsShown(t, 0) >= 8);
    for (ScopeId s : t.preorder()) QVERIFY(itemsShown(t, s) <= 40);
    // runs are consecutive and named after their ends
    const ScopeId first = t.children(0)[0];
    QCOMPARE(t.kind(first), ScopeGroups::Kind::Run);
    const auto ops = t.subtreeOps(first);
    QCOMPARE(ops[0], g.findOp("op0"));
    QCOMPARE(std::string(t.shortName(g, first)),
             std::string("op0 … ") + g.opName(ops[ops.size() - 1]));
    for (size_t i = 1; i < ops.size(); ++i) QCOMPARE(ops[i], ops[i - 1] + 1);
  }

  void seq2seqFixtureOpensAsAHandfulOfGroups() {
    const Graph g = loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx");
    QCOMPARE(g.numOps(), 10959);
    QElapsedTimer timer;
    timer.start();
    const ScopeTree t(g);
    qInfo("seq2seq: %d Graph scopes -> %d nodes, grouped in %lld ms; top level shows %d boxes", g.numScopes(),
          t.numScopes(), static_cast<long long>(timer.elapsed()), itemsShown(t, 0));
    QVERIFY(itemsShown(t, 0) <= 12);
    QCOMPARE(static_cast<int>(t.directOps(0).size()), 0);
    for (const char* module : {"enc.0", "enc.1", "dec.0", "dec.1"}) {
      const ScopeId m = childNamed(g, t, 0, module);
      QVERIFY2(m != kNone, module);
      QCOMPARE(t.callCount(m), 150);
      // module enc.1 called at step 6 lies under group enc.1
      const ScopeId step6 = scopeNamed(g, std::string(module) + "_6");
      QVERIFY(t.isWithin(step6, m));
      for (OpId op = 0; op < g.numOps(); ++op)
        if (g.opScope(op) == step6) QVERIFY(t.isWithin(t.opScope(op), step6));
    }
    for (ScopeId s : t.preorder()) QVERIFY(itemsShown(t, s) <= 40);
    QCOMPARE(t.subtreeOpCount(0), g.numOps());
  }

  void seq2seqWithOneEmbeddingGroupsItsModules() {
    // the embedding looked up at all 2 x 30 steps, the encoder, decoder and projection cells
    const Graph g = gptest::unrolledSeq2seq(30);
    const ScopeTree t(g);
    // the top level: the four modules, each one group of calls, in data flow order
    QCOMPARE(static_cast<int>(t.directOps(0).size()), 0);
    QCOMPARE(static_cast<int>(t.children(0).size()), 4);
    const char* modules[] = {"embed", "enc", "dec", "proj"};
    const int calls[] = {60, 30, 30, 30};
    for (int i = 0; i < 4; ++i) {
      const ScopeId m = t.children(0)[i];
      QCOMPARE(std::string(t.shortName(g, m)), std::string(modules[i]));
      QCOMPARE(t.kind(m), ScopeGroups::Kind::Calls);
      QCOMPARE(t.callCount(m), calls[i]);
    }
    // the embedding's 60 calls, folded into runs, in call order; the token slices (loose ops)
    // joined the lookups they feed
    const ScopeId embed = t.children(0)[0];
    QVERIFY(static_cast<int>(t.children(embed).size()) > 1);
    QCOMPARE(std::string(t.shortName(g, t.children(embed)[0])), std::string("embed (calls 0–6)"));
    int next = 0;
    for (ScopeId run : t.children(embed)) {
      QCOMPARE(t.kind(run), ScopeGroups::Kind::Run);
      for (ScopeId call : t.children(run)) {
        const std::string name = next == 0 ? "embed" : "embed_" + std::to_string(next);
        QCOMPARE(call, scopeNamed(g, name));
        ++next;
      }
    }
    QCOMPARE(next, 60);
    QCOMPARE(t.opScope(g.findOp("/Gather_17")), scopeNamed(g, "embed_17"));
    QCOMPARE(t.opScope(g.findOp("/Constant_17")), scopeNamed(g, "embed_17"));  // the first reader's
    QCOMPARE(t.opScope(g.findOp("/Gather_47")), scopeNamed(g, "embed_47"));    // decoder step 17
    QCOMPARE(t.opScope(g.findOp("/enc/Constant")), scopeNamed(g, "enc"));     // a Graph scope's op stays
    QCOMPARE(t.subtreeOpCount(0), g.numOps());
  }

  void exportedModelsKeepTheirShape() {
    for (const char* file : {"/onnx/resnet18.onnx", "/onnx/transformer_encoder.onnx"}) {
      const Graph g = loadModel(std::string(GP_TEST_DATA_DIR) + file);
      const ScopeTree t(g);
      QVERIFY2(itemsShown(t, 0) <= 12, file);
      QCOMPARE(t.subtreeOpCount(0), g.numOps());
    }
    // resnet18: its 16 loose weight Identity ops join the layers that read them
    const Graph r = loadModel(GP_TEST_DATA_DIR "/onnx/resnet18.onnx");
    const ScopeTree t(r);
    QCOMPARE(static_cast<int>(t.directOps(0).size()), 0);
    QVERIFY(childNamed(r, t, 0, "layer1") != kNone);
  }

  void zooModelsAreUnchangedAtTheTop() {
    // the built-in models are scoped already: their top level stays as it was
    const Graph g = loadModel("zoo:gnmt");
    const ScopeTree grouped(g), plain(g, {.enabled = false});
    QCOMPARE(itemsShown(grouped, 0), itemsShown(plain, 0));
    const Graph s = gptest::syntheticChainGraph(5000);
    const ScopeTree st(s);
    QCOMPARE(st.subtreeOpCount(0), s.numOps());
    for (ScopeId n : st.preorder()) QVERIFY(itemsShown(st, n) <= 40);
  }
};

QTEST_MAIN(GraphScopeGroupsTest)
#include "graph_scope_groups_test.moc"
