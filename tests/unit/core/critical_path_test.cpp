// The critical path and slack of simulated steps whose timelines are derived by hand, on the
// toy cluster (1e12 FLOPs = 1 s, 1e6 bytes on a link = 1 s; see test_clusters.h), and their
// invariants on zoo models.
#include "sim/critical_path.h"

#include <gtest/gtest.h>

#include <random>

#include "base/error.h"
#include "graph/graph_builder.h"
#include "graph/training.h"
#include "sim/simulator.h"
#include "zoo/zoo.h"

#include "test_clusters.h"

using namespace gp;

namespace {

// Ops of `seconds` x 1e12 FLOPs with 1e6-byte outputs (1 s on a link).
struct Dag {
  GraphBuilder b{"dag"};
  OpId op(const std::string& name, std::vector<OpId> inputs, double seconds = 1, const std::string& type = "MatMul") {
    OpDesc d{.name = name, .type = type, .flops = seconds * 1e12};
    for (OpId i : inputs) d.inputs.push_back(b.output(i));
    d.outputs = {{"", {250000}}};  // 1e6 bytes
    return b.addOp(std::move(d));
  }
  Graph build() { return std::move(b).build("dag"); }
};

struct Explained {
  Measurement m;
  StepAnalysis a;
};

Explained explain(const Graph& g, const Cluster& c, const Plan& p) {
  CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  Explained e{sim.run(p), {}};
  e.a = analyzeStep(cost, p, e.m);
  return e;
}

// (kind, id, via) of each path step, as a compact string: "K0 T0> K2 ..." with the cause letter
// after: " " start, ">" data, "q" queued on the device, "l" link busy.
std::string shape(const StepAnalysis& a) {
  std::string out;
  for (const PathStep& s : a.path) {
    if (!out.empty()) out += ' ';
    out += s.kind == PathStep::Kind::Kernel ? 'K' : 'T';
    out += std::to_string(s.id);
    out += s.via == PathStep::Via::Start ? "" : s.via == PathStep::Via::Data ? ">" : s.via == PathStep::Via::DeviceQueue ? "q" : "l";
  }
  return out;
}

}  // namespace

TEST(CriticalPath, ChainOnOneDeviceIsTheWholeChain) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  d.op("c", {b});
  Graph g = d.build();
  Explained e = explain(g, gptest::toyCluster(), Plan::singleDevice(3));
  EXPECT_EQ(shape(e.a), "K0 K1> K2>");
  EXPECT_DOUBLE_EQ(e.a.stepTime, 3.0);
  EXPECT_DOUBLE_EQ(e.a.computeByDevice[0], 3.0);
  EXPECT_DOUBLE_EQ(e.a.computeByDevice[1], 0.0);
  EXPECT_DOUBLE_EQ(e.a.transferTime(), 0.0);
  for (double s : e.a.opSlack) EXPECT_DOUBLE_EQ(s, 0.0);
}

TEST(CriticalPath, ForkJoinAcrossASlowLinkRunsThroughTheTransfers) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  OpId c = d.op("c", {a});
  d.op("d", {b, c});
  Graph g = d.build();
  // a, b, d on gpu0; c on gpu1: a 0-1; b 1-2; a->gpu1 1-2; c 2-3; c->gpu0 3-4; d 4-5
  const Cluster cl = gptest::toyCluster();
  Explained e = explain(g, cl, Plan{{0, 0, 1, 0}, {}, {}});
  ASSERT_DOUBLE_EQ(e.m.stepTime, 5.0);
  EXPECT_EQ(shape(e.a), "K0 T0> K2> T2> K3>");  // tensor ids: each op's output has its op's id
  EXPECT_DOUBLE_EQ(e.a.computeByDevice[0], 2.0);
  EXPECT_DOUBLE_EQ(e.a.computeByDevice[1], 1.0);
  EXPECT_DOUBLE_EQ(e.a.transferTime(), 2.0);
  // each transfer is charged to its route's first slowest channel: the sender's link to the switch
  const PathStep& there = e.a.path[1];
  EXPECT_EQ(cl.channel(there.channel).name, "gpu0->sw");
  EXPECT_EQ(there.device, 0);
  EXPECT_EQ(there.dst, 1);
  EXPECT_EQ(there.bytes, 1'000'000);
  EXPECT_EQ(cl.channel(e.a.path[3].channel).name, "gpu1->sw");
  EXPECT_DOUBLE_EQ(e.a.computeTime() + e.a.transferTime(), e.a.stepTime);
  // b (1-2) feeds only d, which starts at 4: it could finish 2 s later
  EXPECT_DOUBLE_EQ(e.a.opSlack[b], 2.0);
  EXPECT_DOUBLE_EQ(e.a.opSlack[a], 0.0);
  EXPECT_DOUBLE_EQ(e.a.opSlack[c], 0.0);
}

