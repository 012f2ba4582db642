// The placers' memory model (placement::MemoryTracker, estimatePeakMemory) against the
// simulator's accounting: a graph whose outputs add up to more than a device but whose live
// memory does not stays on one device; the estimates agree with the simulated peaks on zoo
// models; and every placer's plan fits on 4xP100-PCIe for every zoo model at its paper size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"
#include "placement/list_schedulers.h"
#include "placement/placement_util.h"
#include "placement/placer.h"
#include "sim/simulator.h"
#include "test_clusters.h"
#include "zoo/zoo.h"

using namespace gp;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// A chain of `len` 1-second ops, each writing 200 MB that only the next op reads: 2.4 GB of
// outputs for 12 ops, never more than two of them (400 MB) alive at once.
Graph bigOutputChain(int len) {
  GraphBuilder b("chain");
  TensorId prev = b.addGraphInput({"x", {1000}});
  for (int i = 0; i < len; ++i) {
    const OpId op = b.addOp({.name = "op" + std::to_string(i), .type = "MatMul", .inputs = {prev},
                             .outputs = {{"", {50'000'000}}}, .flops = 1e12});
    prev = b.output(op);
  }
  return std::move(b).build("chain");
}

int64_t sumOfOutputs(const Graph& g) {
  int64_t sum = 0;
  for (OpId op = 0; op < g.numOps(); ++op)
    for (TensorId t : g.outputs(op)) sum += g.tensorBytes(t);
  return sum;
}

}  // namespace

TEST(PlacementMemory, LivePeakNotSumOfOutputsDecidesWhatFits) {
  const Graph g = bigOutputChain(12);
  const Cluster c = gptest::toyCluster(1, 2);  // 1 GiB per device; 200 MB take 200 s on a link
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  ASSERT_GT(sumOfOutputs(g), c.device(0).memCapacity);  // the old estimate: does not fit one device
  const Measurement single = sim.run(Plan::singleDevice(g.numOps()), false);
  ASSERT_TRUE(single.feasible) << single.problem;
  EXPECT_LT(single.devices[0].peakMemory, c.device(0).memCapacity / 2);

  for (const char* method : {"m_topo", "m_etf", "m_sct", "heft"}) {
    SCOPED_TRACE(method);
    const PlacementResult r = runPlacement(method, cost, sim);
    EXPECT_TRUE(r.measurement.feasible) << r.measurement.problem;
    EXPECT_EQ(r.note.find("fell back"), std::string::npos) << r.note;
    EXPECT_EQ(r.note.find("repaired"), std::string::npos) << r.note;
    if (std::string(method) == "m_topo") {
      // m-TOPO splits the chain by compute share: one crossing, half the ops on each device.
      EXPECT_EQ(std::count(r.plan.device.begin(), r.plan.device.end(), 0), 6);
    } else {
      // The list schedulers see no reason to cross a 200-second link: one device, 12 s.
      EXPECT_TRUE(std::all_of(r.plan.device.begin(), r.plan.device.end(),
                              [&](int32_t d) { return d == r.plan.device[0]; }));
      EXPECT_NEAR(r.measurement.stepTime, 12.0, 1e-6);
    }
  }
}

TEST(PlacementMemory, TrackerFollowsLiveMemoryOnAChain) {
  const Graph g = bigOutputChain(12);
  const Cluster c = gptest::toyCluster(1, 2);
  const CostModel cost(g, c, gptest::exactCosts());
  Simulator sim(cost);
  placement::Context ctx(cost, sim);
  placement::MemoryTracker mem(ctx);
  const int64_t out = 200'000'000;
  for (OpId op : g.topoOrder()) {
    EXPECT_TRUE(mem.fits(op, 0)) << g.opName(op);
    mem.place(op, 0);
  }
  // The peak is one op's input and output (plus the fed input, still alive while op0 runs).
  EXPECT_EQ(mem.peak(0), 2 * out);
  EXPECT_EQ(mem.peak(1), 0);
  EXPECT_EQ(mem.used(0), out);  // the last output: nobody reads it, kept to the end
  const Plan plan = Plan::singleDevice(g.numOps());
  const Measurement m = sim.run(plan, false);
  EXPECT_EQ(placement::estimatePeakMemory(ctx, plan, g.topoOrder())[0], m.devices[0].peakMemory);
  EXPECT_EQ(m.devices[0].peakMemory, 2 * out);

  // Split in two: the output crossing to gpu1 is there from the moment it is produced (the
  // simulator sends it then), so gpu1 holds it alongside its own first output.
  Plan split = plan;
  for (int i = 6; i < 12; ++i) split.device[g.findOp("op" + std::to_string(i))] = 1;
  placement::MemoryTracker mem2(ctx);
  for (OpId op : g.topoOrder()) mem2.place(op, split.device[op]);
  const Measurement m2 = sim.run(split, false);
  const auto est = placement::estimatePeakMemory(ctx, split, g.topoOrder());
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(est[d], m2.devices[d].peakMemory) << d;
    EXPECT_EQ(mem2.peak(d), m2.devices[d].peakMemory) << d;
  }
}

TEST(PlacementMemory, EstimatesAgreeWithSimulatorOnZooModels) {
  const Cluster c = loadCluster("4xP100-PCIe");
  for (const char* model :
       {"zoo:rnnlm", "zoo:resnet50", "zoo:bert_base", "zoo:transformer_xl", "zoo:amoebanet"}) {
    SCOPED_TRACE(model);
    const Graph g = loadModel(model);
    const CostModel cost(g, c);
    Simulator sim(cost);
    placement::Context ctx(cost, sim);
    // 1. One device: the serial replay in topological order is the simulator's peak (within 2%).
    const Plan single = Plan::singleDevice(g.numOps());
    const Measurement ms = sim.run(single, false);
    const double est = static_cast<double>(placement::estimatePeakMemory(ctx, single, g.topoOrder())[0]);
    const auto simSingle = static_cast<double>(ms.devices[0].peakMemory);
    EXPECT_NEAR(est, simSingle, 0.02 * simSingle);
    // 2. m-ETF's plan: the tracker's peak per device as the schedule was built, against the
    //    simulated peak of that plan (within 15% of it, or 0.1 GiB for nearly empty devices).
    std::string note;
    const placement::ListSchedule s = placement::scheduleEtf(ctx, false, note);
    Plan plan = s.plan;
    placement::enforceUnits(ctx, plan);
    const Measurement m = sim.run(plan, false);
    for (int d = 0; d < c.numDevices(); ++d) {
      const auto simPeak = static_cast<double>(m.devices[d].peakMemory);
      EXPECT_NEAR(static_cast<double>(s.peakMemory[d]), simPeak, std::max(0.15 * simPeak, 0.1 * kGiB))
          << "device " << d;
    }
  }
}

TEST(PlacementMemory, EveryPlacerFitsEveryZooModelOnFourP100s) {
  const Cluster c = loadCluster("4xP100-PCIe");
  for (const ZooEntry& z : zooModels()) {
    if (z.llm) continue;  // hundreds of GB of parameters: no four P100s hold them
    SCOPED_TRACE(z.name);
    const Graph g = loadModel("zoo:" + z.name);
    const CostModel cost(g, c);
    Simulator sim(cost);
    for (const std::string& method : placementMethods()) {
      if (method == "single") continue;
      const PlacementResult r = runPlacement(method, cost, sim);
      EXPECT_TRUE(r.measurement.feasible) << method << ": " << r.measurement.problem << " / " << r.note;
    }
  }
}
