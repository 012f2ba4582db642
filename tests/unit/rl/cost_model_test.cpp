// The learned cost model: the ranking losses against hand-computed values and their gradients,
// learning a ranking the roofline cannot see, Graph Segment Training (every segment sampled is
// plain training; sampled segments train with the history table), the model file, and this
// CPU as a measurement source (every kernel kind and configuration runs; no timing asserted).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "base/error.h"
#include "costmodel/cost_eval.h"
#include "costmodel/cost_features.h"
#include "rl/cost_training.h"
#include "rl/cpu_measure.h"

using namespace gp;

namespace {

// Kernel-task data where a hidden rule decides the runtime: layout 1 is faster for kernels
// whose first feature is above 0.5 and slower otherwise, tiles always cost 30 %, two threads
// halve the time. A roofline sees none of this.
CostDataset ruleData(int graphs, uint64_t seed) {
  CostDataset d;
  d.task = CostTask::Kernel;
  d.nodeWidth = 2;
  d.configWidth = kConfigWidth;
  d.opcodes = {"A", "B"};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 1);
  for (int i = 0; i < graphs; ++i) {
    CostGraph g;
    g.name = "k" + std::to_string(i);
    g.family = i % 2 ? "odd" : "even";
    g.opcode = {0};
    const float f = u(rng), size = u(rng);
    g.nodeFeatures = {f, size};
    for (const KernelConfig& c : kernelConfigs(std::vector<int32_t>{1, 2})) {
      appendConfigFeatures(c, false, g.configFeatures);
      double t = 1e-4 * (1 + 4 * size) / c.threads;
      t *= c.layout == 1 ? (f > 0.5f ? 0.6 : 1.5) : 1.0;
      t *= c.tiles == 4 ? 1.3 : 1.0;
      g.runtime.push_back(t);
      g.threads.push_back(c.threads);
    }
    d.graphs.push_back(g);
  }
  return d;
}

// A plan-task graph: a chain of n nodes, nodes 0, 2, 4, ... configurable; runtime = sum over
// configurable nodes of 1 + layout x weight(node) (+3 or -2 by the node's feature), in microseconds.
CostDataset chainPlans(int64_t n, int configs, uint64_t seed) {
  CostDataset d;
  d.task = CostTask::Plan;
  d.nodeWidth = 1;
  d.configWidth = kConfigWidth;
  d.opcodes = {"op"};
  CostGraph g;
  g.name = "chain";
  g.family = "chain";
  for (int64_t v = 0; v < n; ++v) {
    g.opcode.push_back(0);
    g.nodeFeatures.push_back(static_cast<float>(v % 4) / 4.0f);
    if (v > 0) g.edges.push_back({static_cast<int32_t>(v - 1), static_cast<int32_t>(v)});
    if (v % 2 == 0) g.configNodes.push_back(static_cast<int32_t>(v));
  }
  std::mt19937_64 rng(seed);
  for (int c = 0; c < configs; ++c) {
    double us = 10;
    for (int32_t v : g.configNodes) {
      const uint8_t layout = std::bernoulli_distribution(0.5)(rng) ? 1 : 0;
      appendConfigFeatures({1, layout, 1}, true, g.configFeatures);
      us += 1 + layout * ((v % 4 == 0) ? 3.0 : -2.0);
    }
    g.runtime.push_back(us * 1e-6);
  }
  d.graphs.push_back(g);
  return d;
}

}  // namespace

TEST(CostLosses, ListMleMatchesTheHandValueAndItsGradient) {
  // runtimes: item 1 fastest, then 0; ListMLE = mean(log(e^s1 + e^s0) - s1, 0)
  torch::Tensor s = torch::tensor({0.3, 1.2}, torch::requires_grad());
  const torch::Tensor runtime = torch::tensor({2.0, 1.0});
  torch::Tensor loss = rl::listMleLoss(s, runtime);
  const double expected = (std::log(std::exp(0.3) + std::exp(1.2)) - 1.2) / 2;
  EXPECT_NEAR(loss.item<double>(), expected, 1e-6);
  loss.backward();
  const double p1 = std::exp(1.2) / (std::exp(0.3) + std::exp(1.2));
  EXPECT_NEAR(s.grad()[1].item<double>(), (p1 - 1) / 2, 1e-6);
  EXPECT_NEAR(s.grad()[0].item<double>(), (1 - p1) / 2, 1e-6);
}

TEST(CostLosses, PairwiseHingeCountsViolatedPairs) {
  // runtimes 1 < 2 < 3; scores put item 2 first: pairs (0,1) ok by 1.0, (0,2) violated, (1,2) violated
  torch::Tensor s = torch::tensor({1.0, 0.0, 0.5}, torch::requires_grad());
  torch::Tensor loss = rl::pairwiseHingeLoss(s, torch::tensor({1.0, 2.0, 3.0}), 0.1);
  // (0,1): max(0, 0.1 - 1) = 0; (0,2): max(0, 0.1 - 0.5) = 0; (1,2): max(0, 0.1 + 0.5) = 0.6
  EXPECT_NEAR(loss.item<double>(), 0.6 / 3, 1e-6);
  loss.backward();
  EXPECT_NEAR(s.grad()[1].item<double>(), -1.0 / 3, 1e-6);
  EXPECT_NEAR(s.grad()[2].item<double>(), 1.0 / 3, 1e-6);
  EXPECT_NEAR(s.grad()[0].item<double>(), 0, 1e-6);
}

