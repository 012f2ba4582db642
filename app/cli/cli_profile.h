// graphplace-cli profile: measure the local GPUs (CUPTI, cuBLAS, cuDNN, our kernels) and write a
// cluster file and a calibration table from the measurements (docs/profiling.md); with
// --model MODEL, also time every distinct op of the model on each profiled device kind (the
// kernels the GPU executor runs) and add those entries to the calibration table. Returns the
// exit code; throws gp::Error / std::invalid_argument for bad input and when profiling cannot
// run (built without CUDA, no driver, no GPU), which main prints as one line.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "profile/profile_result.h"

namespace gp::cli {

int runProfileCommand(const std::vector<std::string>& args, std::ostream& out);

// --timer auto|cupti|events (std::invalid_argument otherwise); shared with `measure`.
ProfileTimer parseProfileTimer(const std::string& text);
// "0,1" -> {0, 1}: GPU numbers >= 0 (std::invalid_argument naming `option` otherwise).
std::vector<int> parseGpuNumbers(const std::string& text, const std::string& option);

}  // namespace gp::cli
