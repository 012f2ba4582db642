// The measurement side of the learned cost model without LibTorch: representative kernels,
// plan runs and their layout conversions, the dataset maker over a scripted source (round-robin
// order, repeats, medians), the roofline + calibration model fitted on known numbers, and the
// ranking scores of a dataset.
#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/cost_eval.h"
#include "costmodel/dataset_maker.h"
#include "costmodel/kernel_sum.h"
#include "graph/graph_builder.h"

using namespace gp;

namespace {

// conv (NHWC 1x8x8x4, 3x3x4x4) -> relu -> conv -> softmax-free head: a MatMul [64,4]x[4,10]
Graph convNet() {
  GraphBuilder b("convnet");
  const TensorId x = b.addGraphInput({"x", {1, 8, 8, 4}});
  const TensorId w1 = b.addParameter({"w1", {3, 3, 4, 4}});
  const TensorId w2 = b.addParameter({"w2", {3, 3, 4, 4}});
  const TensorId w3 = b.addParameter({"w3", {4, 10}});
  const OpId c1 = b.addOp({.name = "conv1", .type = "Conv2D", .inputs = {x, w1}, .outputs = {{"c1", {1, 8, 8, 4}}},
                           .flops = 2.0 * 64 * 4 * 9 * 4});
  const OpId r = b.addOp({.name = "relu", .type = "Relu", .inputs = {b.output(c1)}, .outputs = {{"r", {1, 8, 8, 4}}},
                          .flops = 256});
  const OpId c2 = b.addOp({.name = "conv2", .type = "Conv2D", .inputs = {b.output(r), w2},
                           .outputs = {{"c2", {1, 8, 8, 4}}}, .flops = 2.0 * 64 * 4 * 9 * 4});
  const OpId rs = b.addOp({.name = "reshape", .type = "Reshape", .inputs = {b.output(c2)}, .outputs = {{"f", {64, 4}}}});
  b.addOp({.name = "fc", .type = "MatMul", .inputs = {b.output(rs), w3}, .outputs = {{"y", {64, 10}}},
           .flops = 2.0 * 64 * 4 * 10});
  return std::move(b).build("convnet");
}

const Cluster& cluster() {
  static const Cluster c = loadCluster("2xK80");
  return c;
}

// Times every call as 1 us x (1 + kind) / threads, x 1.5 in layout 1, + 1 us per extra tile,
// and records the order runs were timed in.
class ScriptedSource : public MeasurementSource {
 public:
  std::string deviceKind() const override { return "cpu:scripted"; }
  std::vector<int32_t> threadChoices() const override { return {1, 2}; }
  std::vector<RunTiming> time(const std::vector<KernelRun>& runs, int repeats) override {
    std::vector<RunTiming> out;
    for (int r = 0; r < repeats; ++r)
      for (size_t i = 0; i < runs.size(); ++i) order.push_back(static_cast<int>(i));
    for (const KernelRun& run : runs) {
      double s = 0;
      for (const KernelCall& c : run.calls)
        s += 1e-6 * (1 + static_cast<int>(c.kernel.kind)) / run.threads * (c.layout ? 1.5 : 1.0) + 1e-6 * (c.tiles - 1);
      out.push_back({s, 0.0});
    }
    ++batches;
    return out;
  }
  std::vector<int> order;
  int batches = 0;
};

}  // namespace

TEST(KernelSpec, ReadsConvolutionsAndGemmsFromShapes) {
  const Graph g = convNet();
  const CostModel cost(g, cluster());
  const KernelSpec conv = kernelSpecOf(cost, g.findOp("conv1"));
  EXPECT_EQ(conv.kind, KernelSpec::Kind::Conv);
  EXPECT_EQ(conv.convN, 1);
  EXPECT_EQ(conv.convC, 4);
  EXPECT_EQ(conv.convH, 8);
  EXPECT_EQ(conv.convK, 4);
  EXPECT_EQ(conv.convR, 3);
  EXPECT_EQ(conv.stride, 1);
  const KernelSpec fc = kernelSpecOf(cost, g.findOp("fc"));
  EXPECT_EQ(fc.kind, KernelSpec::Kind::Gemm);
  EXPECT_EQ(fc.m, 64);
  EXPECT_EQ(fc.k, 4);
  EXPECT_EQ(fc.n, 10);
  const KernelSpec relu = kernelSpecOf(cost, g.findOp("relu"));
  EXPECT_EQ(relu.kind, KernelSpec::Kind::Unary);
  EXPECT_EQ(relu.rows * relu.cols, 256);
  EXPECT_EQ(kernelSpecOf(cost, g.findOp("reshape")).kind, KernelSpec::Kind::None);
}

