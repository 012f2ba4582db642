// PPO against the simulator: reaches the known optimum of a tiny graph, is deterministic for a
// seed, stops within 100 ms of a cancel on a large graph, and round-trips policy checkpoints.
// Hand-built graphs run on the toy cluster (1e12 FLOPs = 1 s, 1e6 bytes = 1 s on a link).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "rl/graph_features.h"
#include "rl/policy_tensors.h"
#include "rl/ppo.h"
#include "sim/simulator.h"
#include "core/test_clusters.h"
#include "rl/chain_graphs.h"
#include "timing_slack.h"

using namespace gp;

namespace {

using gptest::heavyChains;

struct Chains {
  Graph g = heavyChains(2, 4);  // optimum: one chain per device, 4 s
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost{g, c, gptest::exactCosts()};
};

OptimizeOptions scratch(int iterations, uint64_t seed) {
  OptimizeOptions o;
  o.policy.kind = PolicyKind::Scratch;
  o.iterations = iterations;
  o.seed = seed;
  o.threads = 2;
  o.tasks = {true, false, false};  // placement (FIFO, no fusion): the joint tasks have tests of their own
  return o;
}

}  // namespace

TEST(Ppo, ReachesTheOptimumOfTwoHeavyChains) {
  Chains t;
  const double single = Simulator(t.cost).run(Plan::singleDevice(t.g.numOps()), false).stepTime;
  ASSERT_NEAR(single, 8.0, 1e-6);
  std::vector<IterationReport> reports;
  OptimizeResult r = rl::runOptimizer(
      t.cost, scratch(40, 1), [&](const IterationReport& it) { reports.push_back(it); }, nullptr);
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(reports.front().zeroShot);  // the untrained policy's own plan comes first
  reports.erase(reports.begin());
  EXPECT_TRUE(r.measurement.feasible);
  EXPECT_NEAR(r.measurement.stepTime, single / 2, 1e-6);
  EXPECT_FALSE(r.measurement.timeline.empty());
  ASSERT_EQ(r.iterations, 40);
  ASSERT_EQ(r.bestStepTimeHistory.size(), 40u);
  ASSERT_EQ(reports.size(), 40u);
  EXPECT_NEAR(r.bestStepTimeHistory[19], single / 2, 1e-6) << "not within 20 iterations";
  for (size_t i = 1; i < r.bestStepTimeHistory.size(); ++i)
    EXPECT_LE(r.bestStepTimeHistory[i], r.bestStepTimeHistory[i - 1] + 1e-12);
  // the policy itself learned it, not one lucky sample: at the end every sample is optimal
  // (reward -1: step == lower bound) and the policy is nearly deterministic
  EXPECT_NEAR(reports.back().meanReward, -1.0, 1e-6);
  EXPECT_LT(reports.back().entropy, 0.1 * reports.front().entropy);
}

// Graph Segment Training (here on segments of 2 of the 8 ops, a sample of 4 per update): the
// policy still learns the optimum as a whole, deterministically for a seed.
TEST(Ppo, SegmentTrainingLearnsTheOptimumOfTwoHeavyChains) {
  Chains t;
  rl::PpoConfig cfg;
  cfg.gstOps = 4;
  cfg.gstSegment = 2;
  auto train = [&] {
    std::vector<IterationReport> reports;
    rl::PpoTrainer trainer(t.cost, scratch(40, 1), [](int64_t dim) { return rl::makePolicy(dim, 1); }, cfg);
    OptimizeResult r = trainer.run([&](const IterationReport& it) { reports.push_back(it); });
    return std::make_pair(r, reports);
  };
  auto [r, reports] = train();
  ASSERT_EQ(reports.size(), 41u);
  EXPECT_NEAR(r.measurement.stepTime, 4.0, 1e-6);
  EXPECT_NEAR(reports.back().meanReward, -1.0, 1e-6);
  EXPECT_LT(reports.back().entropy, 0.1 * reports[1].entropy);
  auto again = train();
  EXPECT_EQ(again.first.best, r.best);
  EXPECT_EQ(again.first.bestStepTimeHistory, r.bestStepTimeHistory);
}

