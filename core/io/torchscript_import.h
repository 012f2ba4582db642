// TorchScript (.pt) import via LibTorch: the inlined `forward` graph, one op per aten call.
// Only this header's implementation sees torch headers.
#pragma once
#include <string>

#include "graph/graph.h"
#include "graph/import_options.h"

namespace gp {

Graph importTorchScript(const std::string& path, const ImportOptions& options = {});

}  // namespace gp