TEST(KernelSpec, ClampsHugeOperands) {
  GraphBuilder b("big");
  const TensorId x = b.addGraphInput({"x", {1 << 16, 1 << 12}});
  b.addOp({.name = "relu", .type = "Relu", .inputs = {x}, .outputs = {{"y", {1 << 16, 1 << 12}}}, .flops = 1 << 28});
  const Graph g = std::move(b).build("big");
  const CostModel cost(g, cluster());
  const KernelSpec k = kernelSpecOf(cost, 0);
  EXPECT_LE(k.largestOperand(), kMaxKernelElements);
  EXPECT_EQ(k.cols, 1 << 12);
  EXPECT_NEAR(k.flops, static_cast<double>(1 << 28) / 16, 1);
}

TEST(PlanRun, ConvertsWhereLayoutsMeet) {
  const Graph g = convNet();
  const CostModel cost(g, cluster());
  const PlanLayout l = planLayoutOf(cost);
  ASSERT_EQ(l.configurable.size(), 3u);  // conv1, conv2, fc
  double bytes = -1;
  const KernelRun same = planRun(cost, l, std::vector<KernelConfig>(3, {2, 0, 1}), 2, &bytes);
  EXPECT_EQ(bytes, 0);
  EXPECT_EQ(same.calls.size(), 4u);  // reshape runs nothing
  EXPECT_EQ(same.threads, 2);
  // conv1 in layout 1: relu follows it (layout 1), conv2 (layout 0) converts relu's output
  const KernelRun mixed = planRun(cost, l, {{2, 1, 1}, {2, 0, 1}, {2, 0, 4}}, 2, &bytes);
  ASSERT_EQ(mixed.calls.size(), 5u);
  EXPECT_EQ(mixed.calls[1].layout, 1);                          // relu inherits
  EXPECT_EQ(mixed.calls[2].kernel.kind, KernelSpec::Kind::Copy);  // the conversion
  EXPECT_EQ(mixed.calls[2].kernel.rows * mixed.calls[2].kernel.cols, 256);
  EXPECT_EQ(bytes, 2.0 * 4 * 256);
  EXPECT_EQ(mixed.calls[4].tiles, 4);
  EXPECT_THROW(planRun(cost, l, {{2, 1, 1}}, 2), Error);
}

TEST(DatasetMaker, MeasuresRoundRobinWithMedians) {
  const Graph g = convNet();
  ScriptedSource src;
  DatasetMakeOptions o;
  o.repeats = 3;
  o.planConfigs = 4;
  const MadeDatasets d = makeCostDatasets({{"convnet", "conv", &g}}, src, o);
  d.kernels.validate("kernels");
  d.plans.validate("plans");
  // conv1 and conv2 share a signature: conv, relu, fc, and the fused group conv1 + relu
  ASSERT_EQ(d.kernels.graphs.size(), 4u);
  const CostGraph& group = d.kernels.graphs[3];
  EXPECT_EQ(group.name, "convnet/conv1 (fused)");
  EXPECT_EQ(group.numNodes(), 2);
  EXPECT_EQ(group.edges, (std::vector<std::array<int32_t, 2>>{{0, 1}}));
  EXPECT_EQ(group.nodeFeatures[kNodeWidth - 2], 1.0f);  // the fused-member feature
  // both kernels back to back: conv + unary under the first configuration
  EXPECT_DOUBLE_EQ(group.runtime[0], 1e-6 * (2 + static_cast<int>(KernelSpec::Kind::Conv) +
                                             static_cast<int>(KernelSpec::Kind::Unary)));
  for (const CostGraph& k : d.kernels.graphs) {
    EXPECT_EQ(k.numConfigs(), 8);  // threads {1,2} x layout x tiles
    EXPECT_EQ(k.family, "conv");
  }
  // the first kernel's 8 configurations, each timed 3 times, interleaved
  ASSERT_GE(src.order.size(), 24u);
  EXPECT_EQ(std::vector<int>(src.order.begin(), src.order.begin() + 9), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 0}));
  const CostGraph& conv = d.kernels.graphs[0];
  EXPECT_DOUBLE_EQ(conv.runtime[0], 1e-6 * (1 + static_cast<int>(KernelSpec::Kind::Conv)));  // 1 thread, layout 0, 1 tile
  ASSERT_EQ(d.plans.graphs.size(), 1u);
  const CostGraph& p = d.plans.graphs[0];
  EXPECT_EQ(p.numConfigs(), 6);  // all canonical, all alternative, 4 random
  EXPECT_EQ(p.configNodes.size(), 3u);
  EXPECT_EQ(p.numNodes(), g.numOps());
  EXPECT_EQ(p.edges.size(), 4u);
  EXPECT_EQ(p.conversionBytes[0], 0);
  EXPECT_EQ(d.kernels.opcodes, d.plans.opcodes);
}

