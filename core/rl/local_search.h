// Policy-guided local search on the optimizer's incumbent plan: the policy
// proposes, the simulator decides.
//
// One move: a move group (a forward op's unit with its gradient and update units, see
// GraphFeatures::groupOf) drawn with weight = its units' mean probability, under the policy's
// sampling distribution, of leaving their incumbent device; a target device drawn from the
// group's mean distribution without the group's current device; a region of 1, 2, 4 or 8
// groups grown from it breadth-first along data edges (both directions) through groups on the same device (a
// stretch of a chain or branch of the model) moved whole to that device; every other move instead moves one unit drawn with weight =
// its probability of leaving its device; and every fourth move is a scope move: a name scope of
// the graph (a layer, a block, a time step: every group filed under it, GraphFeatures) drawn
// with weight = its groups' mean weight, moved whole to a device drawn from its units' summed
// probabilities (this is how a layer-wise split is reached on a 64k-op graph). A candidate replaces the walk's plan when its step time
// is better, or no worse for a region or scope of several groups (sideways steps cross plateaus: moving
// one of two chains that share a device changes nothing until the second one moves too; single units
// don't, or the walk drifts into scattered plans); the caller keeps the best plan it is shown.
// Moves are proposed and simulated in batches (rl/search_batch.h).
// Deterministic for a seed and batch size.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "rl/graph_features.h"
#include "rl/search_batch.h"

namespace gp::rl {

class LocalSearch {
 public:
  LocalSearch(const GraphFeatures& f, int32_t numDevices, uint64_t seed);

  // Tries `moves` moves on `units` (one device per unit, step time `step`; updated in place on
  // acceptance). `probs`: [numUnits x numDevices] row-major sampling probabilities. `evaluate`
  // simulates a batch of up to `batch` candidates and returns their step times. `stop` is
  // polled between batches. Returns the number of moves kept.
  int run(std::vector<int32_t>& units, const std::vector<float>& probs, int moves, double step,
          const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch = 1);

 private:
  const GraphFeatures& f_;
  int32_t numDevices_;
  std::mt19937_64 rng_;
  std::vector<int32_t> groupOff_, groupUnits_;  // CSR: the units of each group
  std::vector<int32_t> succOff_, succ_;         // CSR: groups joined to each group by data edges
  std::vector<int32_t> scopeOff_, scopeGroups_;  // CSR: the groups of each scope region
  std::vector<int32_t> mark_, queue_;
};

}  // namespace gp::rl
