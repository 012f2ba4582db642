// Where a placement search starts, one rule for `optimize`, `bench --optimize`, `bench
// --tasks-table`, `pretrain` and the Python module: every baseline placer is run on one
// simulator of the cost model, the best feasible one's plan is the start (the search is never
// worse than it), and every feasible baseline's plan is a further candidate start (with a
// schedule or fusion in play another baseline's devices may start better).
//
//   const auto baselines = runBaselines(cost);
//   startFromBaselines(baselines, options);   // options.startPlan, options.startCandidates
#pragma once
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "optimize/optimize.h"
#include "placement/placer.h"

namespace gp {

// Each method (every baseline placer by default) on one simulator of `cost`.
std::vector<PlacementResult> runBaselines(const CostModel& cost, const std::vector<std::string>& methods = placementMethods());
// The index of the fastest feasible result, -1 when none fits.
int bestBaseline(const std::vector<PlacementResult>& results);
// The best baseline's plan as o.startPlan (kept when none fits) and every feasible baseline's
// plan in o.startCandidates.
void startFromBaselines(const std::vector<PlacementResult>& baselines, OptimizeOptions& o);

}  // namespace gp
