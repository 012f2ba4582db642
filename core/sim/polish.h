// Polishing a plan with the suggested moves (sim/suggestions.h): round after round, the current
// plan's critical path is analysed, its candidate moves are simulated and the best one is
// applied; with `stack`, the round's other moves that shortened the step are then tried one by
// one on top of it and kept while they still shorten it (one analysis pays for several moves).
// It ends when no candidate shortens the step, after `maxMoves` moves, or when `stop` says so.
// The optimizer polishes its best plan at the end of a run (OptimizeOptions::polishShare);
// `explain --follow` applies the top suggestion round after round (stack off).
//
//   PolishResult r = polishPlan(cost, plan, {});
//   r.plan, r.stepTime, r.applied ...
#pragma once
#include <functional>
#include <vector>

#include "cost/cost_model.h"
#include "sim/plan.h"
#include "sim/move_ranker.h"
#include "sim/suggestions.h"

namespace gp {

struct PolishOptions {
  int maxMoves = 20;
  bool stack = true;
  unsigned kinds = kAllMoveKinds;  // the kinds of move tried (moveKindBit)
  int pathKernels = 24;            // suggestMoves' candidates of each kind per round
  int top = 8;                     // moves kept from a round: the best, and those stacked on it
  // An ordered, learned neighbourhood (SuggestOptions::ranker / keep): each round simulates the
  // candidates ranked first, `keep` at a time until one shortens the step (0: all).
  const MoveRanker* ranker = nullptr;
  int keep = 0;
  // Every candidate drawn from the path that was simulated, `round` numbering the rounds from 0.
  std::function<void(const MoveSample&)> record;
  std::function<bool(const Plan&)> allowFusion;  // SuggestOptions::allowFusion (the fusion rules)
};

struct PolishResult {
  Plan plan;                        // the polished plan
  double stepTime = 0;              // seconds, simulated; the start's when nothing helped
  std::vector<Suggestion> applied;  // in order; each stepTime is the plan's after that move
  int rounds = 0;
  int tried = 0;                    // plans simulated
};

// `plan` polished (it must run: a plan that does not is returned as it is). `onRound`, when
// given, sees the plan and its step time after every round that applied a move.
PolishResult polishPlan(const CostModel& cost, Plan plan, const PolishOptions& options,
                        const std::function<bool()>& stop = {},
                        const std::function<void(const Plan&, double stepTime)>& onRound = {});

}  // namespace gp
