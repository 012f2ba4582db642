// A placement file's plan on a cluster (shared by `evaluate --placement` and `optimize --start`).
#pragma once
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "io/placement_file.h"
#include "sim/plan.h"

namespace gp::cli {

// The file's devices are looked up by name in `cluster`; std::invalid_argument naming the file
// when one is missing. Warnings go to stderr.
Plan planFromFile(const std::string& path, const Graph& g, const ModelIdentity& identity, const Cluster& cluster,
                  bool ignoreHash = false);
// `plan`'s devices (indices into `from`) as indices into `to`, by name.
void mapDevices(Plan& plan, const Cluster& from, const Cluster& to, const std::string& path);

}  // namespace gp::cli
