// GraphFeatures as LibTorch tensors (the policies' input). Torch code: core/rl only.
#pragma once
#include <torch/torch.h>

#include "rl/graph_features.h"

namespace gp::rl {

struct PolicyInput {
  torch::Tensor x;          // [numOps, featureDim] float
  torch::Tensor opType;     // [numOps] int64
  torch::Tensor edgeSrc;    // [numEdges] int64
  torch::Tensor edgeDst;    // [numEdges] int64
  torch::Tensor edgeBytes;  // [numEdges] float
  torch::Tensor topo;       // [numOps] int64, ops in topological order
  torch::Tensor unitOf;     // [numOps] int64
  torch::Tensor deviceX;    // [kMaxDevices, kDeviceFeatures] float
  int64_t numOps = 0, numUnits = 0;
};

PolicyInput toPolicyInput(const GraphFeatures& f);
// The current-plan parts of `f` (x and deviceX) into `in`, as new tensors (a pass still running
// on the old ones is unaffected).
void refreshCurrentPlan(PolicyInput& in, const GraphFeatures& f);

}  // namespace gp::rl
