// graphplace JSON: the documented schema (docs/formats.md) that round-trips the IR exactly.
#pragma once
#include <string>

#include "graph/graph.h"

namespace gp {

Graph readGraphJson(const std::string& path);
Graph parseGraphJson(const std::string& text, const std::string& sourceName);
std::string graphToJson(const Graph& g);
void writeGraphJson(const Graph& g, const std::string& path);

}  // namespace gp
