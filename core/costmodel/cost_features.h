// The features a learned cost model sees of our graphs, in TpuGraphs' split: an opcode (the op
// type, embedded by the model) and a row of numbers per node, and a row per configuration (per
// configurable node in the plan task) that the model joins to the node rows early.
//
// Node row (kNodeWidth): log FLOPs, log bytes, log intensity, six log dimensions of the
// representative kernel (GEMM: batch m n k; convolution: n c h*w k r*s stride; others: rows
// cols), the kernel kind one-hot, log largest operand, fused-group member, a constant 1.
// Config row (kConfigWidth): log2 threads, threads == 1, layout one-hot, log2 tiles,
// tiles == 1, configurable, a constant 1. Logarithms are natural and divided by 10.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "costmodel/kernel_run.h"

namespace gp {

inline constexpr int32_t kNodeWidth = 24;
inline constexpr int32_t kConfigWidth = 8;

// Appends op's kernel's row to `out`; `fused` marks a member of a fused group.
void appendNodeFeatures(const KernelSpec& k, bool fused, std::vector<float>& out);

struct KernelConfig {
  int32_t threads = 1;
  uint8_t layout = 0, tiles = 1;
  bool operator==(const KernelConfig&) const = default;
};
// Appends the row of a configuration; `configurable` is 1 for a configurable node of a plan,
// 0 for the kernel task's whole-graph row.
void appendConfigFeatures(const KernelConfig& c, bool configurable, std::vector<float>& out);
// The configuration a row encodes (the inverse of appendConfigFeatures).
KernelConfig configOfRow(std::span<const float> row);

// Every configuration a kernel is measured under: threads x layout {0, 1} x tiles {1, 4}.
std::vector<KernelConfig> kernelConfigs(std::span<const int32_t> threadChoices);

// Whether a kernel kind has a layout choice in a plan (a GEMM, convolution, pooling,
// softmax, normalization or reduction): the plan task's configurable nodes.
bool layoutConfigurable(KernelSpec::Kind k);

}  // namespace gp
