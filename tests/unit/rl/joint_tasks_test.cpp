// GO's joint tasks: decisions -> plans (levels -> priorities and fusion groups), the
// level search, hand-derived cases where the schedule or fusion task provably shortens the step,
// joint training beating placement alone, and the policy/session files that carry them.
// Hand-built graphs run on the toy cluster (1e12 FLOPs = 1 s, 1e6 bytes = 1 s on a link).
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster/cluster.h"
#include "core/test_clusters.h"
#include "cost/cost_model.h"
#include "fusion/fuser.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "rl/decisions.h"
#include "rl/graph_features.h"
#include "rl/level_search.h"
#include "rl/policy_file.h"
#include "rl/ppo.h"
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

// c (1.5 s, no consumer) and a (1 s) on gpu0; a's 3 MB output (3 s over the link) feeds b
// (0.1 s) on gpu1. The critical-path ranks ignore transfers: rank(c) = 1.5 > rank(a) = 1.1, so
// the rank order (and FIFO: c was added first) runs c first: c 0-1.5, a 1.5-2.5, transfer
// 2.5-5.5, b 5.5-5.6 -> 5.6 s. Running a first: a 0-1, transfer 1-4, b 4-4.1, c 1-2.5 -> 4.1 s.
Graph transferFirst() {
  GraphBuilder b("transfer_first");
  TensorId x = b.addGraphInput({"x", {4}});
  b.addOp({.name = "c", .type = "MatMul", .inputs = {x}, .outputs = {{"", {4}}}, .flops = 1.5e12});
  OpId a = b.addOp({.name = "a", .type = "MatMul", .inputs = {x}, .outputs = {{"", {750000}}}, .flops = 1e12});
  b.addOp({.name = "b", .type = "MatMul", .inputs = {b.output(a)}, .outputs = {{"", {4}}}, .flops = 1e11});
  return std::move(b).build("transfer_first");
}

OptimizeOptions options(OptimizeTasks tasks, int iterations, uint64_t seed = 1) {
  OptimizeOptions o;
  o.policy.kind = PolicyKind::Scratch;
  o.iterations = iterations;
  o.seed = seed;
  o.threads = 2;
  o.tasks = tasks;
  return o;
}

}  // namespace

TEST(Decisions, LevelsBecomePrioritiesAndFusionGroups) {
  Graph g = chain({"MatMul", "BiasAdd", "Relu", "MatMul", "Relu"});
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  rl::GraphFeatures f = rl::buildGraphFeatures(g, cost);
  OptimizeOptions o = options({true, true, true}, 1);
  rl::PlanBuilder b(g, f, o, 4);
  rl::Decisions d = b.initial();
  EXPECT_EQ(d.units, std::vector<int32_t>(5, 0));
  EXPECT_EQ(d.schedule, std::vector<int32_t>(5, 0));
  EXPECT_EQ(d.fusion, std::vector<int32_t>(5, 1));  // every op of the chain may fuse
  Plan p = b.build(d);
  EXPECT_EQ(p.priority, f.priority);  // level 0 everywhere: the rank order
  EXPECT_EQ(p.fusionGroup, fuseByPriority(g, p.device, d.fusion));
  EXPECT_EQ(fusionProblem(g, p), "");
  // a higher level outranks every lower one; ranks order ops within a level
  d.schedule = {0, 0, 0, 0, 2};
  p = b.build(d);
  for (int op = 0; op < 4; ++op) EXPECT_GT(p.priority[4], p.priority[op]);
  EXPECT_EQ(p.priority[0], f.priority[0]);
  EXPECT_EQ(p.priority[4], 2 * (5 + 1) + f.priority[4]);
  // fusion level 0: never fuses; ops on two devices never share a group
  d.fusion = {0, 0, 0, 0, 0};
  EXPECT_EQ(b.build(d).fusionGroup, std::vector<int32_t>(5, -1));
  d.fusion = {1, 1, 1, 1, 1};
  d.units = {0, 1, 1, 0, 0};
  p = b.build(d);
  EXPECT_EQ(fusionProblem(g, p), "");
  EXPECT_TRUE(p.fusionGroup[0] == -1 || p.fusionGroup[0] != p.fusionGroup[1]);  // gpu0 | gpu1
  EXPECT_NE(p.fusionGroup[1], -1);
  EXPECT_EQ(p.fusionGroup[1], p.fusionGroup[2]);  // BiasAdd -> Relu, both on gpu1

  // tasks left out keep their defaults: the start plan's devices and priorities, default fusion
  Plan start{{2, 2, 2, 3, 3}, {5, 4, 3, 2, 1}, {}};
  o = options({false, false, true}, 1);
  o.startPlan = start;
  rl::PlanBuilder fusionOnly(g, f, o, 4);
  d = fusionOnly.initial();
  d.units = {0, 0, 0, 0, 0};  // ignored: placement is not a task
  p = fusionOnly.build(d);
  EXPECT_EQ(p.device, start.device);
  EXPECT_EQ(p.priority, start.priority);
  o = options({true, false, false}, 1);
  o.fuse = FuseMode::Default;
  rl::PlanBuilder defaults(g, f, o, 4);
  p = defaults.build(defaults.initial());
  EXPECT_TRUE(p.priority.empty());  // FIFO
  EXPECT_EQ(p.fusionGroup, defaultFusion(g, p.device));
  // contradictions are one-line errors
  o.fuse = FuseMode::Plan;
  EXPECT_THROW(rl::PlanBuilder(g, f, o, 4), Error);
  o = options({false, false, false}, 1);
  EXPECT_THROW(rl::PlanBuilder(g, f, o, 4), Error);
}

