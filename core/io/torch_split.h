// An op-level placement of a PyTorch model as PyTorch can run it: partitions for torch.fx's
// split_module, and, where the placement follows the module tree, an accelerate-style device
// map. io/torch_program.h writes both as a Python program.
//
//  * Partitions: the forward ops in plan order (simulated start times; a topological order),
//    each joining its device's latest partition unless that would close a cycle between
//    partitions (device A feeds B feeds A). Then the device opens another partition, and the
//    cycle is reported with the ops that form it. Partitions are numbered in a topological
//    order, so every tensor flows from a lower-numbered partition to a higher one. Backward and
//    update ops are not partitioned: autograd runs each on its forward op's device.
//  * Scope keys name where an op sits in the module tree, as the PyTorch program can
//    recompute them while tracing: torch.onnx's scope names for ONNX exports
//    ("/layer1/layer1.0/conv1", the n-th repeated call "_n"), module paths ("layer1.0.conv1")
//    for TorchScript; "" is the model itself.
//  * Module-aligned: every op of a module whose ops span several devices is either inside a
//    child module or runs where its inputs already are (one device) and reads no parameters of
//    its own. Then moving each uniform module to its device reproduces the placement.
#pragma once
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

enum class TorchNames { OnnxExport, TorchScript };

struct TorchScopeShare {
  std::string key;
  std::vector<std::pair<int32_t, double>> weight;  // partition -> FLOPs of the key's own ops (+1 per op)
};

struct TorchSplit {
  TorchNames names = TorchNames::OnnxExport;
  std::vector<int32_t> partitionDevice;  // per partition: the plan's device index
  std::vector<int32_t> partitionOf;      // per op: its partition, -1 for backward and update ops
  std::vector<TorchScopeShare> scopes;   // every key with forward ops, sorted by key
  std::vector<std::string> cycles;       // one line per cycle that cost a device another partition
  int32_t cyclesFound = 0;               // all of them (cycles lists the first few)
  bool moduleAligned = false;
  std::string notAligned;                // why not (one line), when !moduleAligned
  std::vector<std::pair<std::string, int32_t>> deviceMap;  // key -> device: the largest uniform modules
};

// The scope key of op `name` (its module path, without the op's own name).
std::string torchScopeKey(const std::string& opName, TorchNames names);

// `opStart`: per op, its simulated start (seconds); empty to use the graph's topological order.
// `deviceNames` name the plan's devices in messages.
TorchSplit splitForTorch(const Graph& g, const Plan& plan, std::span<const double> opStart, TorchNames names,
                         std::span<const std::string> deviceNames);

}  // namespace gp
