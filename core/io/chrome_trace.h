// Chrome Trace Event export of a simulated Timeline: opens in Perfetto and chrome://tracing.
// One process row per device and per channel that carried a transfer; "X" (complete) events
// with times in microseconds; metadata events name the rows.
#pragma once
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"

namespace gp {

std::string timelineToChromeTrace(const Graph& g, const Cluster& c, const Measurement& m);
void writeChromeTrace(const Graph& g, const Cluster& c, const Measurement& m, const std::string& path);

}  // namespace gp
