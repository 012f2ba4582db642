// Baseline placers: run time of each method on the GNMT training graph (4xP100-PCIe), with the
// step time of the plan it found as the label.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/training.h"
#include "placement/placer.h"
#include "sim/simulator.h"
#include "zoo/zoo.h"

namespace {

struct Gnmt {
  gp::Graph g = gp::deriveTrainingGraph(gp::makeZooModel("gnmt"));
  gp::Cluster c = gp::loadCluster("4xP100-PCIe");
  gp::CostModel cost{g, c};
};

const Gnmt& gnmt() {
  static const auto* instance = new Gnmt;  // built once for every method
  return *instance;
}

void BM_PlaceGnmtTraining(benchmark::State& state, const std::string& method) {
  const Gnmt& w = gnmt();
  gp::Simulator sim(w.cost);
  gp::PlacementResult r;
  for (auto _ : state) {
    r = gp::runPlacement(method, w.cost, sim);
    // (libbenchmark 1.7's DoNotOptimize(T&) can clobber a double at -O3: pass a pointer)
    benchmark::DoNotOptimize(&r);
    benchmark::ClobberMemory();
  }
  state.counters["ops"] = w.g.numOps();
  state.counters["placer_s"] = r.seconds;
  state.SetLabel("step " + std::to_string(r.measurement.stepTime * 1e3) + " ms" +
                 (r.measurement.feasible ? "" : " (infeasible: " + r.measurement.problem + ")") +
                 (r.note.empty() ? "" : " [" + r.note + "]"));
}

const bool registered = [] {
  for (const std::string& m : gp::placementMethods())
    benchmark::RegisterBenchmark(("BM_PlaceGnmtTraining/" + m).c_str(), BM_PlaceGnmtTraining, m)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
