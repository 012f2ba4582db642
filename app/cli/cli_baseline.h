// Helpers of `baseline` and `bench` that `optimize` shares (it compares against every baseline).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "placement/placer.h"

namespace gp::cli {

// Index of the best feasible result, -1 if none is feasible.
int bestOf(const std::vector<PlacementResult>& rs);
// One result as in `baseline --json`'s "results".
nlohmann::ordered_json resultJson(const PlacementResult& r);
std::string dump(const nlohmann::ordered_json& j);
// --cluster, else `fallback` (nullptr: --cluster is required).
Cluster clusterFrom(const Args& a, const char* fallback);
// Runs each method on one simulator of `cost`.
std::vector<PlacementResult> runAll(const CostModel& cost, const std::vector<std::string>& methods);

}  // namespace gp::cli