TEST(Ppo, SameSeedSamePlan) {
  Graph g = loadModel("zoo:resnet50");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  OptimizeOptions o = scratch(3, 7);
  OptimizeResult a = rl::runOptimizer(cost, o, {}, nullptr);
  OptimizeResult b = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.bestStepTimeHistory, b.bestStepTimeHistory);
  o.seed = 8;
  OptimizeResult other = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_NE(a.best, other.best);
}

TEST(Ppo, StartPlanIsACandidate) {
  Chains t;
  OptimizeOptions o = scratch(1, 3);
  Plan optimum = Plan::singleDevice(t.g.numOps());
  for (OpId op = 0; op < t.g.numOps(); ++op)
    if (t.g.opName(op)[0] == 'b') optimum.device[op] = 1;
  o.startPlan = optimum;
  OptimizeResult r = rl::runOptimizer(t.cost, o, {}, nullptr);
  EXPECT_NEAR(r.measurement.stepTime, 4.0, 1e-6);
  EXPECT_EQ(r.best, optimum);
}

// Refining: from a plan twice as slow as the known optimum (chains a, b on device 0, c, d on
// device 1 of four), a few iterations find a strictly better plan, and here the optimum.
TEST(Ppo, ImprovesOnAWorseStartPlan) {
  Graph g = heavyChains(4, 5);
  Cluster c = gptest::toyCluster(1, 4);
  CostModel cost(g, c, gptest::exactCosts());
  Plan start = Plan::singleDevice(g.numOps());
  for (OpId op = 0; op < g.numOps(); ++op) start.device[op] = g.opName(op)[0] >= 'c' ? 1 : 0;
  Simulator sim(cost);
  const double startStep = sim.run(start, false).stepTime;
  ASSERT_NEAR(startStep, 10.0, 1e-6);
  OptimizeOptions o = scratch(5, 2);
  o.startPlan = start;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  ASSERT_TRUE(r.measurement.feasible);
  EXPECT_LT(r.measurement.stepTime, startStep - 1e-6);
  EXPECT_NEAR(r.measurement.stepTime, 5.0, 1e-6);
  EXPECT_NEAR(sim.run(r.best, false).stepTime, r.measurement.stepTime, 1e-9);
  // deterministic for a seed
  OptimizeResult again = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_EQ(again.best, r.best);
  EXPECT_EQ(again.bestStepTimeHistory, r.bestStepTimeHistory);
}

// Without local search and prior (plain PPO), the same start plan is at least kept.
TEST(Ppo, StartPlanIsNeverLost) {
  Graph g = heavyChains(4, 5);
  Cluster c = gptest::toyCluster(1, 4);
  CostModel cost(g, c, gptest::exactCosts());
  Plan start = Plan::singleDevice(g.numOps());
  for (OpId op = 0; op < g.numOps(); ++op) start.device[op] = g.opName(op)[0] >= 'c' ? 1 : 0;
  OptimizeOptions o = scratch(3, 4);
  o.startPlan = start;
  rl::PpoConfig cfg;
  cfg.localMoves = 0;
  cfg.priorMoves = 0;
  rl::PpoTrainer trainer(cost, o, [](int64_t dim) { return rl::makePolicy(dim, 4); }, cfg);
  OptimizeResult r = trainer.run({});
  EXPECT_LE(r.measurement.stepTime, 10.0 + 1e-9);
}