TEST(CriticalPath, AKernelQueuedBehindAnotherIsEnteredThroughItsDevice) {
  Dag d;
  OpId s = d.op("s", {});
  OpId x = d.op("x", {s});
  OpId y = d.op("y", {s});
  OpId z = d.op("z", {y});
  Graph g = d.build();
  // FIFO on gpu0: s 0-1, x 1-2, y 2-3 (ready at 1), y->gpu1 3-4, z 4-5
  Explained e = explain(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {}, {}});
  ASSERT_DOUBLE_EQ(e.m.stepTime, 5.0);
  EXPECT_EQ(shape(e.a), "K0 K1> K2q T2> K3>");
  EXPECT_DOUBLE_EQ(e.a.path[2].ready, 1.0);
  EXPECT_DOUBLE_EQ(e.a.path[2].waited(), 1.0);
  EXPECT_DOUBLE_EQ(e.a.queuedByDevice[0], 1.0);
  EXPECT_DOUBLE_EQ(e.a.queuedByDevice[1], 0.0);
  for (OpId op : {s, x, y, z}) EXPECT_DOUBLE_EQ(e.a.opSlack[op], 0.0) << op;
  // y first (priority): y 1-2, x 2-3 while y travels 2-3, z 3-4; x now has 1 s of slack
  Explained first = explain(g, gptest::toyCluster(), Plan{{0, 0, 0, 1}, {0, 0, 5, 0}, {}});
  ASSERT_DOUBLE_EQ(first.m.stepTime, 4.0);
  EXPECT_EQ(shape(first.a), "K0 K2> T2> K3>");
  EXPECT_DOUBLE_EQ(first.a.opSlack[x], 1.0);
  EXPECT_DOUBLE_EQ(first.a.queuedByDevice[0], 0.0);
}

TEST(CriticalPath, ATransferBehindAnotherOnItsLinkIsEnteredThroughTheLink) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {}, 0.5);
  OpId x = d.op("x", {a});
  d.op("y", {b});
  Graph g = d.build();
  // gpu0: a 0-1, b 1-1.5 (ready at 0); a->gpu1 1-2; b->gpu1 sent at 1.5, the link busy until 2: 2-3;
  // gpu1: x 2-3, y 3-4
  const Cluster cl = gptest::toyCluster();
  Explained e = explain(g, cl, Plan{{0, 0, 1, 1}, {}, {}});
  ASSERT_DOUBLE_EQ(e.m.stepTime, 4.0);
  EXPECT_EQ(shape(e.a), "K0 T0> T1l K3>");
  const PathStep& blocked = e.a.path[2];
  EXPECT_DOUBLE_EQ(blocked.ready, 1.5);
  EXPECT_DOUBLE_EQ(blocked.waited(), 0.5);
  EXPECT_EQ(cl.channel(blocked.waitedOn).name, "gpu0->sw");
  EXPECT_DOUBLE_EQ(e.a.linkBusyByChannel[blocked.waitedOn], 0.5);
  EXPECT_DOUBLE_EQ(e.a.transferTime(), 2.0);
  EXPECT_DOUBLE_EQ(e.a.computeTime(), 2.0);
  // b could finish 0.5 s later: its transfer would still wait for the link until 2
  EXPECT_DOUBLE_EQ(e.a.opSlack[b], 0.5);
  // x runs before y on gpu1 and ends when y's input arrives: in that order, no slack
  EXPECT_DOUBLE_EQ(e.a.opSlack[x], 0.0);
}

