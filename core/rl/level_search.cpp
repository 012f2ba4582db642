// Local search over per-op levels: see level_search.h.
#include "rl/level_search.h"

#include <algorithm>

namespace gp::rl {

LevelSearch::LevelSearch(int32_t numLevels, uint64_t seed)
    : numLevels_(std::max(2, numLevels)), rng_(seed ^ 0x632be59bd9b4e019ull) {}

int LevelSearch::run(std::vector<int32_t>& levels, const std::vector<float>& probs,
                     const std::vector<uint8_t>& eligible, int moves, double step,
                     const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch) {
  const auto n = static_cast<int32_t>(levels.size());
  const auto L = static_cast<size_t>(numLevels_);
  if (n == 0 || probs.size() != static_cast<size_t>(n) * L) return 0;
  // cumulative weights of leaving the current level (ops drawn by binary search)
  std::vector<double> cumulative(static_cast<size_t>(n));
  double total = 0;
  auto refresh = [&] {
    total = 0;
    for (int32_t op = 0; op < n; ++op) {
      const bool ok = eligible.empty() || eligible[op];
      const double stay = probs[static_cast<size_t>(op) * L + static_cast<size_t>(levels[op])];
      total += ok ? std::max(1e-6, 1.0 - stay) : 0.0;
      cumulative[static_cast<size_t>(op)] = total;
    }
  };
  refresh();
  if (total <= 0) return 0;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto propose = [&](int m) {
    const int size = 1 << (m % 4);
    Proposal p{levels, size > 1};
    std::vector<int32_t>& candidate = p.candidate;
    for (int k = 0; k < size; ++k) {
      const double r = unit(rng_) * total;
      const auto op = static_cast<int32_t>(std::lower_bound(cumulative.begin(), cumulative.end(), r) - cumulative.begin());
      if (op >= n) continue;
      const float* pr = probs.data() + static_cast<size_t>(op) * L;
      double mass = 0;
      for (size_t l = 0; l < L; ++l) mass += static_cast<int32_t>(l) == candidate[op] ? 0.0 : std::max(1e-6f, pr[l]);
      double pick = unit(rng_) * mass;
      for (size_t l = 0; l < L; ++l) {
        if (static_cast<int32_t>(l) == candidate[op]) continue;
        pick -= std::max(1e-6f, pr[l]);
        if (pick <= 0 || l + 1 == L || (l + 2 == L && static_cast<int32_t>(l + 1) == candidate[op])) {
          candidate[op] = static_cast<int32_t>(l);
          break;
        }
      }
    }
    if (candidate == levels) candidate.clear();
    return p;
  };
  return walkInBatches(moves, batch, step, evaluate, stop, propose, [&](const Proposal& taken) {
    levels = taken.candidate;
    refresh();
  });
}

}  // namespace gp::rl
