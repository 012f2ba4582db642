// The best plan an optimizer has seen (the incumbent), shared by the PPO and ColocRL trainers:
// every candidate is simulated on a reused Simulator without a timeline and scored with
// planReward against the unfused lower bound (fixed, so plans with and without fusion groups
// compare by step time); the best feasible one is kept, an infeasible one only while nothing fits.
// considerAll simulates a batch on `workers` threads (one Simulator each) when the graph is big
// enough for a simulation to outweigh starting a thread, then keeps the best in the batch's order:
// the same result as considering the plans one by one.
#pragma once
#include <limits>
#include <memory>
#include <vector>

#include "optimize/optimize.h"
#include "rl/graph_features.h"
#include "sim/lower_bound.h"
#include "sim/simulator.h"

namespace gp::rl {

struct Incumbent {
  // Graphs of at least this many ops simulate batches on several threads.
  static constexpr int32_t kParallelOps = 2000;

  explicit Incumbent(const CostModel& cost, int workers = 1);

  Simulator sim;
  double bound;   // seconds, the unfused lower bound
  Measurement m;  // of the plan considered last
  Plan best;
  double bestStep = std::numeric_limits<double>::infinity();
  bool haveFeasible = false, haveAny = false;

  // Simulates `plan`; keeps it when it is the best (sets `improved`); returns its reward.
  double consider(const Plan& plan, bool& improved) {
    sim.run(plan, m, /*recordTimeline=*/false);
    return record(plan, m, improved);
  }

  struct Scored {
    double reward = 0;
    double step = std::numeric_limits<double>::infinity();  // infinity when infeasible
  };
  // consider() for each plan, simulated in parallel where it pays off.
  std::vector<Scored> considerAll(const std::vector<Plan>& plans, bool& improved);
  // How many plans considerAll simulates at once (1: one by one).
  int batch() const { return parallel_ ? static_cast<int>(extra_.size()) + 1 : 1; }

  // The best plan, or every unit on device 0 when none was seen (cancelled at once).
  Plan bestOr(const GraphFeatures& f) const {
    return haveAny ? best : planFromUnits(f, std::vector<int32_t>(static_cast<size_t>(f.numUnits), 0));
  }

 private:
  double record(const Plan& plan, const Measurement& measured, bool& improved) {
    if (measured.feasible && measured.stepTime < bestStep) {
      best = plan;
      bestStep = measured.stepTime;
      haveFeasible = improved = true;
    } else if (!haveAny) {
      best = plan;
    }
    haveAny = true;
    return planReward(measured, bound);
  }

  bool parallel_ = false;
  std::vector<std::unique_ptr<Simulator>> extra_;  // one per extra worker
  std::vector<Measurement> measured_;
};

}  // namespace gp::rl