TEST(Ppo, StopsWithin100msOfCancelOnGnmt) {
  Graph g = loadModel("zoo:gnmt");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  torch::set_num_threads(2);
  OptimizeOptions o = scratch(1000, 1);
  o.tasks = {true, true, true};  // every stack and the fuser in the loop
  // Best of three attempts: on a loaded machine (ctest runs tests in parallel) one attempt's
  // return can wait behind other processes for a scheduling slice or two, while a cancel that
  // is not checked inside the iteration misses on every attempt.
  auto attempt = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    rl::PpoTrainer trainer(cost, o, [](int64_t dim) { return rl::makePolicy(dim, 1); });
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::atomic<bool> cancel{false};
    std::chrono::steady_clock::time_point cancelledAt;
    int iterations = 0;
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      cancelledAt = std::chrono::steady_clock::now();
      cancel = true;
    });
    OptimizeResult r = trainer.run([&](const IterationReport& it) { iterations = it.iteration; }, &cancel);
    const auto returned = std::chrono::steady_clock::now();
    canceller.join();
    const double latency = std::chrono::duration<double>(returned - cancelledAt).count();
    std::printf("gnmt (%d ops): setup %.2f s, %d iterations in 0.5 s, cancel latency %.1f ms\n", g.numOps(), setup,
                iterations, latency * 1e3);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.best.device.size(), static_cast<size_t>(g.numOps()));
    return latency;
  };
  const double bound = 0.1 * gptest::kTimingSlack;
  double best = attempt();
  for (int again = 0; again < 2 && best >= bound; ++again) best = std::min(best, attempt());
  EXPECT_LT(best, bound);
}

TEST(Ppo, CheckpointRoundTrip) {
  Chains t;
  rl::GraphFeatures f = rl::buildGraphFeatures(t.g, t.cost);
  rl::PolicyInput in = rl::toPolicyInput(f);
  rl::PolicyConfig config;
  config.hidden = 32;
  config.heads = 2;
  config.sageLayers = 2;
  rl::GdpPolicy p = rl::makePolicy(f.featureDim, 5, config);
  const auto path = (std::filesystem::temp_directory_path() / "gp_ppo_checkpoint_test.pt").string();
  rl::saveCheckpoint(p, path);
  rl::GdpPolicy q = rl::loadCheckpoint(path);
  std::filesystem::remove(path);
  EXPECT_EQ(q->featureDim(), f.featureDim);
  EXPECT_EQ(q->config().hidden, 32);
  EXPECT_EQ(q->config().heads, 2);
  EXPECT_EQ(q->config().sageLayers, 2);
  p->eval();
  q->eval();
  torch::NoGradGuard noGrad;
  rl::PolicyOutput a = p->forward(in, 2), b = q->forward(in, 2);
  EXPECT_TRUE(torch::equal(a.unitLogits, b.unitLogits));
  EXPECT_TRUE(torch::equal(a.value, b.value));
  // a different initialisation gives other logits, so the comparison above can fail
  rl::GdpPolicy other = rl::makePolicy(f.featureDim, 6, config);
  other->eval();
  EXPECT_FALSE(torch::equal(other->forward(in, 2).unitLogits, a.unitLogits));
}

TEST(Ppo, BadCheckpointIsAClearError) {
  const auto path = (std::filesystem::temp_directory_path() / "gp_ppo_not_a_policy.pt").string();
  {
    std::ofstream(path) << "not a policy";
  }
  Chains t;
  OptimizeOptions o = scratch(1, 1);
  o.policy = {PolicyKind::File, path};
  try {
    rl::runOptimizer(t.cost, o, {}, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), path);
  }
  std::filesystem::remove(path);
  o.policy.kind = PolicyKind::ColocRL;
  o.checkpoint = path;  // sessions are GDP's
  EXPECT_THROW(rl::runOptimizer(t.cost, o, {}, nullptr), Error);
}

TEST(Ppo, ZeroShotReturnsAFeasiblePlan) {
  Graph g = loadModel("zoo:resnet50");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  std::vector<IterationReport> calls;
  OptimizeResult r = rl::runOptimizer(cost, scratch(0, 1), [&](const IterationReport& it) { calls.push_back(it); }, nullptr);
  ASSERT_EQ(calls.size(), 1u);  // the zero-shot report, no iteration
  EXPECT_TRUE(calls[0].zeroShot);
  EXPECT_EQ(calls[0].iteration, 0);
  EXPECT_DOUBLE_EQ(calls[0].bestStepTime, r.measurement.stepTime);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(r.measurement.feasible) << r.measurement.problem;
  EXPECT_GT(r.measurement.stepTime, 0);
  EXPECT_EQ(r.best.device.size(), static_cast<size_t>(g.numOps()));
  // the scratch default falls back with a note when no pre-trained policy is shipped
  Chains t;
  OptimizeOptions o = scratch(0, 1);
  o.policy.kind = PolicyKind::Pretrained;
  OptimizeResult d = rl::runOptimizer(t.cost, o, {}, nullptr);
  if (rl::defaultPolicyPath().empty()) {
    EXPECT_NE(d.note.find("from scratch"), std::string::npos);
  }
}