TEST(CostModelTraining, LearnsARankingAcrossFamilies) {
  const CostDataset all = ruleData(120, 1);
  CostDataset train, test;
  splitByFamily(all, {"odd"}, train, test);
  CostTrainOptions o;
  o.epochs = 80;
  o.graphsPerStep = 8;
  CostTrainResult r;
  const rl::LearnedCostModel m = rl::trainCostModel(train, o, {}, nullptr, r);
  EXPECT_EQ(r.epochs, 80);
  EXPECT_GT(r.steps, 0);
  const RankingScores s = scoreRanking(test, rl::predictCosts(m, test));
  EXPECT_GT(s.kendallTau, 0.8) << s.kendallTau;
  EXPECT_LT(s.top1, 0.05) << s.top1;
}

TEST(CostModelTraining, AllSegmentsSampledIsPlainTraining) {
  const CostDataset d = chainPlans(40, 24, 2);
  CostTrainOptions o;
  o.epochs = 3;
  o.configsPerStep = 8;
  o.seed = 5;
  CostTrainResult plain, segmented;
  o.segmentNodes = 0;
  const auto a = rl::trainCostModel(d, o, {}, nullptr, plain);
  // segments of 40 nodes: one segment, always sampled
  o.segmentNodes = 40;
  const auto b = rl::trainCostModel(d, o, {}, nullptr, segmented);
  EXPECT_DOUBLE_EQ(plain.finalLoss, segmented.finalLoss);
  EXPECT_EQ(rl::predictCosts(a, d), rl::predictCosts(b, d));
}

TEST(CostModelTraining, SegmentTrainingLearnsAPlanRanking) {
  const CostDataset train = chainPlans(400, 64, 3), test = chainPlans(400, 64, 4);
  CostTrainOptions o;
  o.epochs = 40;
  o.configsPerStep = 16;
  o.loss = RankingLoss::Hinge;
  o.segmentNodes = 50;  // 8 segments, 7 sampled per update, the 8th from the table
  o.segmentsPerStep = 7;
  CostTrainResult r;
  const auto m = rl::trainCostModel(train, o, {}, nullptr, r);
  EXPECT_EQ(m.segmentNodes, 50);
  const RankingScores s = scoreRanking(test, rl::predictCosts(m, test));
  EXPECT_GT(s.kendallTau, 0.5) << s.kendallTau;
}

TEST(CostModelFile, RoundTripsAndRefusesOtherFiles) {
  const CostDataset d = ruleData(20, 7);
  CostTrainOptions o;
  o.epochs = 2;
  CostTrainResult r;
  const auto m = rl::trainCostModel(d, o, {}, nullptr, r);
  const auto path = std::filesystem::temp_directory_path() / "gp_cost_model_test.pt";
  rl::saveLearnedCostModel(m, path.string());
  const auto back = rl::loadLearnedCostModel(path.string());
  EXPECT_EQ(back.opcodes, m.opcodes);
  EXPECT_EQ(back.task, CostTask::Kernel);
  EXPECT_EQ(rl::predictCosts(back, d), rl::predictCosts(m, d));
  // other widths and tasks: one line
  CostDataset wide = d;
  wide.nodeWidth = 3;
  for (CostGraph& g : wide.graphs) g.nodeFeatures.push_back(0);
  try {
    rl::predictCosts(back, wide);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "costmodel: the data's feature widths (3 node, 8 config) are not the model's (2, 8)");
  }
  EXPECT_THROW(rl::predictCosts(back, chainPlans(10, 2, 1)), Error);
  {
    std::ofstream bad(path, std::ios::trunc);
    bad << "not a model";
  }
  EXPECT_THROW(rl::loadLearnedCostModel(path.string()), Error);
  EXPECT_THROW(rl::loadLearnedCostModel("/nonexistent/m.pt"), Error);
  std::filesystem::remove(path);
}

TEST(CpuMeasurement, RunsEveryKindAndConfiguration) {
  rl::CpuMeasurementSource cpu;
  EXPECT_EQ(cpu.deviceKind().rfind("cpu:", 0), 0u);
  ASSERT_FALSE(cpu.threadChoices().empty());
  EXPECT_EQ(cpu.threadChoices().front(), 1);
  std::vector<KernelSpec> kernels;
  auto add = [&](KernelSpec::Kind kind) {
    KernelSpec k;
    k.kind = kind;
    k.m = 16, k.n = 8, k.k = 12, k.batch = kind == KernelSpec::Kind::Gemm && kernels.empty() ? 2 : 1;
    k.convN = 1, k.convC = 4, k.convH = 8, k.convW = 8, k.convK = 8, k.convR = 3, k.convS = 3, k.stride = 2;
    if (kind == KernelSpec::Kind::Pool) k.convR = k.convS = 2;
    k.rows = 6, k.cols = 10;
    kernels.push_back(k);
  };
  for (int kind = 0; kind <= static_cast<int>(KernelSpec::Kind::Copy); ++kind) add(static_cast<KernelSpec::Kind>(kind));
  add(KernelSpec::Kind::Gemm);  // batch 1
  std::vector<KernelRun> runs;
  for (const KernelSpec& k : kernels)
    for (const KernelConfig& c : kernelConfigs(cpu.threadChoices())) runs.push_back({{{k, c.layout, c.tiles}}, c.threads});
  const auto t = cpu.time(runs, 2);
  ASSERT_EQ(t.size(), runs.size());
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_GE(t[i].seconds, 0) << i;
    EXPECT_GE(t[i].spread, 0) << i;
  }
  std::atomic<bool> stop{true};
  rl::CpuMeasurementSource cancelled(&stop);
  EXPECT_THROW(cancelled.time(runs, 1), Error);
}
