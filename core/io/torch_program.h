// The Python program that runs an op-level placement of a PyTorch model (io/torch_split.h):
// a module the user imports next to their model. It holds the plan's tables (devices,
// partitions, each scope's share of them, the device map when there is one) and the code that
// uses them with Debian's python3-torch (1.13):
//   split(model, example_inputs, devices=None)  torch.fx trace (shapes from the examples), every
//        node given the partition of its scope, torch.fx split_module, each partition moved to
//        its device and called in plan order; the returned GraphModule computes what the model does
//   device_map(model)                            {module path: device}, or None if not aligned
//   dispatch(model, devices=None)                the model with each mapped module on its device
// `devices` overrides the torch devices (one name for all, or one per plan device); so does
// $GRAPHPLACE_DEVICES. docs/formats.md, "PyTorch program", describes it.
#pragma once
#include <span>
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "io/torch_split.h"

namespace gp {

// Torch device names for the cluster's devices: "cuda:i" for the i-th GPU, "cpu" for CPUs.
std::vector<std::string> torchDeviceNames(const Cluster& c);

// `source` says where the plan came from (model, placement file), for the header.
std::string torchProgram(const TorchSplit& split, const Cluster& c, const std::string& source);

}  // namespace gp
