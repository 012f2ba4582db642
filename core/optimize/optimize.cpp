#include "optimize/optimize.h"

#include <algorithm>
#include <cmath>

#include "optimize/rl_plugin.h"

namespace gp {

OptimizeResult optimizePlacement(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                                 const std::atomic<bool>* cancel) {
  RlOptimizeFn fn = rlOptimizeEntry();
  OptimizeResult result;
  fn(cost, options, onIteration, cancel, result);
  return result;
}

PretrainResult pretrainPolicy(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                              const PretrainFn& onReport, const std::atomic<bool>* cancel) {
  RlPretrainFn fn = rlPretrainEntry();
  PretrainResult result;
  fn(tasks, options, onReport, cancel, result);
  return result;
}

double placementReward(const Measurement& m) {
  if (!m.feasible) return kInfeasibleReward;
  // Without a bound (an empty graph) every plan is as good as the bound.
  const double ratio = m.lowerBound > 0 ? m.stepTime / m.lowerBound : 1.0;
  // A feasible plan always earns more than an infeasible one, however slow it is.
  return std::max(-std::sqrt(std::max(ratio, 0.0)), kInfeasibleReward + 1.0);
}

}  // namespace gp
