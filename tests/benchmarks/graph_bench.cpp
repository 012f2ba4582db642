// Graph IR speed and size: building a 100k-op / 200k-edge graph (target: < 1 s, << 100 MB).
#include <benchmark/benchmark.h>

#include <string>

#include "graph/graph_builder.h"
#include "graph/training.h"
#include "io/json_io.h"
#include "zoo/zoo.h"

namespace {

gp::Graph syntheticGraph(int n) {
  gp::GraphBuilder b("synthetic");
  b.addGraphInput({"in", {64, 1024}});
  std::vector<gp::TensorId> outs;
  outs.reserve(n);
  for (int i = 0; i < n; ++i) {
    gp::OpDesc d{.name = "block_" + std::to_string(i / 100) + "/layer_" + std::to_string(i % 100) + "/MatMul",
                 .type = i % 3 ? "MatMul" : "Add"};
    if (i == 0) d.inputs = {b.tensorRef("in")};
    if (i >= 1) d.inputs.push_back(outs[i - 1]);
    if (i >= 7) d.inputs.push_back(outs[i - 7]);
    d.outputs = {{"", {64, 1024}}};
    d.flops = 1e6;
    outs.push_back(b.output(b.addOp(std::move(d))));
  }
  return std::move(b).build("synthetic");
}

void BM_BuildGraph100kOps200kEdges(benchmark::State& state) {
  int64_t mem = 0, edges = 0;
  for (auto _ : state) {
    gp::Graph g = syntheticGraph(100000);
    mem = g.memoryBytes();
    edges = g.numEdges();
    benchmark::DoNotOptimize(g);
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
    benchmark::DoNotOptimize(g);
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
    benchmark::DoNotOptimize(back);
    state.counters["JSON_MB"] = static_cast<double>(text.size()) / (1 << 20);
  }
}
BENCHMARK(BM_JsonRoundTripGnmtTraining)->Unit(benchmark::kMillisecond);

}  // namespace