TEST(CriticalPath, MemoryBoundKernelsOnThePathAreTold) {
  Dag d;
  OpId a = d.op("a", {}, 0.5);                   // MatMul: 0.5 s of compute, 1e6 bytes written
  OpId b = d.op("b", {a}, 1e-6, "Add");          // elementwise: reads and writes 1e6 bytes each
  d.op("c", {b}, 0.5);
  Graph g = d.build();
  // memory at 1 MB/s: the Add moves 2e6 bytes (2 s); the MatMuls are charged their memory too:
  // a writes 1e6 bytes (1 s > 0.5 s of compute), c reads and writes 2e6 bytes (2 s)
  Explained slow = explain(g, gptest::toyCluster(1, 2, 0.001), Plan::singleDevice(3));
  ASSERT_EQ(slow.a.path.size(), 3u);
  for (const PathStep& s : slow.a.path) EXPECT_TRUE(s.memoryBound) << s.id;
  EXPECT_DOUBLE_EQ(slow.a.memoryBoundByDevice[0], slow.a.computeByDevice[0]);
  EXPECT_DOUBLE_EQ(slow.a.stepTime, 5.0);
  // memory fast enough for the MatMuls (10 MB/s: a 0.1 s, c 0.2 s of memory), not for the Add
  Explained mixed = explain(g, gptest::toyCluster(1, 2, 0.01), Plan::singleDevice(3));
  ASSERT_EQ(mixed.a.path.size(), 3u);
  EXPECT_FALSE(mixed.a.path[0].memoryBound);
  EXPECT_TRUE(mixed.a.path[1].memoryBound);
  EXPECT_FALSE(mixed.a.path[2].memoryBound);
  EXPECT_DOUBLE_EQ(mixed.a.memoryBoundByDevice[0], 0.2);
  EXPECT_DOUBLE_EQ(mixed.a.stepTime, 1.2);
}

TEST(CriticalPath, APlanThatDidNotRunIsAnErrorNotACrash) {
  Dag d;
  d.op("a", {});
  Graph g = d.build();
  const Cluster cl = gptest::toyCluster();
  CostModel cost(g, cl, gptest::exactCosts());
  Simulator sim(cost);
  const Plan bad{{7}, {}, {}};
  Measurement m = sim.run(bad);
  EXPECT_THROW(analyzeStep(cost, bad, m), Error);
  Measurement quiet = sim.run(Plan::singleDevice(1), /*recordTimeline=*/false);
  EXPECT_THROW(analyzeStep(cost, Plan::singleDevice(1), quiet), Error);
}

