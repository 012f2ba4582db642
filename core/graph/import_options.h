// Options the importers share.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gp {

struct ImportOptions {
  // Shape of the model's first input, e.g. {1, 3, 224, 224}. TorchScript needs it unless the
  // file records one; ONNX uses it to replace the first graph input's (possibly symbolic) shape.
  std::vector<int64_t> inputShape;
  // Values of named symbolic dimensions (ONNX dim_param, e.g. "batch_size" -> 8); a symbolic
  // dimension not named here counts as 1. Naming one the model does not have is an error.
  std::map<std::string, int64_t> dims;
  // Threads of the TorchScript run (0: one per core). The import's child process runs on one:
  // an OpenMP thread pool the parent started does not exist in a forked child.
  int threads = 0;
};

}  // namespace gp
