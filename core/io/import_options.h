// Options the importers share.
#pragma once
#include <cstdint>
#include <vector>

namespace gp {

struct ImportOptions {
  // Shape of the model's first input, e.g. {1, 3, 224, 224}. TorchScript needs it unless the
  // file records one; ONNX uses it to replace the first graph input's (possibly symbolic) shape.
  std::vector<int64_t> inputShape;
};

}  // namespace gp
