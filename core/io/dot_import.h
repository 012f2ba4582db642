// Graphviz DOT import via cgraph. Node attributes `op`, `flops`, `bytes`, `device` honoured.
#pragma once
#include <string>

#include "graph/graph.h"

namespace gp {

Graph importDot(const std::string& path);
Graph importDotString(const std::string& text, const std::string& sourceName);

}  // namespace gp
