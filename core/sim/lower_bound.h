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
// launch and no memory traffic shared by the whole kernel), so fused ops count only
// FLOPs / (peak x efficiency) on their fastest device. Equals lowerBound(cost) without fusion.
double lowerBound(const CostModel& cost, const std::vector<int32_t>& fusionGroup);

}  // namespace gp
