// Suggested moves for hand editing: candidates drawn from a step's critical path (sim/critical_path.h),
// each checked by simulating the plan it gives, best first.
//
// Candidates, from the longest kernels on the critical path (ops that move take the rest of their
// fusion groups along):
//  - an op with its family (its forward op, that op's gradient and update ops, and every op
//    colocated with one of them: what must or should move together) to each other device;
//  - the kernel alone (a weight gradient away from the gradient it runs beside) when its family
//    is larger;
//  - the op's name scope (a layer, a block, a time step) and up to three scopes above it, with
//    their families, to each other device (scopes holding more than half the graph are left out);
//  - two kernels that follow each other on the path on one device, the second reading the
//    first's output, fused into one kernel (when the plan's rules allow it): the pairs of the
//    most time;
//  - a kernel on the path that waited for its device behind others, run first when ready
//    (a priority above every other): the longest waits.
// Each kind takes at most `pathKernels` (24) candidates from the path, so a round costs a few
// hundred simulations however long the path is.
// Then the same moves in every repeat of the structure (inRepeats): the eight best candidates
// that shortened the step are tried again together with their counterparts in the sibling scopes
// of one of their scopes (layer_3's MatMul and BiasAdd fused in every layer_N, a branch moved
// in every inception block), so one suggestion can do what would take a dozen.
//
//   StepAnalysis a = analyzeStep(cost, plan, m);
//   for (const Suggestion& s : suggestMoves(cost, plan, a, 10)) apply(s.move) ...
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "sim/critical_path.h"
#include "sim/plan.h"

namespace gp {

struct PlanMove {
  enum class Kind : uint8_t { Op, Scope, Fuse, Priority };
  Kind kind = Kind::Op;
  std::vector<OpId> ops;  // moved (Op, Scope), fused (Fuse) or given `priority` (Priority), sorted
  int32_t device = -1;    // Op, Scope: the device they move to
  std::string what;       // "conv1 and 3 more", "scope encoder/layer_1", "fuse a with b"
  int32_t priority = 0;   // Priority: the ops' new priority (a plan without priorities gets 0
                          // elsewhere, which runs as first-in first-out does)
  // Fuse: the groups, each fused into a kernel of its own (empty: `ops` form one group)
  std::vector<std::vector<OpId>> groups;
};

struct Suggestion {
  PlanMove move;
  double stepTime = 0;  // simulated, after the move
};

// "op", "scope", "fuse", "priority".
const char* moveKindName(PlanMove::Kind kind);

// A set of move kinds, as bits (suggestMoves' `kinds`).
constexpr unsigned moveKindBit(PlanMove::Kind kind) { return 1u << static_cast<unsigned>(kind); }
constexpr unsigned kAllMoveKinds = 0xFu;

// The plan after `move`: the ops on its device, (Fuse) in one new fusion group with the groups
// they were in, or (Priority) at the new priority.
Plan applyMove(const Plan& plan, const PlanMove& move);

// `move` together with its counterparts in the repeats of one of its scopes: for each scope S
// above the move's first op (its forward op's scope and every scope above it), the ops whose
// names are the move's with S's name replaced by a sibling's (a scope with the same parent).
// A sibling counts only when every op of the move that lies under S has a counterpart there
// (and, for Fuse, when the counterparts share a device in `plan`). One move per scope with at
// least one such sibling, deepest scope first; `what` names the pattern. A fusion of two ops,
// one feeding the other, also gives the rule it follows: every unfused op of the first's type
// whose outputs only an op of the second's type reads, on one device, fused pair by pair.
std::vector<PlanMove> inRepeats(const Graph& g, const Plan& plan, const PlanMove& move);

// `op` with its family: its forward op (forwardOf, or itself), every op whose forward op that is,
// closed over colocation groups; sorted.
std::vector<OpId> opFamily(const Graph& g, OpId op);

class MoveRanker;
struct MoveSample;

struct SuggestOptions {
  int pathKernels = 24;            // candidates of each kind drawn from the path
  unsigned kinds = kAllMoveKinds;  // the kinds of move tried (moveKindBit)
  std::function<bool()> stop;      // polled between simulations: ends the search with what it has
  // An ordered neighbourhood: the candidates drawn from the path are ranked — by `ranker`'s
  // predicted gain (sim/move_ranker.h), or without one by the time of the path kernel they came
  // from (its wait, for a priority) — and simulated `keep` at a time, the next `keep` only when
  // none so far shortened the step (0: all, in the order drawn). The repeats of the best are
  // tried as always.
  const MoveRanker* ranker = nullptr;
  int keep = 0;
  // The plan's simulated step, for the ranker's features (device busy time, memory); may be null.
  const Measurement* measured = nullptr;
  // Each candidate drawn from the path that was simulated, with its features and gain (the
  // ranker's training data; sim/move_ranker.h).
  std::function<void(const MoveSample&)> record;
  // A fusion is tried only when this accepts the plan it gives (the fusion rules of
  // fusion/fusion.h's fusionProblem, which the simulator does not apply); unset: every fusion.
  std::function<bool(const Plan&)> allowFusion;
};

// Up to `top` moves that shorten the step, best first (ties: the order they were tried; the same
// ops moved to another device with the same result are listed once), from at most `pathKernels`
// candidates of each kind drawn from the path. `tried`, when given, counts the plans simulated.
std::vector<Suggestion> suggestMoves(const CostModel& cost, const Plan& plan, const StepAnalysis& a, int top,
                                     const SuggestOptions& options, int* tried = nullptr);
// The same with every kind of move, no ranking and no fusion rules.
std::vector<Suggestion> suggestMoves(const CostModel& cost, const Plan& plan, const StepAnalysis& a, int top,
                                     int pathKernels = 24, const std::function<bool()>& stop = {},
                                     int* tried = nullptr);

}  // namespace gp
