// The optimizer's decisions for one candidate plan (GO's three tasks) and how they
// become a Plan. Torch-free.
//
//   placement: a device per placement unit (GraphFeatures::unitOf; colocation always holds);
//   schedule:  a level per op in [0, scheduleLevels); the op's priority is
//              level * (ops + 1) + base, where base in [1, ops] is the critical-path rank order
//              (GraphFeatures::priority) or the start plan's own order when it simulates better:
//              level 0 everywhere is the rank order, a higher level runs an op before every
//              ready op of a lower level;
//   fusion:    a level per op in [0, fusionLevels); fuseByPriority merges ops of level > 0 in
//              decreasing level (0: never fuses).
// A task that is not optimized keeps a fixed value: the start plan's devices (every op on
// device 0 without one), its priorities (FIFO without them), and for fusion OptimizeOptions::fuse
// (None; Default: defaultFusion on each plan's devices; Plan: the start plan's groups).
//
// Placement fixed: the start plan's devices are kept op by op, exactly as given, even where they
// split a colocation group (a placement unit) over two devices — the user fixed them, and the
// simulator runs such plans (colocation is a placement constraint the policy keeps, not a rule of
// the plan). Decisions::units is then ignored; each unit's entry holds its first op's device (what
// the policy's device residuals read). A start device outside the cluster is a gp::Error. With
// placement optimized, a start plan's devices only seed the units (each takes its first op's
// device, clamped to the cluster), so every candidate keeps colocation.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fusion/fuser.h"
#include "optimize/optimize.h"
#include "rl/graph_features.h"

namespace gp::rl {

struct Decisions {
  std::vector<int32_t> units;     // per placement unit: device
  std::vector<int32_t> schedule;  // per op: scheduling level (used when the task is on)
  std::vector<int32_t> fusion;    // per op: fusion level (used when the task is on)
  bool operator==(const Decisions&) const = default;
};

class PlanBuilder {
 public:
  // Throws gp::Error for options that contradict each other (FuseMode::Plan with placement
  // optimized) or no task at all.
  PlanBuilder(const Graph& g, const GraphFeatures& f, const OptimizeOptions& o, int32_t numDevices);

  Plan build(const Decisions& d) const;
  // The start: the start plan's devices (or device 0), level 0 schedules, fusion level 1 for
  // every op that may fuse.
  Decisions initial() const;
  // Uses `priority` (per op, higher first; e.g. a start plan's) as the base order instead of the
  // critical-path ranks.
  void setBaseOrder(const std::vector<int32_t>& priority);
  void resetBaseOrder();
  // The priorities every plan gets when the schedule is not a task (empty: FIFO); the start
  // plan's at first.
  void setFixedPriority(const std::vector<int32_t>& priority) { fixedPriority_ = priority; }

  // Ops whose fusion level matters (fusionRole != Never), 1/0 per op.
  const std::vector<uint8_t>& fusible() const { return fusible_; }
  // Per unit: its first op's device in `plan`, clamped to the cluster.
  std::vector<int32_t> unitsOf(const Plan& plan) const;
  // Per op: the device of every plan built while placement is not a task.
  const std::vector<int32_t>& fixedDevices() const { return fixedDevice_; }
  const OptimizeTasks& tasks() const { return tasks_; }

 private:
  const Graph& g_;
  const GraphFeatures& f_;
  OptimizeTasks tasks_;
  FuseMode fuse_;
  int32_t numDevices_;
  std::vector<int32_t> base_;                      // per op, in [1, ops]
  std::vector<int32_t> fixedUnits_;                // the start's units (initial decisions)
  std::vector<int32_t> fixedDevice_;               // placement not a task: per op, the start's
  std::vector<int32_t> fixedPriority_;             // schedule not a task
  std::vector<int32_t> fixedFusion_;               // fuse_ == FuseMode::Plan
  std::vector<uint8_t> fusible_;
};

}  // namespace gp::rl
