// zoo:random_dag: well-formed for every seed and size, the same graph for the same seed, a
// training network's op mix, a scope tree per layer and branch, and sizes from tens to
// thousands of ops.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cluster/random_cluster.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "placement/placer.h"
#include "zoo/zoo.h"
#include "zoo_checks.h"

using namespace gp;

namespace {

// Seed s: depth 4..39 and 1..6 branches, so the 20 seeds cover small and mid sizes.
ZooParams paramsFor(uint64_t s) {
  return {.batch = 2, .layers = static_cast<int>(4 + (s * 7) % 36), .hidden = static_cast<int>(1 + s % 6), .seed = s};
}

}  // namespace

TEST(RandomDag, EverySeedIsWellFormedAndDeterministic) {
  std::set<std::string> graphs;
  for (uint64_t s = 1; s <= 20; ++s) {
    SCOPED_TRACE(s);
    const Graph g = makeZooModel("random_dag", paramsFor(s));
    gptest::expectWellFormedZooGraph(g, "random_dag");
    const std::string json = graphToJson(g);
    const Graph again = makeZooModel("random_dag", paramsFor(s));
    EXPECT_EQ(again.numOps(), g.numOps());
    EXPECT_EQ(again.totalFlops(), g.totalFlops());
    EXPECT_EQ(graphToJson(again), json);
    graphs.insert(json);
  }
  EXPECT_EQ(graphs.size(), 20u);  // different seeds, different graphs
  // the seed alone changes the graph; seed 0 is the default seed 1
  EXPECT_NE(graphToJson(makeZooModel("random_dag", {.batch = 2, .seed = 2})),
            graphToJson(makeZooModel("random_dag", {.batch = 2, .seed = 3})));
  EXPECT_EQ(graphToJson(makeZooModel("random_dag", {.batch = 2})),
            graphToJson(makeZooModel("random_dag", {.batch = 2, .seed = 1})));
}

TEST(RandomDag, HasATrainingNetworksOpMixAndScopeTree) {
  std::set<std::string> types;
  for (uint64_t s = 1; s <= 20; ++s) {
    const Graph g = makeZooModel("random_dag", paramsFor(s));
    for (OpId op = 0; op < g.numOps(); ++op) types.insert(std::string(g.opType(op)));
  }
  for (const char* t :
       {"MatMul", "BiasAdd", "Conv2D", "DepthwiseConv2dNative", "FusedBatchNorm", "LayerNorm", "Relu", "Add", "AddN",
        "Mul", "Sigmoid", "Tanh", "ConcatV2", "Mean", "Softmax", "BatchMatMulV2", "MaxPool", "AvgPool", "GatherV2"})
    EXPECT_TRUE(types.count(t)) << t;

  const Graph g = makeZooModel("random_dag", {.batch = 2, .layers = 12, .hidden = 4, .seed = 9});
  std::set<std::string> scopes;
  for (ScopeId s = 0; s < g.numScopes(); ++s) scopes.insert(g.scopeName(s));
  EXPECT_TRUE(scopes.count("random_dag/stem"));
  EXPECT_TRUE(scopes.count("random_dag/head"));
  for (int l = 0; l < 12; ++l) {
    EXPECT_TRUE(scopes.count("random_dag/layer_" + std::to_string(l) + "/branch_0")) << l;
  }
  EXPECT_FALSE(scopes.count("random_dag/layer_12"));
}

TEST(RandomDag, SizesSpanTensToThousandsOfOps) {
  for (uint64_t s = 1; s <= 5; ++s) {
    const int small = makeZooModel("random_dag", {.batch = 2, .layers = 5, .hidden = 1, .seed = s}).numOps();
    EXPECT_GE(small, 20) << s;
    EXPECT_LE(small, 120) << s;
  }
  const int large = makeZooModel("random_dag", {.batch = 2, .layers = 200, .hidden = 8, .seed = 1}).numOps();
  EXPECT_GE(large, 4000);
  EXPECT_LE(large, 12000);
  // more layers or more branches, more ops
  const int deeper = makeZooModel("random_dag", {.batch = 2, .layers = 80, .hidden = 4}).numOps();
  EXPECT_GT(deeper, makeZooModel("random_dag", {.batch = 2, .layers = 20, .hidden = 4}).numOps());
}

TEST(RandomDag, TrainsAndPlacesOnRandomClusters) {
  for (uint64_t s = 1; s <= 20; ++s) {
    SCOPED_TRACE(s);
    LoadOptions options;
    options.zoo = paramsFor(s);
    const Graph g = loadModel("zoo:random_dag", options);
    const Cluster c = randomCluster(100 + s);
    const CostModel cost(g, c);
    Simulator sim(cost);
    const PlacementResult r = runPlacement("m_etf", cost, sim);
    EXPECT_TRUE(r.measurement.feasible) << r.measurement.problem;
    EXPECT_GT(r.measurement.stepTime, 0);
  }
}
