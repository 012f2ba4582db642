// Policy-guided local search over per-op levels (the scheduling and fusion tasks): the
// policy proposes, the simulator decides — as LocalSearch does for devices.
//
// One move changes 1, 2, 4 or 8 ops (in turn): each drawn with weight = the policy's probability
// that it leaves its incumbent level (times `eligible`: ops whose level cannot matter, such as
// ops that never fuse, are never drawn), given a new level drawn from its distribution without
// the current one. A candidate is kept when its step time is better, or no worse for a move of
// several ops. Moves are proposed and simulated in batches (rl/search_batch.h). Deterministic for
// a seed and batch size.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "rl/search_batch.h"

namespace gp::rl {

class LevelSearch {
 public:
  LevelSearch(int32_t numLevels, uint64_t seed);

  // `levels`: per op, updated in place on acceptance; `probs`: [ops x numLevels] row-major;
  // `eligible`: per op 1/0 (empty: every op); `step`: the incumbent's step time. Returns the
  // number of moves kept. `evaluate` simulates up to `batch` candidates at once.
  int run(std::vector<int32_t>& levels, const std::vector<float>& probs, const std::vector<uint8_t>& eligible,
          int moves, double step, const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch = 1);

 private:
  int32_t numLevels_;
  std::mt19937_64 rng_;
};

}  // namespace gp::rl
