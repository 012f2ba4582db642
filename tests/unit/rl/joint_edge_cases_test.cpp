// Edge cases of the joint tasks:
//  - `optimize --resume` refuses a session whose plan breaks the fusion rules (a group over two
//    devices, with two heavy ops, or forming a cycle; a group id out of range) with a one-line
//    gp::Error naming the file, instead of resuming from a plan that never fits or deadlocks;
//  - with placement not a task, the start plan's devices are kept op by op, even where they
//    split a colocation group (rl/decisions.h); a start device outside the cluster is an error.
// Hand-built graphs on the toy cluster (1e12 FLOPs = 1 s, 1e6 bytes = 1 s on a link).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "cluster/cluster.h"
#include "core/test_clusters.h"
#include "cost/cost_model.h"
#include "fusion/fuser.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "rl/decisions.h"
#include "rl/graph_features.h"
#include "rl/policy_file.h"
#include "rl/ppo.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

// a (MatMul) -> b (Relu) -> c (Add, also reads a) -> d (MatMul) -> e (Relu).
Graph diamond() {
  GraphBuilder b("diamond");
  TensorId x = b.addGraphInput({"x", {4}});
  OpId a = b.addOp({.name = "a", .type = "MatMul", .inputs = {x}, .outputs = {{"", {4}}}, .flops = 1e12});
  OpId r = b.addOp({.name = "b", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"", {4}}}, .flops = 1e9});
  OpId c = b.addOp({.name = "c", .type = "Add", .inputs = {b.output(a), b.output(r)}, .outputs = {{"", {4}}},
                    .flops = 1e9});
  OpId d = b.addOp({.name = "d", .type = "MatMul", .inputs = {b.output(c)}, .outputs = {{"", {4}}}, .flops = 1e12});
  b.addOp({.name = "e", .type = "Relu", .inputs = {b.output(d)}, .outputs = {{"", {4}}}, .flops = 1e9});
  return std::move(b).build("diamond");
}

// a (MatMul, 1 s) -> b (Relu) -> c (Add); a and b form colocation group "pair"; a's output
// takes 1 s over a link, so splitting the pair costs 1 s.
Graph colocatedPair() {
  GraphBuilder b("pair");
  TensorId x = b.addGraphInput({"x", {4}});
  OpId a = b.addOp({.name = "a", .type = "MatMul", .inputs = {x}, .outputs = {{"", {250000}}}, .flops = 1e12,
                    .colocGroup = "pair"});
  OpId r = b.addOp({.name = "b", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"", {4}}}, .flops = 1e9,
                    .colocGroup = "pair"});
  b.addOp({.name = "c", .type = "Add", .inputs = {b.output(r)}, .outputs = {{"", {4}}}, .flops = 1e9});
  return std::move(b).build("pair");
}

OptimizeOptions options(OptimizeTasks tasks, int iterations) {
  OptimizeOptions o;
  o.policy.kind = PolicyKind::Scratch;
  o.iterations = iterations;
  o.seed = 1;
  o.threads = 2;
  o.tasks = tasks;
  return o;
}

// Writes a session whose best plan is `plan` (a fresh policy and Adam).
void writeSession(const Graph& g, const CostModel& cost, const Plan& plan, const std::string& path) {
  rl::GdpPolicy p = rl::makePolicy(rl::buildGraphFeatures(g, cost).featureDim, 1);
  torch::optim::Adam adam(p->parameters(), torch::optim::AdamOptions(1e-3));
  rl::saveSession(p, adam, rl::Session{3, plan, {1.0, 0.9, 0.8}}, path);
}

