// Options the importers share.
#pragma once
#include <cstdint>
#include <vector>

namespace gp {

struct ImportOptions {
  // Input shape for formats that do not record one (TorchScript), e.g. {1, 3, 224, 224}.
  std::vector<int64_t> inputShape;
};

}  // namespace gp
