// What-if and the step's explanation: how long a move's step time takes (WhatIf: a re-simulation
// of the changed plan; limits 50 ms for a 10k-op graph, 300 ms for GNMT's 63,799 ops), how long
// the critical path and slack take (analyzeStep), and one round of suggestions (suggestMoves).
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/training.h"
#include "sim/critical_path.h"
#include "sim/simulator.h"
#include "sim/suggestions.h"
#include "sim/what_if.h"
#include "zoo/zoo.h"

namespace {

// 0: nmt with 3 layers over 40 steps, 10,121 training ops; 1: gnmt, 63,799 ops. Ops spread over
// the 4 GPUs of 4xP100-PCIe in contiguous blocks.
struct Case {
  gp::Graph graph;
  gp::Cluster cluster = gp::loadCluster("4xP100-PCIe");
  gp::Plan plan;
  explicit Case(int which)
      : graph(gp::deriveTrainingGraph(which == 0 ? gp::makeZooModel("nmt", {.seqLen = 40, .layers = 3})
                                                 : gp::makeZooModel("gnmt"))) {
    plan = gp::Plan::singleDevice(graph.numOps());
    for (gp::OpId op = 0; op < graph.numOps(); ++op)
      plan.device[op] = static_cast<int32_t>(static_cast<int64_t>(op) * cluster.numDevices() / graph.numOps());
  }
};
const char* kNames[] = {"nmt-3x40 (10,121 ops)", "gnmt (63,799 ops)"};

void BM_WhatIfMove(benchmark::State& state) {
  const Case c(static_cast<int>(state.range(0)));
  const gp::CostModel cost(c.graph, c.cluster);
  gp::WhatIf w(cost, c.plan);
  std::mt19937 rng(3);
  std::uniform_int_distribution<gp::OpId> op(0, c.graph.numOps() - 1);
  double last = 0;
  for (auto _ : state) {
    const gp::OpId o = op(rng);
    const gp::PlanMove move{gp::PlanMove::Kind::Op, gp::opFamily(c.graph, o), (c.plan.device[o] + 1) % 4};
    last = w.measure(move).stepTime;
    benchmark::DoNotOptimize(&last);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_WhatIfMove)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);

void BM_AnalyzeStep(benchmark::State& state) {
  const Case c(static_cast<int>(state.range(0)));
  const gp::CostModel cost(c.graph, c.cluster);
  const gp::Measurement m = gp::Simulator(cost).run(c.plan);
  size_t steps = 0;
  for (auto _ : state) {
    const gp::StepAnalysis a = gp::analyzeStep(cost, c.plan, m);
    steps = a.path.size();
    benchmark::DoNotOptimize(&steps);
  }
  state.SetLabel(std::string(kNames[state.range(0)]) + ", path of " + std::to_string(steps) + " steps");
}
BENCHMARK(BM_AnalyzeStep)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);

void BM_SuggestMoves(benchmark::State& state) {
  const Case c(static_cast<int>(state.range(0)));
  const gp::CostModel cost(c.graph, c.cluster);
  const gp::Measurement m = gp::Simulator(cost).run(c.plan);
  const gp::StepAnalysis a = gp::analyzeStep(cost, c.plan, m);
  int tried = 0;
  for (auto _ : state) {
    auto s = gp::suggestMoves(cost, c.plan, a, 10, 24, {}, &tried);
    benchmark::DoNotOptimize(s.data());
  }
  state.SetLabel(std::string(kNames[state.range(0)]) + ", " + std::to_string(tried) + " plans simulated");
}
BENCHMARK(BM_SuggestMoves)->DenseRange(0, 1)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
