// graphplace-cli profile: measure the local GPUs (CUPTI, cuBLAS, cuDNN, our kernels) and write a
// cluster file and a calibration table from the measurements (docs/profiling.md). Returns the
// exit code; throws gp::Error / std::invalid_argument for bad input and when profiling cannot
// run (built without CUDA, no driver, no GPU), which main prints as one line.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runProfileCommand(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli
