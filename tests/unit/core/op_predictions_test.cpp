// A kernel dataset read back per op (costmodel/op_predictions.h): ops sharing a signature share
// their kernel, metadata ops and fused groups stand for no op, the canonical configuration is
// the most threads in layout 0 with one tile, and the error is |ln(predicted / measured)| there.
#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "costmodel/cost_features.h"
#include "costmodel/dataset_maker.h"
#include "costmodel/op_predictions.h"
#include "graph/graph_builder.h"

using namespace gp;

namespace {

// x -> relu1 -> reshape -> relu2 (the same signature as relu1) -> fc (MatMul)
Graph reluNet() {
  GraphBuilder b("relunet");
  const TensorId x = b.addGraphInput({"x", {16, 8}});
  const TensorId w = b.addParameter({"w", {8, 4}});
  const OpId r1 = b.addOp({.name = "relu1", .type = "Relu", .inputs = {x}, .outputs = {{"r1", {16, 8}}}, .flops = 128});
  const OpId rs = b.addOp({.name = "reshape", .type = "Reshape", .inputs = {b.output(r1)}, .outputs = {{"rs", {16, 8}}}});
  const OpId r2 =
      b.addOp({.name = "relu2", .type = "Relu", .inputs = {b.output(rs)}, .outputs = {{"r2", {16, 8}}}, .flops = 128});
  b.addOp({.name = "fc", .type = "MatMul", .inputs = {b.output(r2), w}, .outputs = {{"y", {16, 4}}},
           .flops = 2.0 * 16 * 8 * 4});
  return std::move(b).build("relunet");
}

const Cluster& cluster() {
  static const Cluster c = loadCluster("2xK80");
  return c;
}

// 1 us per call, / threads, x 2 in layout 1, + 1 us per extra tile.
class FixedSource : public MeasurementSource {
 public:
  std::string deviceKind() const override { return "cpu:fixed"; }
  std::vector<int32_t> threadChoices() const override { return {1, 2}; }
  std::vector<RunTiming> time(const std::vector<KernelRun>& runs, int) override {
    std::vector<RunTiming> out;
    for (const KernelRun& run : runs) {
      double s = 0;
      for (const KernelCall& c : run.calls) s += 1e-6 / run.threads * (c.layout ? 2.0 : 1.0) + 1e-6 * (c.tiles - 1);
      out.push_back({s, 0.0});
    }
    return out;
  }
};

CostDataset kernelsOf(const Graph& g) {
  FixedSource src;
  DatasetMakeOptions o;
  o.plans = false;
  o.repeats = 1;
  return makeCostDatasets({{"relunet", "relunet", &g}}, src, o).kernels;
}

}  // namespace

TEST(OpPredictions, CanonicalConfigIsMostThreadsLayoutZeroOneTile) {
  const Graph g = reluNet();
  const CostDataset d = kernelsOf(g);
  ASSERT_FALSE(d.graphs.empty());
  const CostGraph& k = d.graphs[0];
  const int64_t c = canonicalConfig(k, d.configWidth);
  ASSERT_GE(c, 0);
  const KernelConfig config = configOfRow(std::span<const float>(k.configFeatures).subspan(
      static_cast<size_t>(c) * static_cast<size_t>(d.configWidth), static_cast<size_t>(d.configWidth)));
  EXPECT_EQ(config.threads, 2);
  EXPECT_EQ(config.layout, 0);
  EXPECT_EQ(config.tiles, 1);
  EXPECT_DOUBLE_EQ(k.runtime[static_cast<size_t>(c)], 0.5e-6);
  EXPECT_EQ(canonicalConfig(CostGraph{}, d.configWidth), -1);
}

TEST(OpPredictions, OpsShareTheirSignaturesKernel) {
  const Graph g = reluNet();
  const CostModel cost(g, cluster());
  const CostDataset d = kernelsOf(g);
  const std::vector<int32_t> of = kernelGraphOfOps(cost, d);
  ASSERT_EQ(of.size(), static_cast<size_t>(g.numOps()));
  const auto at = [&](const char* name) { return of[static_cast<size_t>(g.findOp(name))]; };
  EXPECT_GE(at("relu1"), 0);
  EXPECT_EQ(at("relu2"), at("relu1"));  // one signature, one kernel
  EXPECT_GE(at("fc"), 0);
  EXPECT_NE(at("fc"), at("relu1"));
  EXPECT_EQ(at("reshape"), -1);  // metadata: no kernel
  for (int32_t k : of)
    if (k >= 0) EXPECT_EQ(d.graphs[static_cast<size_t>(k)].numNodes(), 1);
}

TEST(OpPredictions, ErrorIsAbsoluteLogRatioAtTheCanonicalConfig) {
  const Graph g = reluNet();
  const CostModel cost(g, cluster());
  const CostDataset d = kernelsOf(g);
  std::vector<std::vector<double>> predicted;
  for (size_t i = 0; i < d.graphs.size(); ++i) {
    predicted.push_back(d.graphs[i].runtime);
    for (double& p : predicted.back()) p *= i == 0 ? 2.0 : 0.25;  // relu x2, the rest x1/4
  }
  const std::vector<double> err = opPredictionErrors(cost, d, predicted);
  ASSERT_EQ(err.size(), static_cast<size_t>(g.numOps()));
  EXPECT_NEAR(err[static_cast<size_t>(g.findOp("relu1"))], std::log(2.0), 1e-9);
  EXPECT_NEAR(err[static_cast<size_t>(g.findOp("relu2"))], std::log(2.0), 1e-9);
  EXPECT_NEAR(err[static_cast<size_t>(g.findOp("fc"))], std::log(4.0), 1e-9);
  EXPECT_TRUE(std::isnan(err[static_cast<size_t>(g.findOp("reshape"))]));
  // a prediction that is not a positive number gives no error
  predicted[0].assign(predicted[0].size(), 0.0);
  EXPECT_TRUE(std::isnan(opPredictionErrors(cost, d, predicted)[static_cast<size_t>(g.findOp("relu1"))]));
  // shapes that do not fit the dataset
  EXPECT_THROW(opPredictionErrors(cost, d, {}), Error);
  predicted[0].pop_back();
  EXPECT_THROW(opPredictionErrors(cost, d, predicted), Error);
}

TEST(OpPredictions, AnotherGraphsDatasetMatchesNothing) {
  const Graph g = reluNet();
  GraphBuilder b("other");
  const TensorId x = b.addGraphInput({"x", {3, 5}});
  b.addOp({.name = "t", .type = "Tanh", .inputs = {x}, .outputs = {{"y", {3, 5}}}, .flops = 15});
  const Graph other = std::move(b).build("other");
  const CostModel cost(other, cluster());
  for (int32_t k : kernelGraphOfOps(cost, kernelsOf(g))) EXPECT_EQ(k, -1);
}
