// Fusion groups: roles, the default (elementwise-chain) fuser, the priority fuser, and the rules
// every group obeys (one device, one heavy op, size cap, connected, no cycle).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "fusion/fuser.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

// A chain of ops of the given types, each reading the previous one's [256, 1024] output.
Graph chain(const std::vector<std::string>& types) {
  GraphBuilder b("chain");
  TensorId prev = b.addGraphInput({"x", {256, 1024}});
  for (size_t i = 0; i < types.size(); ++i) {
    const bool heavy = types[i] == "MatMul";
    OpId op = b.addOp({.name = "op" + std::to_string(i), .type = types[i], .inputs = {prev},
                       .outputs = {{"", {256, 1024}}}, .flops = heavy ? 2.0 * 256 * 1024 * 1024 : 256.0 * 1024});
    prev = b.output(op);
  }
  return std::move(b).build("chain");
}

// a (MatMul) -> b (Relu) -> d (Add) <- c (MatMul) <- a: fusing {a, b, d} would make a cycle
// through c (the fused kernel would both feed c and wait for it).
Graph diamond() {
  GraphBuilder b("diamond");
  TensorId x = b.addGraphInput({"x", {64, 64}});
  auto add = [&](const char* name, const char* type, std::vector<TensorId> in, double flops) {
    return b.output(b.addOp({.name = name, .type = type, .inputs = std::move(in), .outputs = {{"", {64, 64}}},
                             .flops = flops}));
  };
  TensorId ta = add("a", "MatMul", {x}, 2.0 * 64 * 64 * 64);
  TensorId tb = add("b", "Relu", {ta}, 4096);
  TensorId tc = add("c", "MatMul", {ta}, 2.0 * 64 * 64 * 64);
  add("d", "Add", {tb, tc}, 4096);
  return std::move(b).build("diamond");
}

std::vector<int32_t> onDevice(const Graph& g, int32_t d = 0) { return std::vector<int32_t>(g.numOps(), d); }

Plan planWith(const Graph& g, std::vector<int32_t> device, std::vector<int32_t> fusion) {
  Plan p;
  p.device = std::move(device);
  p.fusionGroup = std::move(fusion);
  (void)g;
  return p;
}

}  // namespace

TEST(Fuser, Roles) {
  Graph g = chain({"MatMul", "Relu", "Reshape", "ConcatV2", "SomeCustomOp", "Conv2D", "FusedBatchNorm", "Sum"});
  EXPECT_EQ(fusionRole(g, 0), FusionRole::Anchor);
  EXPECT_EQ(fusionRole(g, 1), FusionRole::Fusible);
  EXPECT_EQ(fusionRole(g, 2), FusionRole::Fusible);
  EXPECT_EQ(fusionRole(g, 3), FusionRole::Never);
  EXPECT_EQ(fusionRole(g, 4), FusionRole::Never);
  EXPECT_EQ(fusionRole(g, 5), FusionRole::Anchor);
  EXPECT_EQ(fusionRole(g, 6), FusionRole::Anchor);  // a normalization reduces before it scales
}

// MatMul -> BiasAdd -> Relu | MatMul -> Relu: two kernels instead of five, and a shorter step
// (fewer launches, the elementwise ops' tensors never go to memory).
TEST(Fuser, DefaultFusesElementwiseChainsIntoTheirProducer) {
  Graph g = chain({"MatMul", "BiasAdd", "Relu", "MatMul", "Relu"});
  const std::vector<int32_t> groups = defaultFusion(g, onDevice(g));
  EXPECT_EQ(groups, (std::vector<int32_t>{0, 0, 0, 1, 1}));
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  Simulator sim(cost);
  const Measurement plain = sim.run(Plan::singleDevice(g.numOps()), false);
  const Measurement fused = sim.run(planWith(g, onDevice(g), groups), false);
  ASSERT_TRUE(fused.feasible) << fused.problem;
  EXPECT_LT(fused.stepTime, plain.stepTime);
  EXPECT_EQ(fusionProblem(g, planWith(g, onDevice(g), groups)), "");
}

TEST(Fuser, NeverAcrossDevices) {
  Graph g = chain({"MatMul", "Relu", "Relu"});
  const std::vector<int32_t> groups = defaultFusion(g, {0, 1, 1});
  EXPECT_EQ(groups, (std::vector<int32_t>{-1, 0, 0}));
  EXPECT_NE(fusionProblem(g, planWith(g, {0, 1, 1}, {0, 0, 0})).find("spans two devices"), std::string::npos);
}

TEST(Fuser, SizeCap) {
  std::vector<std::string> types{"MatMul"};
  types.resize(41, "Relu");
  Graph g = chain(types);
  FusionRules rules;
  rules.maxOps = 16;
  const std::vector<int32_t> groups = defaultFusion(g, onDevice(g), rules);
  std::map<int32_t, int> size;
  for (int32_t grp : groups) {
    ASSERT_GE(grp, 0);
    ++size[grp];
  }
  EXPECT_EQ(size.size(), 3u);  // 16 + 16 + 9
  for (const auto& [grp, k] : size) EXPECT_LE(k, 16);
  EXPECT_EQ(fusionProblem(g, planWith(g, onDevice(g), groups), rules), "");
  rules.maxOps = 8;
  EXPECT_NE(fusionProblem(g, planWith(g, onDevice(g), groups), rules).find("more than 8"), std::string::npos);
}

