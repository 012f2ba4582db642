// Simulator semantics on small DAGs whose step time is derived by hand. The test cluster:
// devices of 1 TFLOP/s (f32), memory so fast that every op here is compute-bound, no launch
// overhead, joined through a switch by 1 MB/s links with no latency: 1e12 FLOPs = 1 s, 1e6 bytes = 1 s.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/graph_builder.h"
#include "sim/lower_bound.h"
#include "sim/simulator.h"

#include "test_clusters.h"

using namespace gp;

namespace {


// Ops of 1e12 FLOPs (1 s) with 1e6-byte outputs (1 s on the link).
struct Dag {
  GraphBuilder b{"dag"};
  OpId op(const std::string& name, std::vector<OpId> inputs, double seconds = 1) {
    OpDesc d{.name = name, .type = "MatMul", .flops = seconds * 1e12};
    for (OpId i : inputs) d.inputs.push_back(b.output(i));
    d.outputs = {{"", {250000}}};  // 1e6 bytes
    return b.addOp(std::move(d));
  }
  Graph build() { return std::move(b).build("dag"); }
};

Measurement simulate(const Graph& g, const Cluster& c, const Plan& p) {
  CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  return sim.run(p);
}

}  // namespace

TEST(Simulator, ChainOnOneDevice) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  d.op("c", {b});
  Graph g = d.build();
  Measurement m = simulate(g, gptest::toyCluster(), Plan::singleDevice(3));
  EXPECT_TRUE(m.feasible) << m.problem;
  EXPECT_DOUBLE_EQ(m.stepTime, 3.0);
  EXPECT_DOUBLE_EQ(m.devices[0].busy, 3.0);
  EXPECT_EQ(m.commBytes, 0);
  EXPECT_DOUBLE_EQ(m.lowerBound, 3.0);  // the critical path
}

TEST(Simulator, ForkJoinAcrossTwoDevicesWithTransfers) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  OpId c = d.op("c", {a});
  d.op("d", {b, c});
  Graph g = d.build();
  // a, b, d on gpu0; c on gpu1: a 0-1; b 1-2; a->gpu1 1-2; c 2-3; c->gpu0 3-4; d 4-5
  Measurement m = simulate(g, gptest::toyCluster(), Plan{{0, 0, 1, 0}, {}, {}});
  EXPECT_TRUE(m.feasible) << m.problem;
  EXPECT_DOUBLE_EQ(m.stepTime, 5.0);
  EXPECT_EQ(m.commBytes, 2'000'000);
  EXPECT_DOUBLE_EQ(m.devices[1].busy, 1.0);
  int transfers = 0;
  for (const auto& e : m.timeline) transfers += e.kind == TimelineEvent::Kind::Transfer;
  EXPECT_EQ(transfers, 2);
}

TEST(Simulator, TensorIsSentOncePerDestinationDevice) {
  Dag d;
  OpId a = d.op("a", {});
  d.op("x", {a});
  d.op("y", {a});
  Graph g = d.build();
  // x and y on gpu1 both read a: one transfer. a 0-1, send 1-2, x 2-3, y 3-4
  Measurement m = simulate(g, gptest::toyCluster(), Plan{{0, 1, 1}, {}, {}});
  EXPECT_EQ(m.commBytes, 1'000'000);
  EXPECT_DOUBLE_EQ(m.stepTime, 4.0);
}

TEST(Simulator, PriorityReordersTheReadyQueue) {
  Dag d;
  OpId s = d.op("s", {});
  d.op("x", {s});
  OpId y = d.op("y", {s});
  d.op("z", {y});
  Graph g = d.build();
  // FIFO on gpu0: x 1-2, y 2-3, y->gpu1 3-4, z 4-5.
  EXPECT_DOUBLE_EQ(simulate(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {}, {}}).stepTime, 5.0);
  // y first: y 1-2, x 2-3 while y travels 2-3, z 3-4.
  EXPECT_DOUBLE_EQ(simulate(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {0, 0, 5, 0}, {}}).stepTime, 4.0);
}

TEST(Simulator, FusionIsOneKernelWithoutItsInternalTensors) {
  Dag d;
  OpId a = d.op("a", {});
  d.op("b", {a});
  Graph g = d.build();
  Measurement plain = simulate(g, gptest::toyCluster(), Plan::singleDevice(2));
  Measurement fused = simulate(g, gptest::toyCluster(), Plan{{0, 0}, {}, {1, 1}});
  EXPECT_TRUE(fused.feasible) << fused.problem;
  EXPECT_DOUBLE_EQ(fused.stepTime, 2.0);  // summed FLOPs in one kernel
  int kernels = 0;
  for (const auto& e : fused.timeline) kernels += e.kind == TimelineEvent::Kind::Op && e.start == 0 && e.end == 2.0;
  EXPECT_EQ(kernels, 2);  // both ops span the one fused kernel
  // a's output lives only inside the fused kernel: never allocated
  EXPECT_EQ(plain.devices[0].peakMemory, 2'000'000);
  EXPECT_EQ(fused.devices[0].peakMemory, 1'000'000);
  Measurement split = simulate(g, gptest::toyCluster(), Plan{{0, 1}, {}, {1, 1}});
  EXPECT_FALSE(split.feasible);
  EXPECT_NE(split.problem.find("cannot fuse"), std::string::npos) << split.problem;
}

