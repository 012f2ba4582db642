// Suggested moves in every repeat of a structure (inRepeats) and fusion as a rule by op type,
// on small graphs whose answers are read off by hand, and applyMove's fusion of several groups.
#include "sim/suggestions.h"

#include <gtest/gtest.h>

#include "graph/graph_builder.h"

using namespace gp;

namespace {

struct Net {
  GraphBuilder b{"net"};
  OpId op(const std::string& name, std::vector<OpId> inputs, const std::string& type = "MatMul") {
    OpDesc d{.name = name, .type = type, .flops = 1e9};
    for (OpId i : inputs) d.inputs.push_back(b.output(i));
    d.outputs = {{"", {1024}}};
    return b.addOp(std::move(d));
  }
  Graph build() { return std::move(b).build("net"); }
};

std::vector<OpId> ids(const Graph& g, std::initializer_list<const char*> names) {
  std::vector<OpId> out;
  for (const char* n : names) out.push_back(g.findOp(n));
  return out;
}

// net/layer_N/{mm, act} for N = 0..3, chained; layer_3 has no act; a head outside the layers.
Graph layers() {
  Net n;
  OpId prev = n.op("net/in", {}, "Input");
  for (int l = 0; l < 4; ++l) {
    const std::string s = "net/layer_" + std::to_string(l) + "/";
    prev = n.op(s + "mm", {prev});
    if (l < 3) prev = n.op(s + "act", {prev}, "Relu");
  }
  n.op("net/head", {prev});
  return n.build();
}

}  // namespace

TEST(Suggestions, AFusionInOneLayerIsOfferedInEveryLayerThatHasItsOpsOnOneDevice) {
  const Graph g = layers();
  Plan plan = Plan::singleDevice(g.numOps());
  plan.device[g.findOp("net/layer_2/act")] = 1;  // layer_2's pair spans two devices
  const PlanMove fuse{PlanMove::Kind::Fuse, ids(g, {"net/layer_1/mm", "net/layer_1/act"}), 0, "fuse mm with act"};
  const std::vector<PlanMove> r = inRepeats(g, plan, fuse);
  ASSERT_FALSE(r.empty());
  const PlanMove& every = r.front();  // the scope net/layer_1: siblings layer_0 (both ops), layer_3 (no act)
  EXPECT_EQ(every.kind, PlanMove::Kind::Fuse);
  ASSERT_EQ(every.groups.size(), 2u);
  EXPECT_EQ(every.groups[0], ids(g, {"net/layer_1/mm", "net/layer_1/act"}));
  EXPECT_EQ(every.groups[1], ids(g, {"net/layer_0/mm", "net/layer_0/act"}));
  EXPECT_EQ(every.ops, ids(g, {"net/layer_0/mm", "net/layer_0/act", "net/layer_1/mm", "net/layer_1/act"}));
  EXPECT_EQ(every.what, "fuse mm with act, and likewise in 1 more of net/*");

  // applied: one kernel per layer, not one kernel of four ops
  const Plan fused = applyMove(plan, every);
  const auto grp = [&](const char* n) { return fused.fusionGroup[g.findOp(n)]; };
  EXPECT_GE(grp("net/layer_0/mm"), 0);
  EXPECT_EQ(grp("net/layer_0/mm"), grp("net/layer_0/act"));
  EXPECT_EQ(grp("net/layer_1/mm"), grp("net/layer_1/act"));
  EXPECT_NE(grp("net/layer_0/mm"), grp("net/layer_1/mm"));
  EXPECT_EQ(grp("net/layer_2/mm"), -1);
  EXPECT_EQ(grp("net/head"), -1);
}

TEST(Suggestions, AMoveInOneLayerIsOfferedInEveryLayerWithOpsOutsideItMovedOnce) {
  const Graph g = layers();
  const Plan plan = Plan::singleDevice(g.numOps());
  // layer_0's mm with the head (as a family may hold an op outside the scope)
  const PlanMove move{PlanMove::Kind::Op, ids(g, {"net/layer_0/mm", "net/head"}), 2, "mm"};
  const std::vector<PlanMove> r = inRepeats(g, plan, move);
  // the common scope of mm and head is net, the root's only child: no siblings, no repeats
  EXPECT_TRUE(r.empty());

  const PlanMove mm{PlanMove::Kind::Op, ids(g, {"net/layer_0/mm"}), 2, "mm"};
  const std::vector<PlanMove> all = inRepeats(g, plan, mm);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].ops, ids(g, {"net/layer_0/mm", "net/layer_1/mm", "net/layer_2/mm", "net/layer_3/mm"}));
  EXPECT_EQ(all[0].device, 2);
  EXPECT_TRUE(all[0].groups.empty());
  EXPECT_EQ(all[0].what, "mm, and likewise in 3 more of net/*");
  const Plan moved = applyMove(plan, all[0]);
  for (int l = 0; l < 4; ++l) EXPECT_EQ(moved.device[g.findOp("net/layer_" + std::to_string(l) + "/mm")], 2);
  EXPECT_EQ(moved.device[g.findOp("net/layer_0/act")], 0);
}

TEST(Suggestions, AFusionOfTwoTypesBecomesARuleOnlyWhereThePairStandsAlone) {
  Net n;
  const OpId in = n.op("in", {}, "Input");
  const OpId c1 = n.op("a/conv", {in}, "Conv2D");
  const OpId b1 = n.op("a/bn", {c1}, "BatchNorm");
  const OpId c2 = n.op("b/conv", {b1}, "Conv2D");
  const OpId b2 = n.op("b/bn", {c2}, "BatchNorm");
  const OpId c3 = n.op("c/conv", {b2}, "Conv2D");  // read by a BatchNorm and a Relu: not alone
  const OpId b3 = n.op("c/bn", {c3}, "BatchNorm");
  n.op("c/relu", {c3}, "Relu");
  const OpId c4 = n.op("d/conv", {b3}, "Conv2D");  // its BatchNorm is on another device
  const OpId b4 = n.op("d/bn", {c4}, "BatchNorm");
  const OpId c5 = n.op("e/conv", {b4}, "Conv2D");
  const OpId b5 = n.op("e/bn", {c5}, "BatchNorm");
  const OpId c6 = n.op("f/conv", {b5}, "Conv2D");  // its BatchNorm is fused already
  const OpId b6 = n.op("f/bn", {c6}, "BatchNorm");
  const OpId out = n.op("f/out", {b6}, "Relu");
  const Graph g = n.build();
  Plan plan = Plan::singleDevice(g.numOps());
  plan.device[b4] = 1;
  plan.fusionGroup.assign(static_cast<size_t>(g.numOps()), -1);
  plan.fusionGroup[b6] = plan.fusionGroup[out] = 0;
  const PlanMove fuse{PlanMove::Kind::Fuse, {c1, b1}, 0, "fuse a/conv with a/bn"};
  const std::vector<PlanMove> r = inRepeats(g, plan, fuse);
  ASSERT_FALSE(r.empty());
  const PlanMove& rule = r.back();
  EXPECT_EQ(rule.what, "fuse every Conv2D into the BatchNorm that alone reads it (3 pairs)");
  ASSERT_EQ(rule.groups.size(), 3u);
  EXPECT_EQ(rule.groups[0], (std::vector<OpId>{c1, b1}));
  EXPECT_EQ(rule.groups[1], (std::vector<OpId>{c2, b2}));
  EXPECT_EQ(rule.groups[2], (std::vector<OpId>{c5, b5}));
}