TEST(KernelQueries, OneGraphPerSignatureAtOneConfiguration) {
  const Graph g = convNet();
  const CostModel cost(g, cluster());
  std::vector<OpId> all;
  for (OpId op = 0; op < g.numOps(); ++op) all.push_back(op);
  const KernelQueries q = kernelQueries(cost, all, 3, "cpu:test (3 threads)");
  q.data.validate("queries");
  EXPECT_EQ(q.data.task, CostTask::Kernel);
  EXPECT_EQ(q.data.deviceKind, "cpu:test (3 threads)");
  // conv1 and conv2 share a signature; the reshape runs no kernel
  ASSERT_EQ(q.ops.size(), 3u);
  ASSERT_EQ(q.data.graphs.size(), 3u);
  EXPECT_EQ(q.ops[0], (std::vector<OpId>{g.findOp("conv1"), g.findOp("conv2")}));
  EXPECT_EQ(q.ops[1], (std::vector<OpId>{g.findOp("relu")}));
  EXPECT_EQ(q.ops[2], (std::vector<OpId>{g.findOp("fc")}));
  for (const CostGraph& cg : q.data.graphs) {
    EXPECT_EQ(cg.numNodes(), 1);
    ASSERT_EQ(cg.numConfigs(), 1);
    EXPECT_EQ(cg.threads[0], 3);
    const KernelConfig c = configOfRow(std::span<const float>(cg.configFeatures.data(), kConfigWidth));
    EXPECT_EQ(c, (KernelConfig{3, 0, 1}));
  }
  EXPECT_EQ(q.data.opcodes[static_cast<size_t>(q.data.graphs[2].opcode[0])], "MatMul");
  // only the ops asked for
  EXPECT_EQ(kernelQueries(cost, {g.findOp("fc"), g.findOp("reshape")}, 1, "k").ops.size(), 1u);
}

TEST(KernelSum, SumsThePredictionsOfEachPlansCalls) {
  const Graph g = convNet();
  const CostModel cost(g, cluster());
  const PlanLayout l = planLayoutOf(cost);
  std::vector<KernelRun> runs;
  std::vector<std::vector<OpId>> callOps(2);
  runs.push_back(planRun(cost, l, std::vector<KernelConfig>(3, {2, 0, 1}), 2, nullptr, &callOps[0]));
  runs.push_back(planRun(cost, l, {{2, 1, 1}, {2, 0, 1}, {2, 0, 4}}, 2, nullptr, &callOps[1]));
  ASSERT_EQ(callOps[1].size(), 5u);
  EXPECT_EQ(callOps[1][2], kNone);  // the conversion
  EXPECT_EQ(callOps[1][0], g.findOp("conv1"));
  const CallQueries q = callQueries(g, runs, callOps, "cpu:test (2 threads)");
  q.data.validate("calls");
  // canonical: conv (conv1 = conv2), relu, fc; mixed adds conv1 and relu in layout 1, the
  // conversion and fc in 4 tiles; conv2 in layout 0 is the canonical conv again
  ASSERT_EQ(q.data.graphs.size(), 7u);
  EXPECT_EQ(q.graphOfCall[0], (std::vector<int32_t>{0, 1, 0, 2}));
  EXPECT_EQ(q.graphOfCall[1], (std::vector<int32_t>{3, 4, 5, 0, 6}));
  EXPECT_EQ(q.data.opcodes[static_cast<size_t>(q.data.graphs[5].opcode[0])], "Transpose");
  EXPECT_EQ(configOfRow(std::span<const float>(q.data.graphs[6].configFeatures.data(), kConfigWidth)),
            (KernelConfig{2, 0, 4}));
  std::vector<std::vector<double>> predicted;
  for (size_t i = 0; i < q.data.graphs.size(); ++i) predicted.push_back({static_cast<double>(i + 1)});
  EXPECT_EQ(sumPerRun(q, predicted), (std::vector<double>{1 + 2 + 1 + 3, 4 + 5 + 6 + 1 + 7}));
  predicted.pop_back();
  EXPECT_THROW(sumPerRun(q, predicted), Error);
  EXPECT_THROW(callQueries(g, runs, {callOps[0]}, "k"), Error);
}