// One PPO iteration (1 forward pass + 8 simulations + 128 local-search moves + 2 x forward/backward) on the ~9k-op NMT
// training graph; printed for docs/performance.md (the target is < 1 s on 2 cores).
TEST(Ppo, IterationTimeOnNmt) {
  Graph g = loadModel("zoo:nmt");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  OptimizeOptions o = scratch(3, 1);
  o.tasks = {true, true, true};
  o.polishShare = 0;  // the iterations alone
  std::vector<double> at;
  OptimizeResult r = rl::runOptimizer(
      cost, o, [&](const IterationReport& it) { if (!it.zeroShot) at.push_back(it.elapsed); }, nullptr);
  ASSERT_EQ(at.size(), 3u);
  std::printf("nmt (%d ops): iterations at %.3f, %.3f, %.3f s; %.3f s per iteration after the first\n", g.numOps(),
              at[0], at[1], at[2], (at[2] - at[0]) / 2);
  EXPECT_TRUE(r.measurement.feasible);
}

// A session checkpoint continues where it stopped: iteration numbers, history, best plan.
TEST(Ppo, CheckpointAndResume) {
  Graph g = heavyChains(4, 5);
  Cluster c = gptest::toyCluster(1, 4);
  CostModel cost(g, c, gptest::exactCosts());
  const auto path = (std::filesystem::temp_directory_path() / "gp_ppo_session_test.pt").string();
  OptimizeOptions o = scratch(3, 2);
  o.checkpoint = path;
  o.checkpointEvery = 1;
  OptimizeResult first = rl::runOptimizer(cost, o, {}, nullptr);
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  rl::LoadedSession s = rl::loadSession(path, g.numOps(), 4);
  EXPECT_EQ(s.session.iterations, 3);
  EXPECT_EQ(s.session.history.size(), 3u);
  EXPECT_EQ(s.session.best.device, first.best.device);

  OptimizeOptions more = scratch(2, 2);
  more.policy.kind = PolicyKind::Pretrained;
  more.resume = path;
  more.checkpoint = path;
  std::vector<int> numbers;
  OptimizeResult second = rl::runOptimizer(cost, more, [&](const IterationReport& it) { numbers.push_back(it.iteration); },
                                           nullptr);
  EXPECT_EQ(second.firstIteration, 4);
  EXPECT_EQ(numbers, (std::vector<int>{4, 5}));
  EXPECT_LE(second.measurement.stepTime, first.measurement.stepTime + 1e-12);  // never loses the resumed best
  EXPECT_NE(second.note.find("resumed after iteration 3"), std::string::npos) << second.note;
  EXPECT_EQ(rl::loadSession(path, g.numOps(), 4).session.iterations, 5);

  // another graph, or a plain policy file, is a clear error
  Chains other;
  try {
    rl::runOptimizer(other.cost, more, {}, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), path);
    EXPECT_NE(std::string(e.what()).find("ops"), std::string::npos) << e.what();
  }
  rl::GdpPolicy p = rl::makePolicy(rl::buildGraphFeatures(g, cost).featureDim, 1);
  rl::saveCheckpoint(p, path);
  EXPECT_THROW(rl::loadSession(path, g.numOps(), 4), Error);
  std::filesystem::remove(path);
}

