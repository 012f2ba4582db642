// The annotated placement file users export and load (docs/formats.md, "Placement file"):
// model identity, the cluster (embedded), the measured metrics, and per op its device,
// priority, fusion group and simulated start/end. Loading restores the Plan exactly.
#pragma once
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

struct ModelIdentity {
  std::string path;    // as the user gave it (a file or zoo:NAME)
  std::string sha256;  // of the file's bytes; of the zoo spec and options for zoo models
  int32_t ops = 0;
};

// The metrics of a measurement as one JSON object: step_time_ms, lower_bound_ms, ratio,
// feasible, problem (if any), comm_bytes, devices [{name, busy_ms, utilization,
// peak_memory_bytes, memory_capacity_bytes}], links [{name, bytes}] (channels that carried data).
std::string measurementToJson(const Cluster& c, const Measurement& m);

std::string placementToJson(const Graph& g, const ModelIdentity& model, const Cluster& c, const Plan& plan,
                            const Measurement& m);
void writePlacement(const Graph& g, const ModelIdentity& model, const Cluster& c, const Plan& plan,
                    const Measurement& m, const std::string& path);

struct LoadedPlacement {
  Plan plan;
  Cluster cluster;                    // the embedded one
  ModelIdentity model;                // as recorded in the file
  std::vector<std::string> warnings;  // e.g. a model hash mismatch that was allowed
};

// Checks the file against `g` (op count, op names, devices in range) and `current` (the model
// hash: a mismatch is an error unless allowHashMismatch, then a warning). gp::Error(path, ...).
LoadedPlacement readPlacement(const std::string& path, const Graph& g, const ModelIdentity& current,
                              bool allowHashMismatch = false);
LoadedPlacement parsePlacement(const std::string& text, const std::string& source, const Graph& g,
                               const ModelIdentity& current, bool allowHashMismatch = false);

}  // namespace gp