TEST(LevelSearch, ReachesTheLevelsAScoreWants) {
  const std::vector<int32_t> target{3, 0, 2, 1, 3, 3, 0, 2};
  const std::vector<uint8_t> eligible{1, 1, 1, 1, 1, 1, 0, 1};  // op 6 may not move
  std::vector<int32_t> levels(8, 1);
  const std::vector<float> probs(8 * 4, 0.25f);
  auto score = [&](const std::vector<int32_t>& l) {
    double s = 1;
    for (size_t i = 0; i < l.size(); ++i) s += std::abs(l[i] - target[i]);
    return s;
  };
  rl::LevelSearch search(4, 5);
  int evaluated = 0;
  const int kept = search.run(levels, probs, eligible, 400, score(levels), [&](const std::vector<std::vector<int32_t>>& ls) {
    std::vector<double> scores;
    for (const auto& l : ls) {
      ++evaluated;
      EXPECT_EQ(l[6], 1) << "an ineligible op moved";
      scores.push_back(score(l));
    }
    return scores;
  }, [] { return false; });
  EXPECT_GT(kept, 0);
  EXPECT_GT(evaluated, kept);
  std::vector<int32_t> expected = target;
  expected[6] = 1;
  EXPECT_EQ(levels, expected);
}

// The schedule task finds the order the ranks get wrong (hand-derived in transferFirst).
TEST(JointTasks, ScheduleRunsTheTransferFirst) {
  Graph g = transferFirst();
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost(g, c, gptest::exactCosts());
  const Plan start{{0, 0, 1}, {}, {}};
  Simulator sim(cost);
  EXPECT_NEAR(sim.run(start, false).stepTime, 5.6, 1e-6);  // FIFO
  rl::GraphFeatures f = rl::buildGraphFeatures(g, cost);
  EXPECT_NEAR(sim.run(Plan{start.device, f.priority, {}}, false).stepTime, 5.6, 1e-6);  // ranks
  EXPECT_NEAR(sim.run(Plan{start.device, {0, 1, 0}, {}}, false).stepTime, 4.1, 1e-6);   // a first

  OptimizeOptions o = options({false, true, false}, 10);
  o.startPlan = start;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_NEAR(r.measurement.stepTime, 4.1, 1e-6);
  EXPECT_EQ(r.best.device, start.device);  // placement was not a task
  ASSERT_EQ(r.best.priority.size(), 3u);
  EXPECT_GT(r.best.priority[1], r.best.priority[0]);
}

// The fusion task fuses a MatMul -> BiasAdd -> Relu chain: fewer launches, less memory traffic.
TEST(JointTasks, FusionShortensAChain) {
  Graph g = chain({"MatMul", "BiasAdd", "Relu", "MatMul", "Relu", "Add"});
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  Simulator sim(cost);
  const Plan start = Plan::singleDevice(g.numOps());
  const double plain = sim.run(start, false).stepTime;
  OptimizeOptions o = options({false, false, true}, 5);
  o.startPlan = start;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  ASSERT_TRUE(r.measurement.feasible);
  EXPECT_EQ(fusionProblem(g, r.best), "");
  EXPECT_LT(r.measurement.stepTime, plain * 0.95);
  EXPECT_LE(r.measurement.stepTime, sim.run(Plan{start.device, {}, defaultFusion(g, start.device)}, false).stepTime *
                                        (1 + 1e-9));
  int fused = 0;
  for (int32_t gid : r.best.fusionGroup) fused += gid >= 0;
  EXPECT_GE(fused, 4);
}

