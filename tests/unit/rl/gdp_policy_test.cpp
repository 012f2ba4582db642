// The GDP/GO policy (core/rl/gdp_policy.h): output shapes and device masks across graph sizes
// (1 op to 20k ops) and device counts (2 to 16), sampling never picks a masked device, every
// parameter gets a gradient, determinism under torch::manual_seed, a forward+backward
// timing figure at 10k ops (printed, not asserted); the level heads' sparse evaluation against the
// dense one; Graph Segment Training (every segment sampled = the full gradient, a fresh table
// reproduces the full pass, the table's refresh, stale-embedding dropout, the segment layout).
#include "rl/gdp_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ATen/CPUGeneratorImpl.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "rl/graph_features.h"
#include "rl/policy_tensors.h"
#include "synthetic_graph.h"

using namespace gp;
using namespace gp::rl;

namespace {

constexpr double kMasked = -1e9;

struct Prepared {
  GraphFeatures features;
  PolicyInput input;
};

Prepared prepare(const Graph& g) {
  static const Cluster cluster = loadCluster("4xP100-PCIe");
  CostModel cost(g, cluster);
  Prepared p;
  p.features = buildGraphFeatures(g, cost);
  p.input = toPolicyInput(p.features);
  return p;
}

// n independent ops (no edges); all in one colocation group when `oneGroup`.
Graph noEdges(int n, bool oneGroup) {
  GraphBuilder b("flat");
  for (int i = 0; i < n; ++i)
    b.addOp({.name = "op" + std::to_string(i),
             .type = i % 2 ? "MatMul" : "Relu",
             .outputs = {{"", {8, 8}}},
             .flops = 1e6 * (i + 1),
             .colocGroup = oneGroup ? "all" : ""});
  return std::move(b).build("flat");
}

// A binary tree of n ops, ops i reading op (i - 1) / 2; the ops of each subtree under node 1 and 2
// form colocation groups of varying sizes (every 5th op joins group "g<i % 3>").
Graph tree(int n) {
  GraphBuilder b("tree");
  TensorId in = b.addGraphInput({"in", {16, 16}});
  std::vector<OpId> ops;
  for (int i = 0; i < n; ++i) {
    OpDesc d{.name = "t/" + std::to_string(i), .type = i % 3 ? "MatMul" : "Add"};
    d.inputs = {i == 0 ? in : b.output(ops[static_cast<size_t>((i - 1) / 2)])};
    d.outputs = {{"", {16, 16}}};
    d.flops = 1e5;
    if (i % 5 == 0) d.colocGroup = "g" + std::to_string(i % 3);
    ops.push_back(b.addOp(std::move(d)));
  }
  return std::move(b).build("tree");
}

// Checks shapes, the mask, finiteness, and that sampling stays below numDevices.
void checkOutput(const PolicyOutput& out, const PolicyInput& in, int64_t numDevices) {
  ASSERT_EQ(out.unitLogits.dim(), 2);
  ASSERT_EQ(out.unitLogits.size(0), in.numUnits);
  ASSERT_EQ(out.unitLogits.size(1), kMaxDevices);
  ASSERT_EQ(out.value.dim(), 0);
  EXPECT_TRUE(std::isfinite(out.value.item<float>()));
  auto valid = out.unitLogits.slice(1, 0, numDevices);
  EXPECT_TRUE(torch::isfinite(valid).all().item<bool>());
  EXPECT_GT(valid.min().item<float>(), -1e6f);
  if (numDevices < kMaxDevices) {
    auto masked = out.unitLogits.slice(1, numDevices);
    EXPECT_TRUE((masked == static_cast<float>(kMasked)).all().item<bool>()) << numDevices;
  }
  // Sampling: many draws per unit on small graphs, one per unit on large ones.
  const int64_t draws = in.numUnits < 100 ? 200 : 1;
  auto probs = torch::softmax(out.unitLogits, 1);
  if (numDevices < kMaxDevices) {
    EXPECT_EQ(probs.slice(1, numDevices).max().item<float>(), 0.0f);
  }
  auto samples = torch::multinomial(probs, draws, /*replacement=*/true);
  EXPECT_LT(samples.max().item<int64_t>(), numDevices);
  EXPECT_GE(samples.min().item<int64_t>(), 0);
  // Log-probabilities and entropy (what PPO computes) stay finite.
  auto logp = torch::log_softmax(out.unitLogits, 1);
  auto entropy = -(probs * logp).sum(1);
  EXPECT_TRUE(torch::isfinite(entropy).all().item<bool>());
  EXPECT_TRUE(torch::isfinite(logp.gather(1, samples.slice(1, 0, 1))).all().item<bool>());
}

}  // namespace