// On zoo training graphs with random placements (runs of ops in id order on one device): the path
// is gapless from 0 to the step time, its times add up to the step time, its kernels have no
// slack, no op has negative slack, and no wait exceeds the step.
TEST(CriticalPath, InvariantsOnZooModelsWithRandomPlans) {
  const Cluster cl = loadCluster("4xP100-PCIe");
  std::mt19937 rng(7);
  for (const char* name : {"inception_v3", "rnnlm", "transformer_xl"}) {
    ZooParams params;
    params.layers = std::string(name) == "inception_v3" ? 0 : 2;
    params.hidden = std::string(name) == "inception_v3" ? 0 : 64;
    Graph g = deriveTrainingGraph(makeZooModel(name, params));
    CostModel cost(g, cl);
    Simulator sim(cost);
    for (int trial = 0; trial < 3; ++trial) {
      Plan p = Plan::singleDevice(g.numOps());
      std::uniform_int_distribution<int> dev(0, cl.numDevices() - 1);
      int32_t run = 0;
      for (OpId op = 0; op < g.numOps(); ++op) {  // runs of ops in id order on one device
        if (run-- <= 0) {
          run = static_cast<int32_t>(rng() % 40);
          p.device[op] = dev(rng);
        } else {
          p.device[op] = p.device[op - 1];
        }
      }
      Measurement m = sim.run(p);
      ASSERT_TRUE(m.problem.empty() || m.feasible) << m.problem;
      StepAnalysis a = analyzeStep(cost, p, m);
      ASSERT_FALSE(a.path.empty()) << name;
      EXPECT_DOUBLE_EQ(a.path.front().start, 0.0) << name;
      EXPECT_DOUBLE_EQ(a.path.back().end, m.stepTime) << name;
      for (size_t i = 1; i < a.path.size(); ++i) EXPECT_DOUBLE_EQ(a.path[i].start, a.path[i - 1].end) << name << " " << i;
      EXPECT_NEAR(a.computeTime() + a.transferTime(), m.stepTime, 1e-9 * m.stepTime) << name;
      for (const PathStep& s : a.path) {
        if (s.kind == PathStep::Kind::Kernel) {
          EXPECT_NEAR(a.opSlack[s.id], 0.0, 1e-9 * m.stepTime) << name;
        }
      }
      for (double s : a.opSlack) EXPECT_GE(s, 0.0);
      for (double w : a.queuedByDevice) EXPECT_LE(w, m.stepTime) << name;  // a union of waits, not a sum
      for (double w : a.linkBusyByChannel) EXPECT_LE(w, m.stepTime) << name;
    }
  }
}

// Moving c next to its inputs takes c's compute and the two transfers off the path and puts c on
// gpu0, where it now waits 1 s behind b.
TEST(CriticalPath, DeltasBetweenTwoPlansSayWhatMovedOnThePath) {
  Dag d;
  OpId a = d.op("a", {});
  OpId b = d.op("b", {a});
  OpId c = d.op("c", {a});
  d.op("d", {b, c});
  Graph g = d.build();
  const Cluster cl = gptest::toyCluster();
  Explained split = explain(g, cl, Plan{{0, 0, 1, 0}, {}, {}});  // 5 s: a, a->gpu1, c, c->gpu0, d
  Explained one = explain(g, cl, Plan::singleDevice(4));        // 4 s: a, b, c (queued 1 s), d on gpu0
  ASSERT_EQ(shape(one.a), "K0 K1> K2q K3>");
  const auto deltas = pathDeltas(split.a, one.a);
  ASSERT_EQ(deltas.size(), 5u);
  double onPath = 0;
  for (const PathDelta& x : deltas)
    if (x.part == PathDelta::Part::Compute || x.part == PathDelta::Part::Transfer) onPath += x.seconds;
  EXPECT_DOUBLE_EQ(onPath, -1.0);  // the step's change
  EXPECT_EQ(deltas[0].part, PathDelta::Part::Compute);  // gpu0: +2 s (b and c join a and d)
  EXPECT_EQ(deltas[0].resource, 0);
  EXPECT_DOUBLE_EQ(deltas[0].seconds, 2.0);
  EXPECT_EQ(deltas[1].part, PathDelta::Part::Compute);  // gpu1: -1 s
  EXPECT_DOUBLE_EQ(deltas[1].seconds, -1.0);
  EXPECT_EQ(deltas[2].part, PathDelta::Part::Transfer);
  EXPECT_EQ(deltas[3].part, PathDelta::Part::Transfer);
  EXPECT_EQ(deltas[4].part, PathDelta::Part::Queued);  // c waits behind b
  EXPECT_DOUBLE_EQ(deltas[4].seconds, 1.0);
  EXPECT_TRUE(pathDeltas(one.a, one.a).empty());
}