struct TempDir {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gp_joint_edge_cases_test_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(dir); }
  ~TempDir() { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace

TEST(JointEdgeCases, ResumeRefusesASessionThatBreaksTheFusionRules) {
  Graph g = diamond();
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost(g, c, gptest::exactCosts());
  TempDir tmp;
  const std::vector<int32_t> zero(5, 0);
  struct Case {
    const char* name;
    Plan plan;
    const char* expect;  // in the message
  };
  const std::vector<Case> cases{
      {"two_devices", Plan{{0, 0, 0, 0, 1}, {}, {-1, -1, -1, 0, 0}}, "spans two devices"},
      {"two_heavy", Plan{zero, {}, {0, 0, 0, 0, -1}}, "two heavy ops"},
      {"cycle", Plan{zero, {5, 4, 3, 2, 1}, {0, -1, 0, -1, -1}}, "interleave"},  // {a, c} and b: a cycle
      {"bad_id", Plan{zero, {}, {0, 0, -1, -1, 7}}, "fusion group 7"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    const std::string path = tmp.file(std::string(k.name) + ".pt");
    writeSession(g, cost, k.plan, path);
    if (std::string(k.name) != "bad_id") {
      EXPECT_NO_THROW(rl::loadSession(path, g.numOps(), 2));  // the shape alone is fine
    }
    OptimizeOptions o = options({true, true, true}, 1);
    o.resume = path;
    try {
      rl::runOptimizer(cost, o, {}, nullptr);
      ADD_FAILURE() << "resumed from a session that breaks the fusion rules";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.source(), path);
      EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;  // names the file first
      EXPECT_NE(what.find(k.expect), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_THROW(rl::loadSession(path, g, 2), Error);
  }

  // a session that keeps the rules loads, plan and all, and resumes
  const Plan good{{0, 0, 0, 1, 1}, {5, 4, 3, 2, 1}, {0, 0, 0, 1, 1}};  // {a, b, c} on gpu0, {d, e} on gpu1
  ASSERT_EQ(fusionProblem(g, good), "");
  const std::string path = tmp.file("good.pt");
  writeSession(g, cost, good, path);
  rl::LoadedSession s = rl::loadSession(path, g, 2);
  EXPECT_EQ(s.session.best, good);
  EXPECT_EQ(s.session.iterations, 3);
  OptimizeOptions o = options({true, true, true}, 1);
  o.resume = path;
  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_EQ(r.firstIteration, 4);
  EXPECT_EQ(fusionProblem(g, r.best), "");

  // the plan's shape: devices for every op within the cluster, priorities for none or all
  const std::string shape = tmp.file("shape.pt");
  writeSession(g, cost, Plan{zero, {1, 2, 3}, {}}, shape);
  EXPECT_THROW(rl::loadSession(shape, g, 2), Error);
  writeSession(g, cost, Plan{{0, 0, 2, 0, 0}, {}, {}}, shape);
  EXPECT_THROW(rl::loadSession(shape, g, 2), Error);
  writeSession(g, cost, Plan{{0, 0, 0, 0}, {}, {}}, shape);
  EXPECT_THROW(rl::loadSession(shape, g, 2), Error);
  writeSession(g, cost, Plan{zero, {}, {0, 0}}, shape);
  EXPECT_THROW(rl::loadSession(shape, g, 2), Error);
}

// Placement fixed (schedule + fusion): the start plan splits colocation group {a, b} over gpu0
// and gpu1; every plan keeps a on gpu0 and b on gpu1, although putting b beside a is 1 s faster.
TEST(JointEdgeCases, FixedPlacementKeepsTheStartDevicesOpByOp) {
  Graph g = colocatedPair();
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost(g, c, gptest::exactCosts());
  rl::GraphFeatures f = rl::buildGraphFeatures(g, cost);
  ASSERT_EQ(f.numUnits, 2);  // {a, b} and c
  const Plan start{{0, 1, 1}, {}, {}};
  Simulator sim(cost);
  const double split = sim.run(start, false).stepTime, together = sim.run(Plan{{0, 0, 1}, {}, {}}, false).stepTime;
  ASSERT_NEAR(split, 2.002, 1e-6);  // a 1 s, a's output 1 s over the link, b, c: 1 ms each
  ASSERT_LT(together, split - 0.9);

  OptimizeOptions o = options({false, true, true}, 2);
  o.startPlan = start;
  rl::PlanBuilder b(g, f, o, 2);
  rl::Decisions d = b.initial();
  EXPECT_EQ(b.build(d).device, start.device);
  d.units = {1, 0};  // ignored: placement is not a task
  const Plan built = b.build(d);
  EXPECT_EQ(built.device, start.device);
  EXPECT_EQ(fusionProblem(g, built), "");

  OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  ASSERT_TRUE(r.measurement.feasible) << r.measurement.problem;
  ASSERT_EQ(r.best.device.size(), start.device.size());
  for (OpId op = 0; op < g.numOps(); ++op) EXPECT_EQ(r.best.device[op], start.device[op]) << g.opName(op);
  EXPECT_EQ(fusionProblem(g, r.best), "");

  // --fuse plan: the start's group {b, c} on gpu1 stays on one device, so the plan stays feasible
  OptimizeOptions kept = options({false, true, false}, 1);
  kept.fuse = FuseMode::Plan;
  kept.startPlan = Plan{{0, 1, 1}, {}, {-1, 0, 0}};
  rl::PlanBuilder planFusion(g, f, kept, 2);
  const Plan p = planFusion.build(planFusion.initial());
  EXPECT_EQ(p.device, kept.startPlan->device);
  EXPECT_EQ(p.fusionGroup, kept.startPlan->fusionGroup);
  EXPECT_EQ(fusionProblem(g, p), "");
  EXPECT_TRUE(sim.run(p, false).feasible) << sim.run(p, false).problem;

  // with placement optimized, colocation holds: the unit takes its first op's device
  OptimizeOptions withPlacement = options({true, true, false}, 1);
  withPlacement.startPlan = start;
  rl::PlanBuilder placed(g, f, withPlacement, 2);
  EXPECT_EQ(placed.build(placed.initial()).device, (std::vector<int32_t>{0, 0, 1}));

  // placement fixed, a start device outside the cluster: a one-line error naming the op
  OptimizeOptions outside = options({false, true, false}, 1);
  outside.startPlan = Plan{{0, 3, 1}, {}, {}};
  try {
    rl::PlanBuilder(g, f, outside, 2);
    ADD_FAILURE() << "a start device outside the cluster was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'b' on device 3"), std::string::npos) << e.what();
  }
}