// With patience, the run stops once the best plan has not improved for that many iterations.
TEST(Ppo, StopsOnConvergence) {
  Chains t;
  OptimizeOptions o = scratch(200, 1);
  o.patience = 5;
  OptimizeResult r = rl::runOptimizer(t.cost, o, {}, nullptr);
  EXPECT_EQ(r.stopReason, StopReason::Converged);
  EXPECT_LT(r.iterations, 200);
  ASSERT_GE(r.bestStepTimeHistory.size(), 5u);
  const auto& h = r.bestStepTimeHistory;  // no gain in the last 5 (the zero-shot plan may be the optimum)
  const double settled = h.size() >= 6 ? h[h.size() - 6] : h.front();
  for (size_t i = h.size() - 5; i < h.size(); ++i) EXPECT_EQ(h[i], settled) << i;
  OptimizeResult full = rl::runOptimizer(t.cost, scratch(7, 1), {}, nullptr);
  EXPECT_EQ(full.stopReason, StopReason::Iterations);
  EXPECT_EQ(full.iterations, 7);
}

// Zero-shot samples the policy without training: never worse than the start plan, no report.
TEST(Ppo, ZeroShotKeepsTheStartPlan) {
  Graph g = heavyChains(4, 5);
  Cluster c = gptest::toyCluster(1, 4);
  CostModel cost(g, c, gptest::exactCosts());
  Plan start = Plan::singleDevice(g.numOps());
  for (OpId op = 0; op < g.numOps(); ++op) start.device[op] = g.opName(op)[0] >= 'c' ? 1 : 0;
  const double startStep = Simulator(cost).run(start, false).stepTime;
  OptimizeOptions o = scratch(0, 3);
  o.startPlan = start;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_EQ(r.stopReason, StopReason::ZeroShot);
  EXPECT_LE(r.measurement.stepTime, startStep + 1e-12);
}

// update = false: sampling and search run, the weights stay as they were.
TEST(Ppo, NoUpdateKeepsTheWeights) {
  Chains t;
  const auto path = (std::filesystem::temp_directory_path() / "gp_ppo_frozen_test.pt").string();
  OptimizeOptions o = scratch(4, 3);
  o.update = false;
  o.saveCheckpoint = path;
  OptimizeResult r = rl::runOptimizer(t.cost, o, {}, nullptr);
  EXPECT_EQ(r.iterations, 4);
  EXPECT_NEAR(r.measurement.stepTime, 4.0, 1e-9);  // the search alone finds the optimum here
  rl::GdpPolicy saved = rl::loadCheckpoint(path);
  rl::GdpPolicy fresh = rl::makePolicy(saved->featureDim(), 3);
  auto a = saved->parameters(), b = fresh->parameters();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << i;
  // with updates the weights move (so the comparison above can fail)
  o.update = true;
  rl::runOptimizer(t.cost, o, {}, nullptr);
  rl::GdpPolicy trained = rl::loadCheckpoint(path);
  bool moved = false;
  auto c = trained->parameters();
  for (size_t i = 0; i < c.size(); ++i) moved |= !torch::equal(c[i], b[i]);
  EXPECT_TRUE(moved);
  std::filesystem::remove(path);
}

// The default policy choice is the search without learning: a new policy, never updated, even
// when updates are asked for — the same run as scratch with update = false.
TEST(Ppo, TheDefaultIsTheSearchWithoutLearning) {
  EXPECT_EQ(OptimizeOptions{}.policy.kind, PolicyKind::Search);
  const Graph g = loadModel("zoo:resnet50");
  const Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  const auto path = (std::filesystem::temp_directory_path() / "gp_ppo_search_test.pt").string();
  OptimizeOptions search = scratch(3, 5);
  search.policy.kind = PolicyKind::Search;
  search.update = true;
  search.saveCheckpoint = path;
  const OptimizeResult a = rl::runOptimizer(cost, search, {}, nullptr);
  OptimizeOptions frozen = scratch(3, 5);
  frozen.update = false;
  const OptimizeResult b = rl::runOptimizer(cost, frozen, {}, nullptr);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.bestStepTimeHistory, b.bestStepTimeHistory);
  rl::GdpPolicy saved = rl::loadCheckpoint(path);
  rl::GdpPolicy fresh = rl::makePolicy(saved->featureDim(), 5);
  auto x = saved->parameters(), y = fresh->parameters();
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_TRUE(torch::equal(x[i], y[i])) << i;
  std::filesystem::remove(path);
}
