#include "optimize/optimize.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "optimize/rl_plugin.h"

namespace gp {

OptimizeResult optimizePlan(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
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

OptimizeTasks parseTasks(const std::string& text) {
  OptimizeTasks t{false, false, false};
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, ',')) {
    if (word == "placement") t.placement = true;
    else if (word == "schedule" || word == "scheduling") t.schedule = true;
    else if (word == "fusion") t.fusion = true;
    else throw std::invalid_argument("unknown task '" + word + "' (placement, schedule, fusion)");
  }
  if (!t.any()) throw std::invalid_argument("no task given (placement, schedule, fusion)");
  return t;
}

std::string toString(const OptimizeTasks& t) {
  std::string s;
  for (auto [on, name] : {std::pair{t.placement, "placement"}, {t.schedule, "schedule"}, {t.fusion, "fusion"}})
    if (on) {
      if (!s.empty()) s += ',';
      s += name;
    }
  return s;
}

double planReward(const Measurement& m) { return planReward(m, m.lowerBound); }

double planReward(const Measurement& m, double lowerBound) {
  if (!m.feasible) return kInfeasibleReward;
  // Without a bound (an empty graph) every plan is as good as the bound.
  const double ratio = lowerBound > 0 ? m.stepTime / lowerBound : 1.0;
  // A feasible plan always earns more than an infeasible one, however slow it is.
  return std::max(-std::sqrt(std::max(ratio, 0.0)), kInfeasibleReward + 1.0);
}

}  // namespace gp
