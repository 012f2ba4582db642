// Import + CSR build of real files: the large ONNX fixture (>= 10k nodes).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "base/error.h"
#include "onnxio/onnx_import.h"

namespace {

void BM_ImportLargeOnnx(benchmark::State& state) {
  const std::string path = std::string(GP_TEST_DATA_DIR) + "/onnx/seq2seq_unrolled.onnx";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("missing fixture " + path).c_str());
    return;
  }
  int64_t ops = 0, edges = 0;
  for (auto _ : state) {
    gp::Graph g = gp::importOnnx(path);
    ops = g.numOps();
    edges = g.numEdges();
    benchmark::DoNotOptimize(&g);
    benchmark::ClobberMemory();
  }
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
}
BENCHMARK(BM_ImportLargeOnnx)->Unit(benchmark::kMillisecond);

}  // namespace