TEST(GdpPolicy, ShapesAndMasksAcrossGraphSizesAndDeviceCounts) {
  torch::manual_seed(1);
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("one op", noEdges(1, false));
  graphs.emplace_back("no edges", noEdges(10, false));
  graphs.emplace_back("one unit", noEdges(37, true));
  graphs.emplace_back("tree", tree(300));
  graphs.emplace_back("resnet50", loadModel("zoo:resnet50"));
  graphs.emplace_back("chain 20k", gptest::syntheticChainGraph(20000));
  for (auto& [name, g] : graphs) {
    Prepared p = prepare(g);
    GdpPolicy policy(p.features.featureDim);
    torch::NoGradGuard noGrad;
    for (int64_t devices : {2, 4, 8, 16}) {
      SCOPED_TRACE(name + " on " + std::to_string(devices) + " devices");
      checkOutput(policy->forward(p.input, devices), p.input, devices);
    }
  }
}

TEST(GdpPolicy, UnitsOfManyOpsGetOneRow) {
  torch::manual_seed(2);
  Graph g = noEdges(37, true);
  Prepared p = prepare(g);
  ASSERT_EQ(p.input.numUnits, 1);
  GdpPolicy policy(p.features.featureDim);
  auto out = policy->forward(p.input, 4);
  EXPECT_EQ(out.unitLogits.sizes(), (std::vector<int64_t>{1, kMaxDevices}));
}

TEST(GdpPolicy, RejectsBadDeviceCounts) {
  Graph g = noEdges(3, false);
  Prepared p = prepare(g);
  GdpPolicy policy(p.features.featureDim);
  EXPECT_THROW(policy->forward(p.input, 0), c10::Error);
  EXPECT_THROW(policy->forward(p.input, kMaxDevices + 1), c10::Error);
}

TEST(GdpPolicy, GradientsReachEveryParameter) {
  for (bool film : {true, false}) {
    SCOPED_TRACE(film ? "with FiLM" : "without FiLM");
    torch::manual_seed(3);
    Graph g = tree(700);  // several segments of 128: memory path and padding in use
    Prepared p = prepare(g);
    PolicyConfig config;
    config.film = film;
    GdpPolicy policy(p.features.featureDim, config);
    auto out = policy->forward(p.input, 4, {true, true});
    // two sampled placements: the scheduling and fusion heads read them (action residuals)
    auto opDevice = torch::randint(0, 4, {2, p.input.numOps}, torch::kInt64);
    auto levels = torch::randint(0, config.scheduleLevels, {2, p.input.numOps}, torch::kInt64);
    auto loss = out.unitLogits.slice(1, 0, 4).sum() + out.value +
                policy->scheduleLogits(out, p.input, opDevice).pow(2).sum() +
                policy->fusionLogits(out, p.input, opDevice, levels).pow(2).sum();
    loss.backward();
    int checked = 0;
    for (const auto& item : policy->named_parameters()) {
      const auto& param = item.value();
      if (!param.defined() || !param.requires_grad()) continue;  // MHA's unused slots
      ++checked;
      ASSERT_TRUE(param.grad().defined()) << item.key();
      EXPECT_TRUE(torch::isfinite(param.grad()).all().item<bool>()) << item.key();
      EXPECT_GT(param.grad().abs().sum().item<float>(), 0.0f) << item.key();
    }
    EXPECT_GE(checked, film ? 20 + 24 : 19 + 24);  // + the scheduling and fusion stacks, embeddings, heads
  }
}

