// A placement file's plan on a cluster (shared by `evaluate --placement`, `explain` and
// `optimize --start`).
#pragma once
#include <optional>
#include <string>

#include "cli/cli_args.h"
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

// MODEL (the one positional argument) with its plan, as `evaluate` and `explain` read them: the
// cluster from --cluster, else the placement file's own; the plan from --placement (devices
// matched by name), else every op on the first device; --fuse applied. std::invalid_argument
// naming `command` when MODEL or a cluster is missing.
struct ModelPlan {
  std::string spec;
  Graph graph;
  ModelIdentity identity;
  std::optional<Cluster> cluster;
  Plan plan;
  std::string planName;  // "single device" or the placement file, with the fusion applied
};
ModelPlan loadModelPlan(const Args& a, const std::string& command);

}  // namespace gp::cli
