// What-if: the step after a change to a plan — ops moved to a device, a priority changed, a
// group fused (PlanMove, sim/suggestions.h) — before the change is made.
//
// Each question re-simulates the whole step with the changed plan, on a simulator whose buffers
// are reused across questions, so the answer is exactly what simulating the changed plan from
// scratch gives (the tests hold them equal bit for bit). Re-simulating only from the first
// affected event is not done: a move of an op that owns parameters changes the step at time 0
// (parameters are placed and sent then), which is most moves of a training graph, and the
// whole step already takes 10-22 ms on the 64k-op GNMT graph (docs/performance.md).
//
//   WhatIf w(cost, plan);
//   double t = w.measure(PlanMove{PlanMove::Kind::Op, {3, 4}, 2}).stepTime;
#pragma once
#include "cost/cost_model.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "sim/simulator.h"
#include "sim/suggestions.h"

namespace gp {

class WhatIf {
 public:
  WhatIf(const CostModel& cost, Plan plan);
  const Plan& plan() const { return plan_; }
  void setPlan(Plan plan) { plan_ = std::move(plan); }
  // The step after `move` (feasible false, with the problem, when the changed plan is not valid).
  const Measurement& measure(const PlanMove& move, bool recordTimeline = false);

 private:
  Simulator sim_;
  Plan plan_;
  Measurement m_;
};

}  // namespace gp
