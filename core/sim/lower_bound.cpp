#include "sim/lower_bound.h"

#include <algorithm>
#include <vector>

namespace gp {

double lowerBound(const CostModel& cost) { return lowerBound(cost, {}); }

double lowerBound(const CostModel& cost, const std::vector<int32_t>& fusionGroup) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  auto fastest = [&](OpId op) {
    if (fusionGroup.empty() || fusionGroup[op] < 0) return cost.fastestOpTime(op);
    double best = -1;
    for (int d = 0; d < c.numDevices(); ++d) {
      const double t = cost.fusedTime(g.flops(op), 0, cost.opClass(op), cost.opDType(op), d) - c.device(d).launchOverhead;
      if (best < 0 || t < best) best = t;
    }
    return std::max(0.0, best);
  };
  std::vector<double> finish(static_cast<size_t>(g.numOps()), 0.0);
  double work = 0, path = 0;
  for (OpId op : g.topoOrder()) {
    const double t = fastest(op);
    work += t;
    double start = 0;
    for (OpId p : g.fanIn(op)) start = std::max(start, finish[p]);
    finish[op] = start + t;
    path = std::max(path, finish[op]);
  }
  return std::max(work / std::max(1, cost.cluster().numDevices()), path);
}

}  // namespace gp
