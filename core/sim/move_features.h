// What a candidate move looks like before it is simulated: a few numbers read off the plan, its
// simulated step and critical path (the move ranker's input, sim/move_ranker.h). Every number is
// a share of the step time, of the graph or of a device, so graphs and clusters of any size
// read alike.
//
//   MoveContext ctx(cost, plan, analysis, &measurement);
//   MoveFeatureRow x = ctx.features(move, origin);
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "cost/cost_model.h"
#include "sim/critical_path.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "sim/suggestions.h"

namespace gp {

// The kinds of candidate the suggestions draw from the path, each ranked by its own weights.
enum class MoveGroup : uint8_t { Family, Alone, Scope, Fuse, Priority };
inline constexpr int kMoveGroups = 5;
const char* moveGroupName(MoveGroup group);  // "family", "alone", "scope", "fuse", "priority"

// Where a candidate came from on the critical path.
struct MoveOrigin {
  MoveGroup group = MoveGroup::Family;
  double leadSeconds = 0;    // the path kernel's time (a fusion: both kernels')
  double waitedSeconds = 0;  // the path kernel's wait for its device
  int32_t from = -1;         // the path kernel's device
  int scopeLevel = 0;        // Scope: 0 = the op's own scope, 1 = the one above, ...
};

// Without a learned ranker: the time of the path kernel a candidate came from (its wait, for a
// priority), longest first — the order the suggestions draw candidates in.
inline double heuristicMoveScore(const MoveOrigin& o) {
  return o.group == MoveGroup::Priority ? o.waitedSeconds : o.leadSeconds;
}

inline constexpr int kMoveFeatures = 12;
using MoveFeatureRow = std::array<double, kMoveFeatures>;
// The features' names, in order: "bias", "lead_share", "waited_share", "ops_log", "ops_share",
// "from_busy", "to_busy", "from_path_share", "to_path_share", "to_memory", "transfer_change",
// "moved_work_share".
const std::array<const char*, kMoveFeatures>& moveFeatureNames();

class MoveContext {
 public:
  // `m`: the plan's simulated step (device busy time and memory); null: those features are 0.
  MoveContext(const CostModel& cost, const Plan& plan, const StepAnalysis& a, const Measurement* m);
  MoveFeatureRow features(const PlanMove& move, const MoveOrigin& origin);

 private:
  // Seconds of transfer the move adds (positive) or saves (negative), each crossing tensor
  // counted once per consumer: ops moved to `to`, their neighbours staying where they are.
  double transferChange(const std::vector<OpId>& ops, int32_t to);

  const CostModel& cost_;
  const Plan& plan_;
  const StepAnalysis& a_;
  const Measurement* m_;
  std::vector<char> moved_;  // marks of the move's ops, cleared after each move
};

}  // namespace gp
