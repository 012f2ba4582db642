#include "session/placement_start.h"

#include "sim/simulator.h"

namespace gp {

std::vector<PlacementResult> runBaselines(const CostModel& cost, const std::vector<std::string>& methods) {
  Simulator sim(cost);
  std::vector<PlacementResult> rs;
  for (const std::string& m : methods) rs.push_back(runPlacement(m, cost, sim));
  return rs;
}

int bestBaseline(const std::vector<PlacementResult>& rs) {
  int best = -1;
  for (size_t i = 0; i < rs.size(); ++i)
    if (rs[i].measurement.feasible && (best < 0 || rs[i].measurement.stepTime < rs[static_cast<size_t>(best)].measurement.stepTime))
      best = static_cast<int>(i);
  return best;
}

void startFromBaselines(const std::vector<PlacementResult>& baselines, OptimizeOptions& o) {
  if (const int best = bestBaseline(baselines); best >= 0) o.startPlan = baselines[static_cast<size_t>(best)].plan;
  o.startCandidates.clear();
  for (const PlacementResult& b : baselines)
    if (b.measurement.feasible) o.startCandidates.push_back(b.plan);
}

}  // namespace gp
