// Summary figures of a graph, as `graphplace-cli info` and the app's status line show them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"

namespace gp {

struct GraphStats {
  int32_t ops = 0;
  int64_t edges = 0;
  int32_t tensors = 0;
  double flops = 0;
  int64_t paramBytes = 0;       // bytes of the model's parameters (weights)
  int64_t residentBytes = 0;    // bytes resident on devices: parameters + optimizer state (Adam moments)
  int64_t activationBytes = 0;  // sum of bytes of op outputs
  int32_t scopes = 0;
  int32_t scopeDepth = 0;
  int32_t forwardOps = 0, backwardOps = 0, updateOps = 0;
  std::vector<std::pair<std::string, int32_t>> opTypes;  // by count, descending; ties by name
};

GraphStats computeStats(const Graph& g);

}  // namespace gp
