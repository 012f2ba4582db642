// --fuse default|none|plan for the commands that run a given plan (evaluate, measure): default: the compilers' default elementwise-chain fusion on the
// plan's devices; none: no fusion groups; plan: the plan's own groups, checked against the
// fusion rules (std::invalid_argument naming the plan when one breaks them).
#pragma once
#include <string>

#include "graph/graph.h"
#include "optimize/optimize_choices.h"
#include "sim/plan.h"

namespace gp::cli {

// `fuse` (default, none or plan) as a mode, else std::invalid_argument (check it before slow work).
FuseMode checkFuseOption(const std::string& fuse);

// Sets plan.fusionGroup as `fuse` says; returns what to add to the plan's name ("" or
// " + default fusion").
std::string applyFuseOption(const Graph& g, Plan& plan, FuseMode fuse, const std::string& planName);

}  // namespace gp::cli
