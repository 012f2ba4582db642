// What the policy-guided searches (LocalSearch, LevelSearch) share: candidates are proposed from
// the walk's current state in batches, simulated together (on several threads, Incumbent), and
// the batch's best acceptable candidate is taken; the rest of the batch is spent. A batch of 1 is
// the plain sequential walk.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace gp::rl {

// Step times of the candidates, in order (infinity when infeasible).
using EvaluateBatch = std::function<std::vector<double>(const std::vector<std::vector<int32_t>>&)>;

struct Proposal {
  std::vector<int32_t> candidate;
  bool sideways = false;  // kept when no worse (a move of several units or ops across a plateau)
};

// The index of the proposal to take (the fastest acceptable one, the earliest of equals), or -1;
// `step` becomes its step time. Acceptable: faster than `step`, or no slower when sideways.
inline int acceptBest(const std::vector<Proposal>& proposals, const std::vector<double>& times, double& step) {
  int chosen = -1;
  double chosenTime = 0;
  for (size_t i = 0; i < proposals.size() && i < times.size(); ++i) {
    const double t = times[i];
    const bool ok = t < step * (1 - 1e-12) || (proposals[i].sideways && t <= step * (1 + 1e-12));
    if (ok && (chosen < 0 || t < chosenTime)) chosen = static_cast<int>(i), chosenTime = t;
  }
  if (chosen >= 0) step = std::min(step, chosenTime);
  return chosen;
}

// Proposes up to `batch` candidates (propose(m) for m = next, next + 1, ...; nullopt-like empty
// candidates are skipped), evaluates them, takes the best; until `moves` are proposed or `stop`.
// `take(proposal)` applies an accepted one. Returns the number taken.
template <class ProposeFn, class TakeFn>
int walkInBatches(int moves, int batch, double step, const EvaluateBatch& evaluate, const std::function<bool()>& stop,
                  ProposeFn&& propose, TakeFn&& take) {
  int kept = 0, m = 0;
  std::vector<Proposal> proposals;
  std::vector<std::vector<int32_t>> candidates;
  while (m < moves && !stop()) {
    proposals.clear();
    while (static_cast<int>(proposals.size()) < std::max(1, batch) && m < moves) {
      Proposal p = propose(m++);
      if (!p.candidate.empty()) proposals.push_back(std::move(p));
    }
    if (proposals.empty()) continue;
    candidates.clear();
    for (const Proposal& p : proposals) candidates.push_back(p.candidate);
    const int chosen = acceptBest(proposals, evaluate(candidates), step);
    if (chosen >= 0) {
      take(proposals[static_cast<size_t>(chosen)]);
      ++kept;
    }
  }
  return kept;
}

}  // namespace gp::rl
