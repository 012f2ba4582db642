// Open -> first readable frame for every model of the corpus (tests/models/make_corpus.py), as
// a user opens a file: loadModel (import, shape inference) -> GraphView::setGraph (display
// grouping, layout of the first view) -> the first frame painted at the first view's zoom.
// Registered only when $GP_CORPUS_DIR names a folder with corpus.json:
//   GP_CORPUS_DIR=build/corpus build/release/tests/benchmarks/gp_gui_benchmarks
//       --benchmark_filter=Corpus --benchmark_format=json
// (tests/benchmarks/corpus_open.sh runs it and writes the table of docs/models.md).
// Counters: load_ms (import alone), ops, boxes on the first frame, zoom of the first view,
// final_ms (until the layout is final: Graphviz's refinement within its budget).
#include <benchmark/benchmark.h>

#include <QElapsedTimer>
#include <QImage>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "graph/graph_view.h"
#include "gui_view_wait.h"
#include "io/model_loader.h"

namespace {

constexpr int kWidth = 1600, kHeight = 1000;

std::vector<int64_t> parseShape(const std::string& text) {
  std::vector<int64_t> dims;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('x', at);
    if (end == std::string::npos) end = text.size();
    dims.push_back(std::stoll(text.substr(at, end - at)));
    at = end + 1;
  }
  return dims;
}

void openCorpusModel(benchmark::State& state, const std::string& path, const std::string& inputShape) {
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  gp::LoadOptions options;
  if (!inputShape.empty()) options.import.inputShape = parseShape(inputShape);
  for (auto _ : state) {
    QElapsedTimer t;
    t.start();
    std::shared_ptr<const gp::Graph> g;
    try {
      g = std::make_shared<const gp::Graph>(gp::loadModel(path, options));
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    const double loadMs = t.nsecsElapsed() * 1e-6;
    gp::GraphView view;
    view.resize(kWidth, kHeight);
    view.setGraph(g);
    gpbench::waitFirstLayout(view);
    view.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
    state.SetIterationTime(t.nsecsElapsed() * 1e-9);
    state.counters["load_ms"] = loadMs;
    state.counters["ops"] = g->numOps();
    state.counters["boxes"] = view.visibleNodeCount();
    state.counters["zoom"] = view.zoom();
    gpbench::waitLayout(view);
    state.counters["final_ms"] = t.nsecsElapsed() * 1e-6;
  }
}

// One benchmark per model in $GP_CORPUS_DIR/corpus.json, registered before main() runs them.
const int kRegistered = [] {
  const char* dir = std::getenv("GP_CORPUS_DIR");
  if (dir == nullptr || *dir == '\0') return 0;
  std::ifstream in(std::filesystem::path(dir) / "corpus.json");
  if (!in) return 0;
  nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  if (!manifest.is_object() || !manifest.contains("models")) return 0;
  int n = 0;
  for (const auto& [name, m] : manifest["models"].items()) {
    const std::string path = (std::filesystem::path(dir) / m.value("file", "")).string();
    const std::string shape = m.contains("cli_input_shape") && m["cli_input_shape"].is_string()
                                  ? m["cli_input_shape"].get<std::string>()
                                  : std::string();
    benchmark::RegisterBenchmark(("BM_CorpusOpen/" + name).c_str(),
                                 [path, shape](benchmark::State& s) { openCorpusModel(s, path, shape); })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(1);
    ++n;
  }
  return n;
}();

}  // namespace
