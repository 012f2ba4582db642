#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "graph/graph_builder.h"
#include "graph/graph_stats.h"
#include "synthetic_graph.h"

using namespace gp;

namespace {
// x -> /enc/a (MatMul with w) -> /enc/b (Relu) -> /dec/c (Add a,b)
Graph diamond() {
  GraphBuilder b("diamond");
  TensorId x = b.addGraphInput({"x", {8, 16}});
  TensorId w = b.addParameter({"w", {16, 32}});
  OpId a = b.addOp({.name = "/enc/a/MatMul", .type = "MatMul", .inputs = {x, w}, .outputs = {{"ya", {8, 32}}},
                    .flops = 2.0 * 8 * 16 * 32});
  OpId r = b.addOp({.name = "/enc/b/Relu", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"yb", {8, 32}}},
                    .flops = 256});
  b.addOp({.name = "/dec/c/Add", .type = "Add", .inputs = {b.output(a), b.output(r)}, .outputs = {{"yc", {8, 32}}},
           .flops = 256});
  return std::move(b).build("diamond");
}
}  // namespace

TEST(Graph, CsrFanInFanOutAndTopoOrder) {
  Graph g = diamond();
  ASSERT_EQ(g.numOps(), 3);
  EXPECT_EQ(g.numEdges(), 3);  // a->b, a->c, b->c
  EXPECT_EQ(std::vector<OpId>(g.fanIn(2).begin(), g.fanIn(2).end()), (std::vector<OpId>{0, 1}));
  EXPECT_EQ(std::vector<OpId>(g.fanOut(0).begin(), g.fanOut(0).end()), (std::vector<OpId>{1, 2}));
  EXPECT_TRUE(g.fanIn(0).empty());
  EXPECT_EQ(std::vector<OpId>(g.topoOrder().begin(), g.topoOrder().end()), (std::vector<OpId>{0, 1, 2}));
  TensorId ya = g.findTensor("ya");
  ASSERT_NE(ya, kNone);
  EXPECT_EQ(g.consumers(ya).size(), 2u);
  EXPECT_EQ(g.producer(ya), 0);
}

TEST(Graph, BytesParamsAndShapes) {
  Graph g = diamond();
  EXPECT_EQ(g.paramBytes(0), 16 * 32 * 4);
  EXPECT_EQ(g.paramBytes(1), 0);
  EXPECT_EQ(g.totalParamBytes(), 16 * 32 * 4);
  EXPECT_EQ(g.bytesRead(0), (8 * 16 + 16 * 32) * 4);
  EXPECT_EQ(g.bytesWritten(0), 8 * 32 * 4);
  TensorId w = g.findTensor("w");
  EXPECT_EQ(g.tensorKind(w), TensorKind::Parameter);
  EXPECT_EQ(std::vector<int64_t>(g.shape(w).begin(), g.shape(w).end()), (std::vector<int64_t>{16, 32}));
  EXPECT_DOUBLE_EQ(g.totalFlops(), 2.0 * 8 * 16 * 32 + 512);
}

TEST(Graph, ScopesFromNames) {
  Graph g = diamond();
  EXPECT_EQ(g.scopeName(g.opScope(0)), "enc/a");
  EXPECT_EQ(g.scopeDepth(g.opScope(0)), 2);
  EXPECT_EQ(g.scopeName(g.scopeParent(g.opScope(0))), "enc");
  EXPECT_EQ(g.scopeName(g.opScope(2)), "dec/c");
  EXPECT_EQ(g.maxScopeDepth(), 2);
  EXPECT_EQ(g.numScopes(), 6);  // "", enc, enc/a, enc/b, dec, dec/c
  EXPECT_EQ(scopeOfName("NoScope"), "");
  EXPECT_EQ(scopeOfName("/a/b/Op"), "a/b");
}

TEST(Graph, ForwardReferencesResolve) {
  GraphBuilder b("fwd");
  TensorId later = b.tensorRef("t1");
  b.addOp({.name = "consumer", .type = "Relu", .inputs = {later}, .outputs = {{"t2", {4}}}});
  b.addOp({.name = "producer", .type = "Const", .outputs = {{"t1", {4}}}});
  Graph g = std::move(b).build();
  EXPECT_EQ(g.topoOrder()[0], g.findOp("producer"));
  EXPECT_EQ(g.fanIn(g.findOp("consumer"))[0], g.findOp("producer"));
}

TEST(Graph, CopyKeepsLookupsValid) {
  Graph copy;
  {
    Graph g = diamond();
    copy = g;
  }
  EXPECT_EQ(copy.findOp("/dec/c/Add"), 2);
  EXPECT_EQ(copy.findTensor("yb"), copy.outputs(1)[0]);
}

TEST(GraphValidation, CycleIsReportedWithOpNames) {
  GraphBuilder b("cyc.json");
  TensorId t2 = b.tensorRef("t2");
  b.addOp({.name = "A", .type = "Add", .inputs = {t2}, .outputs = {{"t1", {1}}}});
  b.addOp({.name = "B", .type = "Add", .inputs = {b.tensorRef("t1")}, .outputs = {{"t2", {1}}}});
  try {
    (void)std::move(b).build();
    FAIL() << "expected a cycle error";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("cyc.json: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
    EXPECT_NE(msg.find("A"), std::string::npos) << msg;
    EXPECT_NE(msg.find("B"), std::string::npos) << msg;
  }
}

TEST(GraphValidation, DanglingInputNamesOpAndTensor) {
  GraphBuilder b("d.json");
  b.addOp({.name = "A", .type = "Relu", .inputs = {b.tensorRef("ghost")}, .outputs = {{"t", {1}}}});
  try {
    (void)std::move(b).build();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'A' reads tensor 'ghost'"), std::string::npos) << e.what();
  }
}

TEST(GraphValidation, DuplicateNamesRejected) {
  GraphBuilder b("dup");
  b.addOp({.name = "A", .type = "Const", .outputs = {{"t", {1}}}});
  EXPECT_THROW(b.addOp({.name = "A", .type = "Const", .outputs = {{"u", {1}}}}), Error);
  EXPECT_THROW(b.addOp({.name = "B", .type = "Const", .outputs = {{"t", {1}}}}), Error);
  EXPECT_THROW(b.addGraphInput({"t", {1}}), Error);
  EXPECT_THROW(b.addOp({.name = "", .type = "Const"}), Error);
}

TEST(GraphValidation, NegativeDimensionAndFlopsRejected) {
  GraphBuilder b("neg");
  EXPECT_THROW(b.addGraphInput({"x", {-1, 3}}), Error);
  b.addOp({.name = "A", .type = "Const", .outputs = {{"t", {1}}}, .flops = -5});
  EXPECT_THROW((void)std::move(b).build(), Error);
}

TEST(GraphStats, HistogramSortedByCount) {
  Graph g = diamond();
  GraphStats s = computeStats(g);
  EXPECT_EQ(s.ops, 3);
  EXPECT_EQ(s.edges, 3);
  ASSERT_EQ(s.opTypes.size(), 3u);
  EXPECT_EQ(s.forwardOps, 3);
  EXPECT_EQ(s.scopeDepth, 2);
}

// A 100k-op, 200k-edge graph fits in well under 100 MB (speed is in the benchmarks).
TEST(GraphScale, HundredThousandOpsUnder100MB) {
  const int n = 100000;
  Graph g = gptest::syntheticChainGraph(n);
  EXPECT_EQ(g.numOps(), n);
  EXPECT_GE(g.numEdges(), 199990);
  EXPECT_LT(g.memoryBytes(), 100LL * 1024 * 1024 / 2) << "memory " << g.memoryBytes();
}