TEST(Fuser, NoCycleThroughAThirdKernel) {
  Graph g = diamond();  // ops a, b, c, d
  const std::vector<int32_t> groups = defaultFusion(g, onDevice(g));
  EXPECT_EQ(fusionProblem(g, planWith(g, onDevice(g), groups)), "");
  EXPECT_FALSE(groups[0] >= 0 && groups[0] == groups[3]) << "a and d fused around c";
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  const Measurement m = Simulator(cost).run(planWith(g, onDevice(g), groups), false);
  EXPECT_TRUE(m.feasible) << m.problem;
  // the cyclic grouping by hand is refused, and the simulator agrees it cannot run
  const Plan cyclic = planWith(g, onDevice(g), {0, 0, -1, 0});
  EXPECT_NE(fusionProblem(g, cyclic).find("interleave"), std::string::npos) << fusionProblem(g, cyclic);
  EXPECT_FALSE(Simulator(cost).run(cyclic, false).feasible);
}

TEST(Fuser, ProblemsOfHandMadeGroups) {
  Graph g = chain({"MatMul", "Relu", "MatMul", "ConcatV2", "Relu"});
  EXPECT_NE(fusionProblem(g, planWith(g, onDevice(g), {0, 0, 0, -1, -1})).find("two heavy ops"), std::string::npos);
  EXPECT_NE(fusionProblem(g, planWith(g, onDevice(g), {-1, -1, -1, 0, 0})).find("never fuses"), std::string::npos);
  EXPECT_NE(fusionProblem(g, planWith(g, onDevice(g), {0, -1, -1, -1, 0})).find("not connected"), std::string::npos);
  EXPECT_NE(fusionProblem(g, planWith(g, onDevice(g), {0, 0})).find("do not cover"), std::string::npos);
  EXPECT_EQ(fusionProblem(g, planWith(g, onDevice(g), {})), "");
  EXPECT_EQ(fusionProblem(g, planWith(g, onDevice(g), {0, 0, 1, -1, -1})), "");
}

// The priority decides which neighbour a fusible op joins; priority <= 0 never fuses.
TEST(Fuser, PriorityChoosesWhatFuses) {
  Graph g = chain({"MatMul", "Relu", "MatMul"});  // the Relu can join either MatMul, not both
  EXPECT_EQ(fuseByPriority(g, onDevice(g), {0, 0, 0}), (std::vector<int32_t>{-1, -1, -1}));
  EXPECT_EQ(fuseByPriority(g, onDevice(g), {5, 3, 1}), (std::vector<int32_t>{0, 0, -1}));
  EXPECT_EQ(fuseByPriority(g, onDevice(g), {1, 3, 5}), (std::vector<int32_t>{-1, 0, 0}));
  EXPECT_EQ(fuseByPriority(g, onDevice(g), {5, 0, 5}), (std::vector<int32_t>{-1, -1, -1}));
}

// On real training graphs every fuser's groups obey the rules, simulate, and the default
// fusion shortens the single-device step.
TEST(Fuser, ZooGraphsObeyTheRules) {
  Cluster c = loadCluster("4xP100-PCIe");
  for (const char* model : {"zoo:resnet50", "zoo:inception_v3", "zoo:nmt"}) {  // they fit on one P100
    Graph g = loadModel(model);
    CostModel cost(g, c);
    Simulator sim(cost);
    const std::vector<int32_t> dev = onDevice(g);
    const std::vector<int32_t> groups = defaultFusion(g, dev);
    const Plan fused = planWith(g, dev, groups);
    EXPECT_EQ(fusionProblem(g, fused), "") << model;
    std::set<int32_t> ids(groups.begin(), groups.end());
    EXPECT_GT(ids.size(), 20u) << model;
    const Measurement plain = sim.run(Plan::singleDevice(g.numOps()), false);
    const Measurement m = sim.run(fused, false);
    ASSERT_TRUE(m.feasible) << model << ": " << m.problem;
    EXPECT_LT(m.stepTime, plain.stepTime) << model;
    std::vector<int32_t> prio(static_cast<size_t>(g.numOps()));
    for (OpId op = 0; op < g.numOps(); ++op) prio[op] = (op * 7919) % 13 - 3;  // mixed, some <= 0
    const Plan byPriority = planWith(g, dev, fuseByPriority(g, dev, prio));
    EXPECT_EQ(fusionProblem(g, byPriority), "") << model;
    EXPECT_TRUE(sim.run(byPriority, false).feasible) << model;
    for (OpId op = 0; op < g.numOps(); ++op) {
      if (g.role(op) == OpRole::Update) {
        EXPECT_EQ(groups[op], -1) << g.opName(op);
      }
    }
  }
}
