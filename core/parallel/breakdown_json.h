// A simulated step's breakdown (pipeline_sim.h) as JSON in milliseconds, the one form
// `parallelize --json` and `fidelity --json` both write.
#pragma once
#include <nlohmann/json.hpp>

#include "parallel/pipeline_sim.h"

namespace gp {

// {"stage", "compute", "recompute", "pass_comm", "bubble", "dp_exposed", "optimizer",
//  "pass_comm_by_kind": {"tp", "cp", "ep", "zero3_gather"}}
nlohmann::ordered_json stepBreakdownJson(const StepBreakdown& b);

}  // namespace gp
