// Baseline placers: the plans every optimizer result is compared against.
//
//   PlacementResult r = runPlacement("m_etf", cost, sim);   // sim built on the same cost model
//   r.measurement.stepTime, r.seconds, r.note
//
// Every placer respects colocation groups (Graph::colocGroup: one device per group) and
// requested devices the cluster has (Graph::requestedDevice, matched by name, "gpu:1" and
// "/device:GPU:1" also match "gpu1"). Every placer except "single" is memory-aware: when its
// plan does not fit, the plan is repaired (units moved off the over-full device, checked with
// the simulator) or replaced by a feasible fallback, and `note` says so.
#pragma once
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "sim/simulator.h"

namespace gp {

struct PlacementResult {
  std::string method;
  Plan plan;
  Measurement measurement;  // of `plan`, with the timeline
  double seconds = 0;       // wall time of the placer (including repair), not of the final simulation
  std::string note;         // e.g. why a fallback was used
};

// "single", "round_robin", "expert", "metis", "m_topo", "m_etf", "m_sct", "heft".
std::vector<std::string> placementMethods();

// Runs one placer. `sim` must simulate `cost` (same graph and cluster). Throws
// gp::Error("method NAME", ...) for an unknown name.
PlacementResult runPlacement(const std::string& method, const CostModel& cost, Simulator& sim);

}  // namespace gp
