// What-if by re-simulation: see what_if.h.
#include "sim/what_if.h"

namespace gp {

WhatIf::WhatIf(const CostModel& cost, Plan plan) : sim_(cost), plan_(std::move(plan)) {}

const Measurement& WhatIf::measure(const PlanMove& move, bool recordTimeline) {
  sim_.run(applyMove(plan_, move), m_, recordTimeline);
  return m_;
}

}  // namespace gp
