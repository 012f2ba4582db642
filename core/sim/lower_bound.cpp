#include "sim/lower_bound.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace gp {

double lowerBound(const CostModel& cost) { return lowerBound(cost, {}); }

double lowerBound(const CostModel& cost, const std::vector<int32_t>& fusionGroup) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  const int nd = c.numDevices();
  // Per fusion group and device: the highest FLOP rate any op of the group could set for the
  // kernel it leads. Groups are ids in [0, ops) in a valid plan; other ids are remapped.
  int32_t maxGroup = -1;
  for (int32_t grp : fusionGroup) maxGroup = std::max(maxGroup, grp);
  std::unordered_map<int32_t, size_t> sparse;
  auto slotOf = [&](int32_t grp) -> size_t {
    if (maxGroup < g.numOps()) return static_cast<size_t>(grp);
    return sparse.try_emplace(grp, sparse.size()).first->second;
  };
  const size_t groups = static_cast<size_t>(std::min(maxGroup + 1, g.numOps()));
  std::vector<double> rate(groups * static_cast<size_t>(nd), 0.0);
  for (OpId op = 0; op < static_cast<OpId>(fusionGroup.size()); ++op) {
    if (fusionGroup[op] < 0) continue;
    const size_t base = slotOf(fusionGroup[op]) * static_cast<size_t>(nd);
    for (int d = 0; d < nd; ++d) rate[base + d] = std::max(rate[base + d], cost.kernelComputeRate(op, d));
  }
  auto fastest = [&](OpId op) {
    if (fusionGroup.empty() || fusionGroup[op] < 0) return cost.fastestOpTime(op);
    const double flops = cost.kernelFlops(op);
    if (!(flops > 0)) return 0.0;
    const size_t base = slotOf(fusionGroup[op]) * static_cast<size_t>(nd);
    double best = cost.fastestOpTime(op);
    for (int d = 0; d < nd; ++d) best = std::min(best, flops / rate[base + d]);
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
  return std::max(work / std::max(1, nd), path);
}

}  // namespace gp
