#include "sim/lower_bound.h"

#include <algorithm>
#include <vector>

namespace gp {

double lowerBound(const CostModel& cost) {
  const Graph& g = cost.graph();
  std::vector<double> finish(static_cast<size_t>(g.numOps()), 0.0);
  double work = 0, path = 0;
  for (OpId op : g.topoOrder()) {
    const double t = cost.fastestOpTime(op);
    work += t;
    double start = 0;
    for (OpId p : g.fanIn(op)) start = std::max(start, finish[p]);
    finish[op] = start + t;
    path = std::max(path, finish[op]);
  }
  return std::max(work / std::max(1, cost.cluster().numDevices()), path);
}

}  // namespace gp