// Joint training on a small graph beats placement alone in the same number of iterations.
TEST(JointTasks, JointBeatsPlacementOnlyOnASmallGraph) {
  Graph g = loadModel("zoo:rnnlm");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  // the searches alone: polishing afterwards is tested on its own (polish_run_test.cpp)
  OptimizeOptions placementOnly = options({true, false, false}, 6), all = options({true, true, true}, 6);
  placementOnly.polishShare = all.polishShare = 0;
  OptimizeResult placement = rl::runOptimizer(cost, placementOnly, {}, nullptr);
  OptimizeResult joint = rl::runOptimizer(cost, all, {}, nullptr);
  ASSERT_TRUE(placement.measurement.feasible && joint.measurement.feasible);
  std::printf("rnnlm (%d ops): placement only %.2f ms, joint %.2f ms\n", g.numOps(),
              placement.measurement.stepTime * 1e3, joint.measurement.stepTime * 1e3);
  EXPECT_LT(joint.measurement.stepTime, placement.measurement.stepTime * 0.97);
  EXPECT_EQ(fusionProblem(g, joint.best), "");
  EXPECT_EQ(joint.best.priority.size(), static_cast<size_t>(g.numOps()));
}

// Sessions keep the best plan's fusion groups; a placement-only policy refuses the other tasks.
TEST(JointTasks, SessionsAndPolicyFilesCarryTheTasks) {
  Graph g = chain({"MatMul", "BiasAdd", "Relu", "MatMul", "Relu"});
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  const auto dir = std::filesystem::temp_directory_path() / "gp_joint_tasks_test";
  std::filesystem::create_directories(dir);
  const std::string session = (dir / "s.pt").string(), placeOnly = (dir / "p.pt").string();
  OptimizeOptions o = options({true, true, true}, 2);
  o.checkpoint = session;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  rl::LoadedSession s = rl::loadSession(session, g.numOps(), c.numDevices());
  EXPECT_EQ(s.session.best, r.best);
  EXPECT_TRUE(s.policy->config().multiTask);

  rl::PolicyConfig config;
  config.multiTask = false;
  rl::GdpPolicy p = rl::makePolicy(rl::buildGraphFeatures(g, cost).featureDim, 1, config);
  rl::saveCheckpoint(p, placeOnly);
  EXPECT_FALSE(rl::loadCheckpoint(placeOnly)->config().multiTask);
  OptimizeOptions joint = options({true, true, false}, 1);
  joint.policy = {PolicyKind::File, placeOnly};
  try {
    rl::runOptimizer(cost, joint, {}, nullptr);
    ADD_FAILURE() << "a placement-only policy ran the schedule task";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("places only"), std::string::npos) << e.what();
  }
  joint.tasks = {true, false, false};
  EXPECT_NO_THROW(rl::runOptimizer(cost, joint, {}, nullptr));
  std::filesystem::remove_all(dir);
}

// A start candidate whose devices simulate better becomes the first incumbent (begin() alone:
// no sampling that could find it by luck); with placement fixed, candidates do not apply.
TEST(JointTasks, TheBestStartCandidateWins) {
  Graph g = transferFirst();
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost(g, c, gptest::exactCosts());
  auto factory = [](int64_t dim) { return rl::makePolicy(dim, 1); };
  OptimizeOptions o = options({true, true, false}, 1);
  o.startPlan = Plan{{0, 0, 0}, {}, {}};  // one device: 2.6 s
  {
    rl::PpoTrainer alone(cost, o, factory);
    alone.begin();
    EXPECT_NEAR(alone.startStepTime(), 2.6, 1e-6);
  }
  o.startCandidates = {Plan{{1, 0, 1}, {}, {}}, Plan{{1, 0, 0}, {}, {}}};  // 4.1 s; c alone on gpu1: 1.5 s
  rl::PpoTrainer t(cost, o, factory);
  t.begin();
  EXPECT_NEAR(t.startStepTime(), 1.5, 1e-6);
  EXPECT_EQ(t.bestPlan().device, (std::vector<int32_t>{1, 0, 0}));
  o.tasks = {false, true, false};
  rl::PpoTrainer fixed(cost, o, factory);
  fixed.begin();
  EXPECT_NEAR(fixed.startStepTime(), 2.6, 1e-6);
  EXPECT_EQ(fixed.bestPlan().device, (std::vector<int32_t>{0, 0, 0}));
}
