// A cost-model dataset: graphs, their measured configurations and runtimes, in the shape of
// TpuGraphs' collections (Phothilimthana et al. 2023), so one learned model reads both ours and
// theirs.
//
//   kernel task (TpuGraphs "tile"): each graph is one kernel (an op, or a fused group of ops);
//     a configuration is one row of `configWidth` features for the whole graph.
//   plan task (TpuGraphs "layout"): each graph is a whole model; a configuration gives each
//     configurable node (`configNodes`) a row of `configWidth` features.
//
// Runtimes are seconds (ours: the median of `repeats` timed runs; TpuGraphs': their measured
// runtimes, rescaled by the per-config normalizers where the collection has them). Node
// features are `nodeWidth` floats per node, opcodes index `opcodes`. Analytic fields (FLOPs,
// bytes, class, signature, threads) are present on our measured data, for the roofline +
// calibration baseline; TpuGraphs data leaves them empty.
//
// File format (docs/formats.md, "Cost-model dataset"): JSON, "format":
// "graphplace-costmodel-dataset", version 1. load() throws gp::Error naming the file and the
// first problem (a graph whose arrays disagree with the widths, a runtime that is not finite
// and positive, an edge or opcode out of range, ...).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gp {

enum class CostTask : uint8_t { Kernel, Plan };
const char* costTaskName(CostTask t);  // "kernel", "plan"

struct CostGraph {
  std::string name;    // "resnet50/conv_3" (kernel), "resnet50" (plan)
  std::string family;  // the unit held out together: "resnet", "gnmt", a TpuGraphs model family
  std::vector<int32_t> opcode;                // [N] indices into CostDataset::opcodes
  std::vector<float> nodeFeatures;            // [N * nodeWidth]
  std::vector<std::array<int32_t, 2>> edges;  // (producer, consumer) node indices
  std::vector<int32_t> configNodes;           // plan task: [NC] configurable nodes; kernel task: empty
  std::vector<float> configFeatures;          // [C * rows * configWidth], rows = NC (plan) or 1 (kernel)
  std::vector<double> runtime;                // [C] seconds
  std::vector<double> spread;                 // [C] or empty: (max - min) / median of the repeats

  // Analytic description, empty where unknown (TpuGraphs):
  std::vector<double> nodeFlops, nodeBytes;   // [N] FLOPs and bytes read + written per node
  std::vector<int8_t> nodeClass;              // [N] OpClass
  std::vector<std::string> nodeSignature;     // [N] CalibrationTable-style signature (no device kind)
  std::vector<int32_t> threads;               // [C] threads the configuration ran with
  std::vector<double> conversionBytes;        // [C] plan task: bytes its layout conversions move

  int64_t numNodes() const { return static_cast<int64_t>(opcode.size()); }
  int64_t numConfigs() const { return static_cast<int64_t>(runtime.size()); }
  int64_t configRows() const { return configNodes.empty() ? 1 : static_cast<int64_t>(configNodes.size()); }
};

struct CostDataset {
  CostTask task = CostTask::Kernel;
  std::string collection;  // "graphplace", "tpugraphs:tile:xla", "tpugraphs:layout:nlp:random", ...
  std::string deviceKind;  // "cpu:<model name>", a GPU name, "tpu-v3"
  int32_t nodeWidth = 0, configWidth = 0;
  std::vector<std::string> opcodes;  // opcode vocabulary
  int32_t repeats = 0;               // timed runs per configuration (0: not ours)
  std::string noise;                 // how measurement noise was handled, one sentence
  std::vector<CostGraph> graphs;

  // Throws gp::Error(source, ...) on the first inconsistency.
  void validate(const std::string& source) const;
  std::string toJson() const;
  static CostDataset parse(const std::string& text, const std::string& source);
  static CostDataset load(const std::string& path);
  void save(const std::string& path) const;  // atomically (temporary file, then rename)
};

// One dataset of several of the same task and widths (opcodes remapped onto the union of the
// vocabularies; header fields from the first, device kinds joined with " + " where they differ).
// Throws gp::Error naming the first input that does not fit.
CostDataset mergeDatasets(const std::vector<CostDataset>& parts, const std::vector<std::string>& sources);

// Splits by family: graphs whose family is in `heldOut` go to `test`, the rest to `train`.
// Both keep the dataset's header fields.
void splitByFamily(const CostDataset& all, const std::vector<std::string>& heldOut, CostDataset& train,
                   CostDataset& test);

}  // namespace gp
