// The lower bound every result is shown against: no schedule of the graph on the cluster can
// beat max(sum of each op's fastest time / number of devices, critical path with each op at
// its fastest time and zero communication).
#pragma once
#include <cstdint>
#include <vector>

#include "cost/cost_model.h"

namespace gp {

double lowerBound(const CostModel& cost);

// The bound for a plan that fuses ops: a fused op may cost as little as its arithmetic (one
// launch and no memory traffic shared by the whole kernel). The simulator charges a fused
// kernel's summed FLOPs at the rate (peak x efficiency, the device kind's own efficiency where
// the cluster lists one) of its op with the most FLOPs, which may be another op of the group, so
// a fused op counts FLOPs / (the best such rate over its group's ops) on its fastest device,
// and never more than its own fastest unfused time (a group of one op on a device runs as that
// op). Equals lowerBound(cost) without fusion.
double lowerBound(const CostModel& cost, const std::vector<int32_t>& fusionGroup);

}  // namespace gp