TEST(GdpPolicy, MaskedLogitsGetNoGradientButStayFinite) {
  torch::manual_seed(4);
  Graph g = tree(50);
  Prepared p = prepare(g);
  GdpPolicy policy(p.features.featureDim);
  auto out = policy->forward(p.input, 2);
  auto logp = torch::log_softmax(out.unitLogits, 1);
  auto entropy = -(logp.exp() * logp).sum();
  (logp.select(1, 0).sum() + entropy).backward();
  for (const auto& param : policy->parameters()) {
    if (param.grad().defined()) {
      EXPECT_TRUE(torch::isfinite(param.grad()).all().item<bool>());
    }
  }
}

TEST(GdpPolicy, DeterministicUnderManualSeed) {
  Graph g = loadModel("zoo:resnet50");
  Prepared p = prepare(g);
  auto run = [&] {
    torch::manual_seed(42);
    GdpPolicy policy(p.features.featureDim);
    auto out = policy->forward(p.input, 8);
    auto samples = torch::multinomial(torch::softmax(out.unitLogits, 1), 1).squeeze(1);
    return std::make_tuple(out.unitLogits.detach(), out.value.detach(), samples);
  };
  auto [logits1, value1, samples1] = run();
  auto [logits2, value2, samples2] = run();
  EXPECT_TRUE(torch::equal(logits1, logits2));
  EXPECT_TRUE(torch::equal(value1, value2));
  EXPECT_TRUE(torch::equal(samples1, samples2));
  // A different seed gives a different network.
  torch::manual_seed(43);
  GdpPolicy other(p.features.featureDim);
  EXPECT_FALSE(torch::equal(other->forward(p.input, 8).unitLogits.detach(), logits1));
}

