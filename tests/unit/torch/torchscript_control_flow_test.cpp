// TorchScript control flow: ops inside prim::Loop / prim::If blocks, FLOPs over iterations,
// in-place ops as producers (fixture: tests/data/torchscript/control_flow.pt, see
// make_fixtures.py ControlFlow: 3 iterations of relu(fc(h)) then *2 or -1, h += x, head).
#include <gtest/gtest.h>

#include "graph/graph.h"
#include "io/torchscript_import.h"
#include "test_paths.h"

using namespace gp;

namespace {
std::vector<OpId> opsOfType(const Graph& g, std::string_view type) {
  std::vector<OpId> r;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opType(op) == type) r.push_back(op);
  return r;
}
}  // namespace

TEST(TorchScriptControlFlow, LoopBodyCountsEveryIteration) {
  Graph g = importTorchScript(gptest::dataPath("torchscript/control_flow.pt"), {{2, 32}});
  EXPECT_EQ(g.numOps(), 9);
  auto linears = opsOfType(g, "aten::linear");
  ASSERT_EQ(linears.size(), 2u);
  // fc runs 3 times on a 2x32 input: 3 * (2 * 2*32*32 multiply-adds + 2*32 bias adds)
  const double fc = 3.0 * (2.0 * 2 * 32 * 32 + 2 * 32);
  const double head = 2.0 * 2 * 32 * 4 + 2 * 4;
  std::vector<double> f{g.flops(linears[0]), g.flops(linears[1])};
  std::sort(f.begin(), f.end());
  EXPECT_DOUBLE_EQ(f[0], head);
  EXPECT_DOUBLE_EQ(f[1], fc);
}

TEST(TorchScriptControlFlow, BothBranchesAreOpsAndInPlaceAddIsAProducer) {
  Graph g = importTorchScript(gptest::dataPath("torchscript/control_flow.pt"), {{2, 32}});
  ASSERT_EQ(opsOfType(g, "aten::mul").size(), 1u);
  ASSERT_EQ(opsOfType(g, "aten::sub").size(), 1u);
  auto add = opsOfType(g, "aten::add_");
  ASSERT_EQ(add.size(), 1u);
  // the head reads what add_ produced
  auto linears = opsOfType(g, "aten::linear");
  bool headAfterAdd = false;
  for (OpId l : linears)
    for (OpId p : g.fanIn(l)) headAfterAdd |= p == add[0];
  EXPECT_TRUE(headAfterAdd);
  // a valid DAG in topological order
  EXPECT_EQ(static_cast<int>(g.topoOrder().size()), g.numOps());
}
