// The best plan an optimizer has seen (the incumbent), shared by the PPO and ColocRL trainers:
// every candidate is simulated on one reused Simulator without a timeline and scored with
// placementReward against the unfused lower bound (fixed, so plans with and without fusion groups
// compare by step time); the best feasible one is kept, an infeasible one only while nothing fits.
#pragma once
#include <limits>
#include <vector>

#include "optimize/optimize.h"
#include "rl/graph_features.h"
#include "sim/lower_bound.h"
#include "sim/simulator.h"

namespace gp::rl {

struct Incumbent {
  explicit Incumbent(const CostModel& cost) : sim(cost), bound(lowerBound(cost)) {}

  Simulator sim;
  double bound;   // seconds, the unfused lower bound
  Measurement m;  // of the plan considered last
  Plan best;
  double bestStep = std::numeric_limits<double>::infinity();
  bool haveFeasible = false, haveAny = false;

  // Simulates `plan`; keeps it when it is the best (sets `improved`); returns its reward.
  double consider(const Plan& plan, bool& improved) {
    sim.run(plan, m, /*recordTimeline=*/false);
    if (m.feasible && m.stepTime < bestStep) {
      best = plan;
      bestStep = m.stepTime;
      haveFeasible = improved = true;
    } else if (!haveAny) {
      best = plan;
    }
    haveAny = true;
    return placementReward(m, bound);
  }

  // The best plan, or every unit on device 0 when none was seen (cancelled at once).
  Plan bestOr(const GraphFeatures& f) const {
    return haveAny ? best : planFromUnits(f, std::vector<int32_t>(static_cast<size_t>(f.numUnits), 0));
  }
};

}  // namespace gp::rl
