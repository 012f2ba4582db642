// Graph IR speed and size: building a 100k-op / 200k-edge graph (target: < 1 s, << 100 MB).
#include <benchmark/benchmark.h>

#include <string>

#include "graph/graph_builder.h"
#include "synthetic_graph.h"
#include "graph/training.h"
#include "io/json_io.h"
#include "zoo/zoo.h"

namespace {

void BM_BuildGraph100kOps200kEdges(benchmark::State& state) {
  int64_t mem = 0, edges = 0;
  for (auto _ : state) {
    gp::Graph g = gptest::syntheticChainGraph(100000);
    mem = g.memoryBytes();
    edges = g.numEdges();
    benchmark::DoNotOptimize(&g);
    benchmark::ClobberMemory();
  }
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["MB"] = static_cast<double>(mem) / (1 << 20);
}
BENCHMARK(BM_BuildGraph100kOps200kEdges)->Unit(benchmark::kMillisecond);

void BM_ZooGnmtTrainingGraph(benchmark::State& state) {
  int64_t ops = 0, edges = 0, mem = 0;
  for (auto _ : state) {
    gp::Graph g = gp::deriveTrainingGraph(gp::makeZooModel("gnmt"));
    ops = g.numOps();
    edges = g.numEdges();
    mem = g.memoryBytes();
    benchmark::DoNotOptimize(&g);
    benchmark::ClobberMemory();
  }
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["MB"] = static_cast<double>(mem) / (1 << 20);
}
BENCHMARK(BM_ZooGnmtTrainingGraph)->Unit(benchmark::kMillisecond);

void BM_JsonRoundTripGnmtTraining(benchmark::State& state) {
  gp::Graph g = gp::deriveTrainingGraph(gp::makeZooModel("gnmt"));
  for (auto _ : state) {
    std::string text = gp::graphToJson(g);
    gp::Graph back = gp::parseGraphJson(text, "gnmt.json");
    benchmark::DoNotOptimize(&back);
    benchmark::ClobberMemory();
    state.counters["JSON_MB"] = static_cast<double>(text.size()) / (1 << 20);
  }
}
BENCHMARK(BM_JsonRoundTripGnmtTraining)->Unit(benchmark::kMillisecond);

}  // namespace
