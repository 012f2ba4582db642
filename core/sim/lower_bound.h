// The lower bound every result is shown against: no schedule of the graph on the cluster can
// beat max(sum of each op's fastest time / number of devices, critical path with each op at
// its fastest time and zero communication).
#pragma once
#include "cost/cost_model.h"

namespace gp {

double lowerBound(const CostModel& cost);

}  // namespace gp
