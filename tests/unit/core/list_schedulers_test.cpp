// The list schedulers (m_etf, m_sct, heft): their own schedules are consistent (no two ops of a
// device overlap, no op starts before its inputs), and the simulator, given the plan with the
// schedule's start order as priorities, reproduces the step time the scheduler predicted.
// Hand-built graphs run on the toy cluster of test_clusters.h (1e12 FLOPs = 1 s, 1e6 bytes = 1 s
// on a link, every link through one switch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/graph_builder.h"
#include "placement/list_schedulers.h"
#include "placement/placement_util.h"
#include "placement/placer.h"
#include "sim/simulator.h"
#include "test_clusters.h"
#include "io/model_loader.h"

using namespace gp;

namespace {

// A random layered DAG: `layers` layers of up to `width` ops of 0.1-2 s, each reading one to
// three outputs of earlier layers (0.01-3 s on a link); the first layer reads a graph input.
Graph randomDag(uint32_t seed, int layers, int width) {
  std::mt19937 rng(seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  GraphBuilder b("dag" + std::to_string(seed));
  const TensorId x = b.addGraphInput({"x", {100}});
  std::vector<TensorId> made;
  for (int l = 0; l < layers; ++l) {
    const int n = 1 + static_cast<int>(rng() % width);
    std::vector<TensorId> layer;
    for (int i = 0; i < n; ++i) {
      std::vector<TensorId> in;
      if (made.empty()) {
        in.push_back(x);
      } else {
        const int k = 1 + static_cast<int>(rng() % 3);
        for (int j = 0; j < k; ++j) {
          // mostly the previous layer, sometimes further back
          const size_t back = std::min<size_t>(made.size(), rng() % 4 == 0 ? made.size() : 2 * width);
          const TensorId t = made[made.size() - 1 - rng() % back];
          if (std::find(in.begin(), in.end(), t) == in.end()) in.push_back(t);
        }
      }
      const auto floats = static_cast<int64_t>(uniform(2.5e3, 7.5e5));  // 4 bytes each
      std::string name = "l";  // built step by step: GCC 12 warns (-Wrestrict) on a + chain here
      name.append(std::to_string(l)).append("/op").append(std::to_string(i));
      const OpId op = b.addOp({.name = name, .type = "MatMul",
                               .inputs = in, .outputs = {{"", {floats}}}, .flops = uniform(1e11, 2e12)});
      layer.push_back(b.output(op));
    }
    made.insert(made.end(), layer.begin(), layer.end());
  }
  return std::move(b).build("dag");
}

placement::ListSchedule schedule(const std::string& method, const placement::Context& ctx) {
  std::string note;
  if (method == "heft") return placement::scheduleHeft(ctx, note);
  return placement::scheduleEtf(ctx, method == "m_sct", note);
}

// Ops of one device never overlap; every op starts after its inputs exist on its device.
void expectConsistent(const Graph& g, const CostModel& cost, const placement::ListSchedule& s) {
  const int n = cost.cluster().numDevices();
  for (int d = 0; d < n; ++d) {
    std::vector<OpId> ops;
    for (OpId op = 0; op < g.numOps(); ++op)
      if (s.plan.device[op] == d && cost.opTime(op, d) > 0) ops.push_back(op);
    std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return s.start[a] < s.start[b]; });
    for (size_t i = 1; i < ops.size(); ++i)
      ASSERT_GE(s.start[ops[i]], s.finish[ops[i - 1]] - 1e-9)
          << g.opName(ops[i]) << " overlaps " << g.opName(ops[i - 1]) << " on device " << d;
  }
  for (OpId op = 0; op < g.numOps(); ++op) {
    EXPECT_NEAR(s.finish[op] - s.start[op], cost.opTime(op, s.plan.device[op]), 1e-9) << g.opName(op);
    for (OpId p : g.fanIn(op)) {
      const double need = s.plan.device[p] == s.plan.device[op] ? s.finish[p]
                                                                : s.finish[p] + cost.transferTime(0, s.plan.device[p], s.plan.device[op]);
      EXPECT_GE(s.start[op], need - 1e-9) << g.opName(op) << " starts before " << g.opName(p) << " is there";
    }
  }
  double last = 0;
  for (OpId op = 0; op < g.numOps(); ++op) last = std::max(last, s.finish[op]);
  EXPECT_DOUBLE_EQ(s.makespan, last);
}

const char* const kSchedulers[] = {"m_etf", "m_sct", "heft"};

}  // namespace

