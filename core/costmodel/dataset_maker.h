// Measured runs as data: `graphplace-cli dataset make` records (graph, configuration, runtime)
// samples of models on a MeasurementSource (this machine's CPU, through LibTorch).
//
// Kernel task: every distinct kernel of a model (ops with the same CalibrationTable signature
// run the same kernel: the first one stands for all), and every distinct group the compilers'
// default fusion (fusion/fuser.h) forms — its ops' kernels run back to back, as an eager CPU
// framework runs them — under every kernelConfigs() configuration. Plan task: the whole model's kernels in topological order under random
// per-node configurations of its layout-configurable nodes (layout and tiles; threads: the
// most the source offers). A node without a layout choice takes its first producer's layout
// (as PyTorch propagates memory formats); wherever a node reads a tensor in the other layout,
// a conversion (a transposed copy of the tensor) runs before it — that is where configurations
// interact. Noise: one warm-up, then `repeats` timed runs per configuration, interleaved
// round-robin over a kernel's (or a model's) configurations, and the median kept; the spread
// ((max - min) / median) is recorded per configuration.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/cost_features.h"
#include "graph/graph.h"

namespace gp {

class CostModel;

struct DatasetModel {
  std::string name, family;
  const Graph* graph = nullptr;
};

struct DatasetMakeOptions {
  bool kernels = true, plans = true;
  int repeats = 5;
  int planConfigs = 24;      // random plans per model (plus all-canonical and all-alternative)
  int maxKernelsPerModel = 0;  // 0: every distinct kernel
  uint64_t seed = 1;
};

struct DatasetMakeReport {
  std::string model;
  std::string stage;  // "kernels" or "plans"
  int64_t done = 0, total = 0;
};
using DatasetProgressFn = std::function<void(const DatasetMakeReport&)>;

struct MadeDatasets {
  CostDataset kernels, plans;
};

class MeasurementSource;

// The family a model belongs to, for holding whole families out: the file or zoo name without
// its folder, extension and "zoo:", up to the first '_' or '.', less trailing digits when at
// least three letters remain ("zoo:resnet50" -> "resnet", "gpt_1_3b" -> "gpt",
// "models/t5_small.onnx" -> "t5", "inception_v3" -> "inception").
std::string modelFamily(const std::string& spec);

// Measures every model in turn. Throws gp::Error when a model has no kernel to measure.
MadeDatasets makeCostDatasets(const std::vector<DatasetModel>& models, MeasurementSource& source,
                              const DatasetMakeOptions& options, const DatasetProgressFn& progress = {});

// Candidate plans of a model for a search that measures only some of them: the plan-task
// dataset of the model (runtimes 1 s each, not measured) and the run of every candidate — all
// canonical, all alternative, then `count` random ones drawn from `seed`, at the source's most
// threads. Throws gp::Error when the model has no layout-configurable op.
struct PlanCandidates {
  CostDataset data;
  std::vector<KernelRun> runs;
  std::vector<std::vector<OpId>> callOps;  // [run][call]: the op a call runs, kNone for a conversion
};
PlanCandidates makePlanCandidates(const DatasetModel& m, const MeasurementSource& source, int count, uint64_t seed);

// What a learned kernel model is asked to predict for `ops` of a model: one single-op kernel
// graph per distinct signature (ops that run no kernel are left out) at one configuration
// (`threads`, canonical layout, one tile), runtimes 1 s (placeholders). ops[i]: the ops graph i
// stands for, the first of them the one it was built from.
struct KernelQueries {
  CostDataset data;
  std::vector<std::vector<OpId>> ops;
};
KernelQueries kernelQueries(const CostModel& cost, const std::vector<OpId>& ops, int32_t threads,
                            const std::string& deviceKind);

// The plan of one configuration of a model graph: which nodes are configurable, and the calls
// a run makes (conversions included). Exposed for the tests and for `costmodel eval`.
struct PlanLayout {
  std::vector<OpId> nodes;          // graph ops that are dataset nodes (every op)
  std::vector<KernelSpec> kernels;  // [ops] representative kernels
  std::vector<int32_t> configurable;  // dataset node indices with a layout choice
};
PlanLayout planLayoutOf(const CostModel& cost);
// The run of `configs` (one per configurable node) with `threads`, the bytes its layout
// conversions move, and per call the op it runs (kNone for a conversion).
KernelRun planRun(const CostModel& cost, const PlanLayout& layout, const std::vector<KernelConfig>& configs,
                  int32_t threads, double* conversionBytes = nullptr, std::vector<OpId>* callOps = nullptr);

}  // namespace gp
