// ONNX import (.onnx, with or without weights; external data files allowed).
#pragma once
#include <string>

#include "graph/graph.h"
#include "graph/import_options.h"

namespace gp {

// Throws gp::Error("FILE", problem) on bad input; never crashes or hangs.
Graph importOnnx(const std::string& path, const ImportOptions& options = {});

}  // namespace gp