TEST(AnalyticCostModel, FitsPeaksEfficienciesAndTable) {
  // three GEMM kernels at 1 and 2 threads; one memory kernel
  CostDataset d;
  d.task = CostTask::Kernel;
  d.nodeWidth = 1;
  d.configWidth = kConfigWidth;
  d.opcodes = {"MatMul", "Relu"};
  auto kernel = [&](const std::string& sig, double flops, double bytes, int cls, std::vector<double> runtimes) {
    CostGraph g;
    g.name = sig;
    g.opcode = {cls == 0 ? 0 : 1};
    g.nodeFeatures = {0};
    g.nodeFlops = {flops};
    g.nodeBytes = {bytes};
    g.nodeClass = {static_cast<int8_t>(cls)};
    g.nodeSignature = {sig};
    for (size_t i = 0; i < runtimes.size(); ++i) {
      const KernelConfig c{static_cast<int32_t>(i + 1), 0, 1};
      appendConfigFeatures(c, false, g.configFeatures);
      g.threads.push_back(c.threads);
      g.runtime.push_back(runtimes[i]);
    }
    d.graphs.push_back(g);
  };
  kernel("a", 1e9, 1e3, 0, {0.01, 0.005});   // 100 / 200 GFLOP/s: the peaks
  kernel("b", 1e9, 1e3, 0, {0.02, 0.01});    // half the peak
  kernel("c", 1e9, 1e3, 0, {0.02, 0.01});
  kernel("r", 0, 1e9, 2, {0.1, 0.05});       // 10 / 20 GB/s
  const AnalyticCostModel m = AnalyticCostModel::fit(d);
  EXPECT_DOUBLE_EQ(m.peakFlops(1), 1e11);
  EXPECT_DOUBLE_EQ(m.peakFlops(2), 2e11);
  EXPECT_DOUBLE_EQ(m.peakFlops(4), 4e11);  // beyond the measured: linear from the nearest
  EXPECT_DOUBLE_EQ(m.bandwidth(2), 2e10);
  EXPECT_DOUBLE_EQ(m.efficiency(0), 0.5);   // median of 1, 0.5, 0.5
  EXPECT_EQ(m.tableSize(), 8u);
  // a measured signature: its time; an unmeasured one: the roofline
  EXPECT_DOUBLE_EQ(m.kernelTime(1e9, 1e3, 0, "a", {1, 0, 1}), 0.01);
  const double overhead = 0.005;
  EXPECT_NEAR(m.kernelTime(2e9, 1e3, 0, "new", {2, 1, 1}), overhead + 2e9 / (2e11 * 0.5), 1e-12);
  EXPECT_NEAR(m.kernelTime(0, 4e9, 2, "new", {1, 0, 4}), 4 * overhead + 4e9 / 1e10, 1e-12);
  // JSON round trip
  const AnalyticCostModel r = AnalyticCostModel::parse(m.toJson(), "fit.json");
  EXPECT_DOUBLE_EQ(r.kernelTime(2e9, 1e3, 0, "new", {2, 1, 1}), m.kernelTime(2e9, 1e3, 0, "new", {2, 1, 1}));
  EXPECT_EQ(r.tableSize(), 8u);
  EXPECT_THROW(AnalyticCostModel::parse("{\"format\": \"x\"}", "fit.json"), Error);
  EXPECT_THROW(AnalyticCostModel::parse("{\"format\": 2}", "fit.json"), Error);
  EXPECT_THROW(AnalyticCostModel::parse("{\"format\": \"graphplace-cpu-roofline\", \"version\": 1e300}", "fit.json"), Error);
  // predictions of the dataset itself
  const auto p = m.predict(d.graphs[1], CostTask::Kernel, d.configWidth);
  EXPECT_EQ(p, (std::vector<double>{0.02, 0.01}));
}

TEST(CostEval, ScoresPerGraphAndSubsamples) {
  CostDataset d;
  d.nodeWidth = 1;
  d.configWidth = 1;
  for (int i = 0; i < 2; ++i) {
    CostGraph g;
    g.name = "g" + std::to_string(i);
    g.opcode = {0};
    g.nodeFeatures = {0};
    g.runtime = {1, 2, 3, 4};
    g.configFeatures = {0, 1, 2, 3};
    d.graphs.push_back(g);
  }
  // graph 0 ranked perfectly, graph 1 reversed
  const RankingScores s = scoreRanking(d, {{1, 2, 3, 4}, {4, 3, 2, 1}});
  EXPECT_EQ(s.graphs, 2);
  EXPECT_EQ(s.samples, 8);
  EXPECT_DOUBLE_EQ(s.kendallTau, 0);
  EXPECT_DOUBLE_EQ(s.opa, 0.5);
  EXPECT_DOUBLE_EQ(s.top1, (0 + 3) / 2.0);  // reversed: picks the 4 where 1 was best
  EXPECT_THROW(scoreRanking(d, {{1, 2, 3, 4}}), std::invalid_argument);
  const CostDataset sub = subsampleConfigs(d, 2);
  EXPECT_EQ(sub.graphs[0].runtime, (std::vector<double>{1, 4}));
  EXPECT_EQ(sub.graphs[0].configFeatures, (std::vector<float>{0, 3}));
}
