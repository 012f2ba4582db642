// Polishing a plan with the suggested moves: see polish.h.
#include "sim/polish.h"

#include "sim/critical_path.h"
#include "sim/simulator.h"

namespace gp {

PolishResult polishPlan(const CostModel& cost, Plan plan, const PolishOptions& options,
                        const std::function<bool()>& stop, const std::function<void(const Plan&, double)>& onRound) {
  PolishResult r;
  Simulator sim(cost);
  Measurement m = sim.run(plan);
  r.stepTime = m.stepTime;
  const auto stopped = [&] { return stop && stop(); };
  if (!m.feasible) {
    r.plan = std::move(plan);
    return r;
  }
  Measurement trial;
  SuggestOptions so;
  so.pathKernels = options.pathKernels;
  so.kinds = options.kinds;
  so.stop = stop;
  so.ranker = options.ranker;
  so.keep = options.keep;
  so.measured = &m;
  so.allowFusion = options.allowFusion;
  int round = 0;
  if (options.record)
    so.record = [&](const MoveSample& s) {
      MoveSample numbered = s;
      numbered.round = round;
      options.record(numbered);
    };
  for (; static_cast<int>(r.applied.size()) < options.maxMoves && !stopped(); ++round) {
    int tried = 0;
    const std::vector<Suggestion> found =
        suggestMoves(cost, plan, analyzeStep(cost, plan, m), options.stack ? std::max(options.top, 1) : 1, so, &tried);
    r.tried += tried;
    if (found.empty()) break;
    ++r.rounds;
    plan = applyMove(plan, found.front().move);
    r.stepTime = found.front().stepTime;
    r.applied.push_back(found.front());
    // the round's other moves on top of the best one, kept while they still shorten the step
    for (size_t i = 1; i < found.size() && static_cast<int>(r.applied.size()) < options.maxMoves && !stopped(); ++i) {
      Plan next = applyMove(plan, found[i].move);
      sim.run(next, trial, /*recordTimeline=*/false);
      ++r.tried;
      if (!trial.feasible || trial.stepTime >= r.stepTime) continue;
      plan = std::move(next);
      r.stepTime = trial.stepTime;
      r.applied.push_back({found[i].move, trial.stepTime});
    }
    m = sim.run(plan);  // with the timeline: the next round's critical path
    if (onRound) onRound(plan, r.stepTime);
  }
  r.plan = std::move(plan);
  return r;
}

}  // namespace gp
