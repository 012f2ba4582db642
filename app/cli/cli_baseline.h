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

// One result as in `baseline --json`'s "results".
nlohmann::ordered_json resultJson(const PlacementResult& r);

}  // namespace gp::cli