// Fork-join on two devices: a (1 s) feeds b and c (2 s each, 0.5 s transfers), d joins them.
// Every scheduler runs b and c in parallel, d after the shorter wait: a, 0.5 s transfer, c, then
// b's output crosses (0.5 s) while c runs: 1 + 0.5 + 2 + 1 = 4.5 s against 6 s on one device,
// and the simulator agrees exactly.
TEST(ListSchedulers, ForkJoinPredictionMatchesSimulator) {
  GraphBuilder b("forkjoin");
  const TensorId x = b.addGraphInput({"x", {10}});
  const OpId a = b.addOp({.name = "a", .type = "MatMul", .inputs = {x}, .outputs = {{"", {125000}}}, .flops = 1e12});
  const OpId l = b.addOp({.name = "b", .type = "MatMul", .inputs = {b.output(a)}, .outputs = {{"", {125000}}}, .flops = 2e12});
  const OpId r = b.addOp({.name = "c", .type = "MatMul", .inputs = {b.output(a)}, .outputs = {{"", {125000}}}, .flops = 2e12});
  b.addOp({.name = "d", .type = "Add", .inputs = {b.output(l), b.output(r)}, .outputs = {{"", {10}}}, .flops = 1e12});
  const Graph g = std::move(b).build("forkjoin");
  const Cluster c = gptest::toyCluster(1, 2);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  const placement::Context ctx(cost, sim);
  for (const char* method : kSchedulers) {
    SCOPED_TRACE(method);
    const placement::ListSchedule s = schedule(method, ctx);
    expectConsistent(g, cost, s);
    EXPECT_NEAR(s.makespan, 4.5, 1e-9);
    EXPECT_NE(s.plan.device[l], s.plan.device[r]);
    ASSERT_EQ(s.plan.priority.size(), static_cast<size_t>(g.numOps()));
    EXPECT_NEAR(sim.run(s.plan, false).stepTime, s.makespan, 1e-9);
  }
}

// A transfer is not worth it when the consumer waits less on its producer's device: a chain with
// 2 s transfers and 1 s ops stays on one device (5 ops = 5 s).
TEST(ListSchedulers, ChainWithExpensiveTransfersStaysTogether) {
  GraphBuilder b("chain");
  TensorId prev = b.addGraphInput({"x", {10}});
  for (int i = 0; i < 5; ++i)
    prev = b.output(b.addOp({.name = "op" + std::to_string(i), .type = "MatMul", .inputs = {prev},
                             .outputs = {{"", {500000}}}, .flops = 1e12}));
  const Graph g = std::move(b).build("chain");
  const Cluster c = gptest::toyCluster(1, 4);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  const placement::Context ctx(cost, sim);
  for (const char* method : kSchedulers) {
    SCOPED_TRACE(method);
    const placement::ListSchedule s = schedule(method, ctx);
    EXPECT_NEAR(s.makespan, 5.0, 1e-9);
    EXPECT_EQ(std::count(s.plan.device.begin(), s.plan.device.end(), s.plan.device[0]), 5);
    EXPECT_NEAR(sim.run(s.plan, false).stepTime, 5.0, 1e-9);
  }
}

// Random DAGs on 2-4 devices: the schedule is consistent, and the simulator following it (the
// plan's priorities are the schedule's start order) lands close to the predicted step time.
// They differ where the simulator, which sends every tensor to all its consumer devices as soon
// as it exists, orders transfers on a channel differently from the reservations the scheduler
// made one placement at a time, and where the schedule idles a device on purpose (HEFT's
// insertion, m-SCT waiting for a favourite child) and the work-conserving simulator does not.
TEST(ListSchedulers, PredictionMatchesSimulatorOnRandomDags) {
  double worst = 0;
  int exact = 0, runs = 0;
  std::vector<double> gaps;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    const Graph g = randomDag(seed, 8, 5);
    const Cluster c = gptest::toyCluster(1, 2 + static_cast<int>(seed % 3));
    const CostModel cost(g, c, gptest::exactCosts());
    Simulator sim(cost);
    const placement::Context ctx(cost, sim);
    for (const char* method : kSchedulers) {
      SCOPED_TRACE(std::string(method) + " seed " + std::to_string(seed));
      const placement::ListSchedule s = schedule(method, ctx);
      expectConsistent(g, cost, s);
      const Measurement m = sim.run(s.plan, false);
      ASSERT_TRUE(m.feasible) << m.problem;
      const double gap = std::abs(m.stepTime - s.makespan) / s.makespan;
      worst = std::max(worst, gap);
      exact += gap < 1e-9;
      gaps.push_back(gap);
      ++runs;
      EXPECT_LT(gap, 0.6) << "predicted " << s.makespan << " s, simulated " << m.stepTime << " s";
    }
  }
  // Measured when written: 22 of 90 exact, median gap 3%, worst 51% (m_sct waiting for a
  // favourite child, which the work-conserving simulator does not do).
  std::sort(gaps.begin(), gaps.end());
  EXPECT_LT(gaps[gaps.size() / 2], 0.05) << "median relative gap";
  EXPECT_GE(exact, runs / 5) << "worst relative gap " << worst;
  RecordProperty("worst_gap", std::to_string(worst));
  RecordProperty("exact", std::to_string(exact) + "/" + std::to_string(runs));
}

// On a model that fits one device, m_sct's plan is no slower than that device alone.
TEST(ListSchedulers, SctNoWorseThanOneDeviceOnResnet50) {
  const Graph g = loadModel("zoo:resnet50");  // the training step
  const Cluster c = loadCluster("4xP100-PCIe");
  const CostModel cost(g, c);
  Simulator sim(cost);
  const PlacementResult single = runPlacement("single", cost, sim);
  ASSERT_TRUE(single.measurement.feasible);
  const PlacementResult sct = runPlacement("m_sct", cost, sim);
  ASSERT_TRUE(sct.measurement.feasible);
  EXPECT_LE(sct.measurement.stepTime, single.measurement.stepTime);
}