TEST(Simulator, MemoryOverCapacityIsInfeasibleAndSaysByHowMuch) {
  GraphBuilder b("mem");
  TensorId w = b.addParameter({"w", {500'000'000}});  // 2 GB of weights
  b.addOp({.name = "m", .type = "MatMul", .inputs = {w}, .outputs = {{"", {1}}}, .flops = 1e12});
  Graph g = std::move(b).build("mem");
  Measurement m = simulate(g, gptest::toyCluster(1), Plan::singleDevice(1));
  EXPECT_FALSE(m.feasible);
  EXPECT_NE(m.problem.find("gpu0 needs 1.86 GiB"), std::string::npos) << m.problem;
  EXPECT_NE(m.problem.find("over its 1.00 GiB"), std::string::npos) << m.problem;
  EXPECT_GE(m.devices[0].peakMemory, 2'000'000'000);
}

TEST(Simulator, ActivationsAreFreedAfterTheirLastUse) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  OpId c = d.op("c", {b});
  d.op("e", {c});
  Graph g = d.build();
  // at most two 1e6-byte tensors live at once (input and output of the running op) + the sink
  Measurement m = simulate(g, gptest::toyCluster(), Plan::singleDevice(4));
  EXPECT_EQ(m.devices[0].peakMemory, 2'000'000);
}

TEST(Simulator, BadPlansAreReportedNotCrashed) {
  Dag d;
  d.op("a", {});
  Graph g = d.build();
  EXPECT_FALSE(simulate(g, gptest::toyCluster(), Plan{{5}, {}, {}}).feasible);
  EXPECT_FALSE(simulate(g, gptest::toyCluster(), Plan{{}, {}, {}}).feasible);
}

// Over random DAGs and plans: lower bound <= step time <= every op and transfer in sequence.
TEST(Simulator, PropertyStepTimeBetweenBoundAndSerialSum) {
  std::mt19937 rng(42);
  Cluster c = gptest::toyCluster(64, 4);
  for (int trial = 0; trial < 200; ++trial) {
    Dag d;
    const int n = 2 + static_cast<int>(rng() % 30);
    std::vector<OpId> ops;
    for (int i = 0; i < n; ++i) {
      std::vector<OpId> in;
      for (int k = 0; k < 3 && i > 0; ++k)
        if (rng() % 2) in.push_back(ops[rng() % ops.size()]);
      std::sort(in.begin(), in.end());
      in.erase(std::unique(in.begin(), in.end()), in.end());
      ops.push_back(d.op("op" + std::to_string(i), in, 0.1 + (rng() % 100) / 50.0));
    }
    Graph g = d.build();
    Plan p;
    for (int i = 0; i < n; ++i) p.device.push_back(static_cast<int32_t>(rng() % 4));
    if (trial % 2) {
      for (int i = 0; i < n; ++i) p.priority.push_back(static_cast<int32_t>(rng() % 10));
    }
    CostModel cost(g, c, gptest::exactCosts());
    Simulator sim(cost);
    Measurement m = sim.run(p);
    ASSERT_TRUE(m.feasible) << m.problem;
    double serial = 0;
    for (OpId op = 0; op < g.numOps(); ++op) serial += cost.opTime(op, p.device[op]);
    for (const auto& e : m.timeline)
      if (e.kind == TimelineEvent::Kind::Transfer) serial += e.end - e.start;
    EXPECT_GE(m.stepTime, m.lowerBound - 1e-9) << "trial " << trial;
    EXPECT_LE(m.stepTime, serial + 1e-9) << "trial " << trial;
    // buffers are reused: a second run gives the same answer
    EXPECT_DOUBLE_EQ(sim.run(p, false).stepTime, m.stepTime);
  }
}

TEST(Simulator, FusedPlansNeverBeatTheirLowerBound) {
  // A real cluster (launch overhead, finite memory bandwidth): fusing a memory-bound chain
  // saves launches and traffic, and the bound must allow for it.
  GraphBuilder b("chain");
  TensorId x = b.addGraphInput({"x", {1 << 20}});
  OpId a = b.addOp({.name = "a", .type = "Relu", .inputs = {x}, .outputs = {{"", {1 << 20}}}, .flops = 1 << 20});
  OpId c = b.addOp({.name = "b", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"", {1 << 20}}}, .flops = 1 << 20});
  b.addOp({.name = "c", .type = "Add", .inputs = {b.output(c), x}, .outputs = {{"", {1 << 20}}}, .flops = 1 << 20});
  Graph g = std::move(b).build("chain");
  Cluster cl = loadCluster("4xP100-PCIe");
  CostModel cost(g, cl);
  Simulator sim(cost);
  Measurement plain = sim.run(Plan::singleDevice(3));
  Measurement fused = sim.run(Plan{{0, 0, 0}, {}, {0, 0, 0}});
  ASSERT_TRUE(fused.feasible) << fused.problem;
  EXPECT_LT(fused.stepTime, plain.stepTime);
  EXPECT_GE(fused.stepTime, fused.lowerBound);
  EXPECT_GE(fused.ratio(), 1.0);
  // x is read by a and c but crosses the kernel boundary once: 2 boundary tensors of 4 MiB
  const double launch = cl.device(0).launchOverhead;
  const double bandwidth = cl.device(0).memBandwidth * CostParams{}.bandwidthEfficiency;
  EXPECT_NEAR(fused.stepTime, std::max(cl.framework().opOverhead, launch + 2.0 * (4 << 20) / bandwidth), 1e-9);
}

TEST(Simulator, ExtremePrioritiesKeepTheirOrder) {
  Dag d;
  OpId s = d.op("s", {});
  d.op("x", {s});
  OpId y = d.op("y", {s});
  d.op("z", {y});
  Graph g = d.build();
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  EXPECT_DOUBLE_EQ(simulate(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {lo, lo, hi, lo}, {}}).stepTime, 4.0);
  EXPECT_DOUBLE_EQ(simulate(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {lo, lo, lo, lo}, {}}).stepTime, 5.0);
}
