// The list schedulers behind the "m_etf", "m_sct" and "heft" placers, with the schedule they
// predict (not public: placer.cpp goes through placeEtf / placeSct / placeHeft; tests compare
// the prediction with the simulator).
#pragma once
#include <string>
#include <vector>

#include "placement/placement_util.h"

namespace gp::placement {

struct ListSchedule {
  Plan plan;                          // devices, priorities = predicted start order
  std::vector<double> start, finish;  // per op, predicted
  double makespan = 0;                // predicted step time
  std::vector<int64_t> peakMemory;    // per device, predicted (MemoryTracker::peak)
};

// m-ETF (sct = false) or m-SCT (sct = true).
ListSchedule scheduleEtf(const Context& ctx, bool sct, std::string& note);
ListSchedule scheduleHeft(const Context& ctx, std::string& note);

}  // namespace gp::placement
