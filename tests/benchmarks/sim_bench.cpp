// Simulator speed: one simulated step of the GNMT training graph (target <= 20 ms on one core).
#include <benchmark/benchmark.h>

#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/training.h"
#include "sim/simulator.h"
#include "zoo/zoo.h"

namespace {

void BM_SimulateGnmtTraining(benchmark::State& state) {
  const gp::Graph g = gp::deriveTrainingGraph(gp::makeZooModel("gnmt"));
  const gp::Cluster c = gp::loadCluster("4xP100-PCIe");
  const gp::CostModel cost(g, c);
  gp::Simulator sim(cost);
  gp::Plan plan = gp::Plan::singleDevice(g.numOps());
  if (state.range(0) == 1)  // spread by op id: transfers everywhere
    for (gp::OpId op = 0; op < g.numOps(); ++op) plan.device[op] = op % c.numDevices();
  gp::Measurement m;
  for (auto _ : state) {
    sim.run(plan, m, /*recordTimeline=*/false);
    // (libbenchmark 1.7's DoNotOptimize(T&) can clobber a double at -O3: pass a pointer)
    benchmark::DoNotOptimize(&m);
    benchmark::ClobberMemory();
  }
  state.counters["ops"] = g.numOps();
  state.SetLabel("step " + std::to_string(m.stepTime * 1e3) + " ms" + (m.feasible ? "" : " (" + m.problem + ")"));
  state.counters["transfer_MB"] = static_cast<double>(m.commBytes) / 1e6;
}
BENCHMARK(BM_SimulateGnmtTraining)->Arg(0)->Arg(1)->ArgNames({"round_robin"})->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// Simulation time against graph size: training graphs of ~1k (resnet50), ~9k (nmt) and ~64k
// (gnmt) ops, ops spread over the 4 GPUs in contiguous blocks.
void BM_SimulateBySize(benchmark::State& state) {
  static const char* kModels[] = {"resnet50", "nmt", "gnmt"};
  const gp::Graph g = gp::deriveTrainingGraph(gp::makeZooModel(kModels[state.range(0)]));
  const gp::Cluster c = gp::loadCluster("4xP100-PCIe");
  const gp::CostModel cost(g, c);
  gp::Simulator sim(cost);
  gp::Plan plan = gp::Plan::singleDevice(g.numOps());
  for (gp::OpId op = 0; op < g.numOps(); ++op)
    plan.device[op] = static_cast<int32_t>(static_cast<int64_t>(op) * c.numDevices() / g.numOps());
  gp::Measurement m;
  for (auto _ : state) {
    sim.run(plan, m, /*recordTimeline=*/false);
    benchmark::DoNotOptimize(&m);
    benchmark::ClobberMemory();
  }
  state.SetLabel(kModels[state.range(0)]);
  state.counters["ops"] = g.numOps();
  state.counters["edges"] = static_cast<double>(g.numEdges());
}
BENCHMARK(BM_SimulateBySize)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