TEST(GdpPolicy, ForwardBackwardTimingAt10kOps) {
  const int threads = torch::get_num_threads();
  torch::set_num_threads(2);
  torch::manual_seed(5);
  Graph g = gptest::syntheticChainGraph(10000);
  Prepared p = prepare(g);
  GdpPolicy policy(p.features.featureDim);
  std::vector<double> ms;
  for (int rep = 0; rep < 3; ++rep) {
    auto start = std::chrono::steady_clock::now();
    policy->zero_grad();
    auto out = policy->forward(p.input, 8);
    auto loss = torch::log_softmax(out.unitLogits, 1).select(1, 0).sum() + out.value;
    loss.backward();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf(
      "[ timing ] GdpPolicy forward+backward, 10k ops, hidden 64, 2 threads: median %.1f ms, "
      "min %.1f ms\n",
      ms[ms.size() / 2], ms.front());
  torch::set_num_threads(threads);
  SUCCEED();
}

namespace {

// The scalar PPO-like loss of a pass: unit logits, value, and the level heads on K decisions.
torch::Tensor lossOf(GdpPolicy& policy, const PolicyOutput& out, const PolicyInput& in, const torch::Tensor& opDevice,
                     const torch::Tensor& levels) {
  return out.unitLogits.slice(1, 0, 4).pow(2).mean() + out.value +
         policy->scheduleLogits(out, in, opDevice).pow(2).mean() +
         policy->fusionLogits(out, in, opDevice, levels).pow(2).mean();
}

std::vector<torch::Tensor> gradients(GdpPolicy& policy) {
  std::vector<torch::Tensor> g;
  for (const auto& p : policy->parameters())
    g.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
  return g;
}

struct GstFixture {
  Graph g = tree(1500);  // 12 attention segments of 128, 6 GST segments of 256
  Prepared p = prepare(g);
  GdpPolicy policy{nullptr};
  torch::Tensor opDevice, levels;
  GstFixture() {
    torch::manual_seed(11);
    policy = GdpPolicy(p.features.featureDim);
    opDevice = torch::randint(0, 4, {2, p.input.numOps}, torch::kInt64);
    levels = torch::randint(0, 4, {2, p.input.numOps}, torch::kInt64);
  }
  PolicyOutput full(HistoryTable* record = nullptr) { return policy->forward(p.input, 4, {true, true}, record); }
};

}  // namespace

TEST(GdpPolicy, SparseLevelHeadsEqualTheDenseOnes) {
  GstFixture f;
  const int64_t n = f.p.input.numOps;
  auto ref = torch::randint(0, 4, {n}, torch::kInt64);
  auto refLevel = torch::randint(0, 4, {n}, torch::kInt64);
  // three samples: the reference itself, a few ops moved, and a random plan
  auto opDevice = ref.unsqueeze(0).repeat({3, 1});
  opDevice.index_put_({1, torch::arange(0, 40)}, (ref.slice(0, 0, 40) + 1) % 4);
  opDevice[2] = torch::randint(0, 4, {n}, torch::kInt64);
  auto levels = refLevel.unsqueeze(0).repeat({3, 1});
  levels.index_put_({1, torch::arange(100, 120)}, (refLevel.slice(0, 100, 120) + 1) % 4);
  auto out = f.full();
  auto denseS = f.policy->scheduleLogits(out, f.p.input, opDevice);
  auto sparseS = f.policy->scheduleLogits(out, f.p.input, opDevice, ref);
  auto denseF = f.policy->fusionLogits(out, f.p.input, opDevice, levels);
  auto sparseF = f.policy->fusionLogits(out, f.p.input, opDevice, levels, ref, refLevel);
  EXPECT_TRUE(torch::allclose(denseS, sparseS, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(denseF, sparseF, 1e-5, 1e-5));
  // and the same gradients
  f.policy->zero_grad();
  (denseS.pow(2).sum() + denseF.pow(2).sum()).backward({}, /*retain_graph=*/true);
  auto dense = gradients(f.policy);
  f.policy->zero_grad();
  (sparseS.pow(2).sum() + sparseF.pow(2).sum()).backward();
  auto sparse = gradients(f.policy);
  for (size_t i = 0; i < dense.size(); ++i) EXPECT_TRUE(torch::allclose(dense[i], sparse[i], 1e-4, 1e-5)) << i;
}

TEST(GdpPolicy, SegmentTrainingWithEverySegmentSampledGivesTheFullGradient) {
  GstFixture f;
  f.policy->zero_grad();
  HistoryTable table;
  lossOf(f.policy, f.full(&table), f.p.input, f.opDevice, f.levels).backward();
  auto full = gradients(f.policy);
  ASSERT_TRUE(table.filled());

  f.policy->zero_grad();
  auto seg = f.policy->forwardSegments(f.p.input, 4, {true, true}, table, allSegments(f.p.input.numOps));
  lossOf(f.policy, seg, f.p.input, f.opDevice, f.levels).backward();
  auto all = gradients(f.policy);
  double norm = 0;
  for (size_t i = 0; i < full.size(); ++i) {
    EXPECT_TRUE(torch::allclose(full[i], all[i], 1e-4, 1e-6)) << i;
    norm += full[i].abs().sum().item<double>();
  }
  EXPECT_GT(norm, 0);

  // Every segment drawn by sampleSegments (count >= segments): the same.
  at::Generator gen = at::detail::createCPUGenerator(1);
  SegmentSample every = sampleSegments(f.p.input.numOps, 256, 100, 0.5, gen);
  EXPECT_EQ(every.sampled, every.segments);
  EXPECT_TRUE(torch::equal(every.ranks, torch::arange(f.p.input.numOps, torch::kInt64)));
  EXPECT_EQ(every.keepRanks.sum().item<double>(), f.p.input.numOps);
}

TEST(GdpPolicy, SegmentTrainingOnAFreshTableReproducesTheFullPassButNotItsGradient) {
  GstFixture f;
  HistoryTable table;
  auto full = f.full(&table);
  at::Generator gen = at::detail::createCPUGenerator(2);
  SegmentSample some = sampleSegments(f.p.input.numOps, 256, 2, /*keep=*/1.0, gen);
  EXPECT_EQ(some.sampled, 2);
  EXPECT_EQ(some.segments, 6);
  EXPECT_EQ(some.ranks.size(0), 512);
  auto seg = f.policy->forwardSegments(f.p.input, 4, {true, true}, table, some);
  // the same values: the table holds this policy's states for this input
  EXPECT_TRUE(torch::allclose(full.unitLogits, seg.unitLogits, 1e-4, 1e-5));
  EXPECT_NEAR(full.value.item<double>(), seg.value.item<double>(), 1e-5);
  EXPECT_TRUE(torch::allclose(full.scheduleState, seg.scheduleState, 1e-4, 1e-5));
  EXPECT_TRUE(torch::allclose(full.fusionState, seg.fusionState, 1e-4, 1e-5));
  // the table's rows carry no gradient, only the sampled ops' rows do: another gradient
  f.policy->zero_grad();
  lossOf(f.policy, full, f.p.input, f.opDevice, f.levels).backward();
  const torch::Tensor fullGrad = f.policy->named_parameters()["sage0.weight"].grad().clone();
  f.policy->zero_grad();
  lossOf(f.policy, seg, f.p.input, f.opDevice, f.levels).backward();
  const torch::Tensor segGrad = f.policy->named_parameters()["sage0.weight"].grad();
  EXPECT_GT(segGrad.abs().sum().item<double>(), 0);
  EXPECT_FALSE(torch::allclose(fullGrad, segGrad, 1e-3, 1e-6));
}

TEST(GdpPolicy, HistoryTableRefreshesAndStaleEmbeddingDropoutLeavesPooledMeans) {
  GstFixture f;
  HistoryTable before;
  auto full = f.full(&before);
  ASSERT_EQ(before.layers.size(), 4u);  // input projection + 3 GraphSAGE layers
  EXPECT_FALSE(before.placed.requires_grad());
  // a weight change: the old table is stale, a new pass refreshes it
  {
    torch::NoGradGuard noGrad;
    for (auto& p : f.policy->parameters()) p.add_(0.05 * torch::randn_like(p));
  }
  HistoryTable after;
  auto changed = f.full(&after);
  EXPECT_FALSE(torch::allclose(before.placed, after.placed, 1e-4, 1e-5));
  at::Generator gen = at::detail::createCPUGenerator(3);
  SegmentSample some = sampleSegments(f.p.input.numOps, 256, 2, 1.0, gen);
  auto onStale = f.policy->forwardSegments(f.p.input, 4, {true, true}, before, some);
  auto onFresh = f.policy->forwardSegments(f.p.input, 4, {true, true}, after, some);
  EXPECT_TRUE(torch::allclose(onFresh.unitLogits, changed.unitLogits, 1e-4, 1e-5));
  EXPECT_FALSE(torch::allclose(onStale.unitLogits, changed.unitLogits, 1e-4, 1e-5));

  // dropout: keep 0 pools the sampled segments only, keep 1 all, keep 0.5 about half the others
  for (double keep : {0.0, 1.0}) {
    at::Generator g2 = at::detail::createCPUGenerator(4);
    SegmentSample s = sampleSegments(f.p.input.numOps, 256, 2, keep, g2);
    EXPECT_EQ(s.keepRanks.sum().item<double>(), keep == 0 ? s.ranks.size(0) : f.p.input.numOps) << keep;
    auto out = f.policy->forwardSegments(f.p.input, 4, {true, true}, after, s);
    if (keep == 0) EXPECT_GT(std::abs(out.value.item<double>() - changed.value.item<double>()), 1e-6);
    else EXPECT_NEAR(out.value.item<double>(), changed.value.item<double>(), 1e-5);
  }
  at::Generator g3 = at::detail::createCPUGenerator(5);
  SegmentSample many = sampleSegments(200 * 64, 64, 2, 0.5, g3);  // 198 unsampled segments
  const double keptStale = (many.keepRanks.sum().item<double>() - 128) / 64;
  EXPECT_GT(keptStale, 70);
  EXPECT_LT(keptStale, 128);
}

TEST(GdpPolicy, SegmentLayoutOfWantedRanksMatchesTheFullLayout) {
  for (int64_t n : {100, 128, 300, 1000}) {
    const SegmentLayout all = segmentLayout(n, 128);
    auto wanted = torch::tensor({int64_t{0}, n / 2, n - 1});
    const SegmentLayout some = segmentLayout(n, 128, wanted);
    EXPECT_LE(some.count, 3);
    for (int64_t i = 0; i < wanted.size(0); ++i) {
      const int64_t r = wanted[i].item<int64_t>();
      // the row holds the same query rank in both layouts
      EXPECT_EQ(some.query[some.take[i].item<int64_t>()].item<int64_t>(), r) << n;
      EXPECT_EQ(all.query[all.take[r].item<int64_t>()].item<int64_t>(), r) << n;
    }
  }
}
