// The structural rules a Plan must keep before anything runs it. The simulator, the GPU
// program builder (profile/gpu_program.h) and the fusion checker (fusion/fuser.h) all ask
// here, so a plan one of them accepts the others accept too, with the same one-line reason:
//  - one device per op, each a device of the cluster;
//  - priorities, when given, one per op;
//  - fusion groups, when given, one per op, each an id in [-1, ops) (-1: not fused), and the
//    ops of one group on one device (ops on different devices never share a kernel).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

// Why `plan` breaks a rule above on a cluster of `numDevices` devices, or "" when it keeps
// them all. `scratch` is reused storage (the simulator's hot path).
std::string planProblem(const Graph& g, int32_t numDevices, const Plan& plan, std::vector<int32_t>& scratch);
std::string planProblem(const Graph& g, int32_t numDevices, const Plan& plan);

// The fusion-group rules alone (plan.device is only read, not range-checked): what a plan's
// fusion groups must keep whatever the cluster.
std::string fusionGroupsProblem(const Graph& g, const Plan& plan, std::vector<int32_t>& scratch);

}  // namespace gp
