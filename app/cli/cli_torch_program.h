// evaluate --torch-program OUT.py: the evaluated placement of a PyTorch model (an ONNX export
// or TorchScript) as a Python program that runs it with torch.fx (core/io/torch_program.h).
#pragma once
#include <ostream>
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp::cli {

// Writes the program atomically to `path`; a summary goes to `out`, what the program cannot
// follow exactly (no device map, cycles between devices) to `err`. Throws gp::Error(spec, ...)
// for a model that did not come from PyTorch.
void writeTorchProgram(const std::string& spec, const Graph& g, const Cluster& c, const Plan& plan,
                       const Measurement& m, const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace gp::cli
