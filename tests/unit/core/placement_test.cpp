// Baseline placers: valid on every zoo model, memory-aware, and better than one device where
// parallelism is obvious. Hand-built graphs run on a test cluster where 1e12 FLOPs take 1 s and
// 1e6 bytes take 1 s on a link.
#include <gtest/gtest.h>

#include <map>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "graph/training.h"
#include "placement/placer.h"
#include "sim/simulator.h"
#include "test_graphs.h"
#include "zoo/zoo.h"

#include "test_clusters.h"

using namespace gp;

namespace {


// Two independent chains "a" and "b" of `len` 1-second ops with 1 kB outputs (1 ms on a link);
// the first op of each chain reads a parameter of `paramFloats` floats.
Graph twoChains(int len, int64_t paramFloats) {
  GraphBuilder b("chains");
  for (const char* chain : {"a", "b"}) {
    TensorId prev = b.addParameter({std::string(chain) + "/w", {paramFloats}});
    for (int i = 0; i < len; ++i) {
      OpId op = b.addOp({.name = std::string(chain) + "/op" + std::to_string(i), .type = "MatMul", .inputs = {prev},
                         .outputs = {{"", {250}}}, .flops = 1e12});
      prev = b.output(op);
    }
  }
  return std::move(b).build("chains");
}

void expectValid(const Graph& g, const Cluster& c, const PlacementResult& r) {
  SCOPED_TRACE(r.method);
  ASSERT_EQ(r.plan.device.size(), static_cast<size_t>(g.numOps()));
  std::map<int32_t, int32_t> groupDevice;
  for (OpId op = 0; op < g.numOps(); ++op) {
    ASSERT_GE(r.plan.device[op], 0) << g.opName(op);
    ASSERT_LT(r.plan.device[op], c.numDevices()) << g.opName(op);
    if (g.colocGroup(op) != kNone) {
      auto [it, fresh] = groupDevice.emplace(g.colocGroup(op), r.plan.device[op]);
      EXPECT_EQ(it->second, r.plan.device[op]) << "colocation group split at " << g.opName(op);
    }
  }
  if (!r.plan.priority.empty()) {
    EXPECT_EQ(r.plan.priority.size(), static_cast<size_t>(g.numOps()));
  }
  EXPECT_GE(r.seconds, 0);
  EXPECT_GT(r.measurement.stepTime, 0);
  EXPECT_GE(r.measurement.stepTime, r.measurement.lowerBound * (1 - 1e-9));
}

}  // namespace

TEST(Placement, MethodsListedAndUnknownRejected) {
  EXPECT_EQ(placementMethods(), (std::vector<std::string>{"single", "round_robin", "expert", "metis", "m_topo",
                                                          "m_etf", "m_sct", "heft"}));
  Graph g = twoChains(2, 1);
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  try {
    runPlacement("bogus", cost, sim);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "method bogus");
  }
}

TEST(Placement, EveryMethodValidOnEveryZooModel) {
  const Cluster c = loadCluster("4xP100-PCIe");
  for (const ZooEntry& z : zooModels()) {
    if (z.llm) continue;  // thousands of ops at any size; zoo_sizes_test places small ones
    SCOPED_TRACE(z.name);
    const Graph g = deriveTrainingGraph(makeZooModel(z.name, {.batch = 2, .seqLen = 8}));
    const CostModel cost(g, c);
    Simulator sim(cost);
    const PlacementResult single = runPlacement("single", cost, sim);
    for (const std::string& method : placementMethods()) {
      const PlacementResult r = method == "single" ? single : runPlacement(method, cost, sim);
      EXPECT_EQ(r.method, method);
      expectValid(g, c, r);
      if (single.measurement.feasible) {
        EXPECT_TRUE(r.measurement.feasible) << method << ": " << r.measurement.problem;
      }
    }
  }
}

TEST(Placement, TwoIndependentChainsBeatOneDevice) {
  const Graph g = twoChains(5, 1);
  const Cluster c = gptest::toyCluster(1, 2);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  const PlacementResult single = runPlacement("single", cost, sim);
  EXPECT_DOUBLE_EQ(single.measurement.stepTime, 10.0);
  for (const std::string& method : placementMethods()) {
    if (method == "single") continue;
    const PlacementResult r = runPlacement(method, cost, sim);
    expectValid(g, c, r);
    EXPECT_LT(r.measurement.stepTime, single.measurement.stepTime) << method << " " << r.note;
    // The planners that see the two chains keep each on one device: 5 s. (m-TOPO fills gpu0 in
    // topological order, which interleaves the chains; round-robin alternates devices.)
    if (method != "round_robin" && method != "m_topo") {
      EXPECT_NEAR(r.measurement.stepTime, 5.0, 0.01) << method << " " << r.note;
    }
  }
}

TEST(Placement, GraphTooBigForOneDeviceGetsFeasiblePlans) {
  // Each chain's parameter is 600 MB; two do not fit in one 1 GiB device, one per device does.
  const Graph g = twoChains(4, 150'000'000);
  const Cluster c = gptest::toyCluster(1, 2);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  const PlacementResult single = runPlacement("single", cost, sim);
  EXPECT_FALSE(single.measurement.feasible);
  EXPECT_NE(single.measurement.problem.find("gpu0"), std::string::npos) << single.measurement.problem;
  for (const std::string& method : placementMethods()) {
    if (method == "single") continue;
    const PlacementResult r = runPlacement(method, cost, sim);
    expectValid(g, c, r);
    EXPECT_TRUE(r.measurement.feasible) << method << ": " << r.measurement.problem << " / " << r.note;
  }
}

TEST(Placement, RequestedDevicesAndColocationGroupsRespected) {
  // Two branches from x: q and r (one per branch) form colocation group "g"; s requests
  // "/device:GPU:1" (gpu1 here). In smallMlp, fc1/Relu requests "gpu:1".
  GraphBuilder b("coloc");
  TensorId x = b.addGraphInput({"x", {1000}});
  OpId p = b.addOp({.name = "p", .type = "MatMul", .inputs = {x}, .outputs = {{"", {250}}}, .flops = 1e12});
  OpId q = b.addOp({.name = "q", .type = "MatMul", .inputs = {x}, .outputs = {{"", {250}}}, .flops = 1e12,
                    .colocGroup = "g"});
  b.addOp({.name = "r", .type = "MatMul", .inputs = {b.output(p)}, .outputs = {{"", {250}}}, .flops = 1e12,
           .colocGroup = "g"});
  b.addOp({.name = "s", .type = "MatMul", .inputs = {b.output(q)}, .outputs = {{"", {250}}}, .flops = 1e12,
           .device = "/device:GPU:1"});
  const Graph g = std::move(b).build("coloc");
  const Cluster c = gptest::toyCluster(1, 2);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  for (const std::string& method : placementMethods()) {
    const PlacementResult r = runPlacement(method, cost, sim);
    expectValid(g, c, r);
    EXPECT_EQ(r.plan.device[g.findOp("s")], 1) << method;
    EXPECT_EQ(r.plan.device[g.findOp("q")], r.plan.device[g.findOp("r")]) << method;
  }
  const Graph mlp = gptest::smallMlp();
  const CostModel mlpCost(mlp, c, gptest::exactCosts());
  Simulator mlpSim(mlpCost);
  for (const std::string& method : placementMethods())
    EXPECT_EQ(runPlacement(method, mlpCost, mlpSim).plan.device[mlp.findOp("fc1/Relu")], 1) << method;
}
