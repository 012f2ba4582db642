// Hand edits of a plan's schedule and fusion (the op inspector and the Edit menu), as pure
// functions from one Plan to the next. The Document checks what the user asked for, wraps the
// result in one undo step and re-measures it; nothing here knows Qt.
//
//   Plan p = planedit::withPriority(plan, g.numOps(), {3, 4}, 10);
//   planedit::FuseResult f = planedit::fused(g, plan, {5, 6});  // f.problem: why not, or ""
//   planedit::LeaveResult u = planedit::withoutFusion(g, plan, {5});
//
// Fusion group ids stay stable across edits: a new group (or a part split off an old one) takes
// the smallest id no group uses, so the ids the inspector shows do not shift under the user.
// A group left with a single op dissolves (-1); a plan left with no group gets an empty
// fusionGroup (the same as never fused).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp::planedit {

// Every op keeps its priority and `ops` get `value`. A plan without priorities (FIFO ready
// queues) first gives every op priority 0. That is the same schedule: the simulator orders a
// ready queue by (highest priority first, then the order ops became ready), so with equal
// priorities it is FIFO (core/sim/simulator.cpp, Simulator::makeReady). A fused kernel runs at
// the highest priority of its ops.
Plan withPriority(const Plan& plan, int32_t numOps, const std::vector<OpId>& ops, int32_t value);

struct LeaveResult {
  Plan plan;
  // Groups dissolved as a whole because what was left of them could not run as one kernel
  // (the rest would interleave with the ops that left, a cycle between kernels).
  int dissolved = 0;
};
// `ops` leave their fusion groups. What remains of a group splits into its connected parts
// (through data edges): the first part (by op id) keeps the id, others get new ids, single ops
// are alone. When that breaks a fusion rule, the groups it touched dissolve entirely.
LeaveResult withoutFusion(const Graph& g, const Plan& plan, const std::vector<OpId>& ops);

struct FuseResult {
  Plan plan;            // the plan with `ops` as one group (only meaningful when problem is "")
  int32_t group = -1;   // the new group's id
  std::string problem;  // why the rules refuse it (fusionProblem, the new group named "the new group"), or ""
  int dissolved = 0;    // other groups dissolved as a whole when the ops left them (LeaveResult)
};
// `ops` (two or more) leave their groups (as withoutFusion) and become one new group, checked
// with fusionProblem on the whole resulting plan.
FuseResult fused(const Graph& g, const Plan& plan, const std::vector<OpId>& ops);

struct AssignResult {
  Plan plan;                     // the plan after the move
  std::vector<OpId> moved;       // the ops whose device changes, sorted (empty: nothing to do)
  std::vector<OpId> leftFusion;  // moved ops that left their fusion groups (a group moves whole or splits)
};
// `ops` with their colocation groups (a hard constraint: an ApplyAdam stays with the op that owns
// its parameter) on `device`. Ops of a fusion group that moves only in part leave it (one device
// per kernel), as withoutFusion; a group that moves whole stays fused.
AssignResult assigned(const Graph& g, const Plan& plan, const std::vector<OpId>& ops, int32_t device);

// Ops in fusion group `group` (0 for -1 or a plan without groups).
int32_t groupSize(const Plan& plan, int32_t group);
// Number of fusion groups and of ops in them.
struct FusionCount {
  int32_t groups = 0, fusedOps = 0;
};
FusionCount countFusion(const Plan& plan);

}  // namespace gp::planedit
