#include "sim/plan_check.h"

namespace gp {

std::string fusionGroupsProblem(const Graph& g, const Plan& plan, std::vector<int32_t>& scratch) {
  const int32_t n = g.numOps();
  if (plan.fusionGroup.empty()) return {};
  if (static_cast<int32_t>(plan.fusionGroup.size()) != n || static_cast<int32_t>(plan.device.size()) != n)
    return "the plan's fusion groups do not cover every op";
  std::vector<int32_t>& deviceOfGroup = scratch;
  deviceOfGroup.assign(static_cast<size_t>(n), -1);
  for (OpId op = 0; op < n; ++op) {
    const int32_t grp = plan.fusionGroup[op];
    if (grp < -1 || grp >= n) return "op '" + g.opName(op) + "' has an invalid fusion group";
    if (grp < 0) continue;
    if (deviceOfGroup[grp] < 0) deviceOfGroup[grp] = plan.device[op];
    if (deviceOfGroup[grp] != plan.device[op])
      return "fusion group " + std::to_string(grp) + " spans two devices (op '" + g.opName(op) +
             "'): ops on different devices cannot fuse";
  }
  return {};
}

std::string planProblem(const Graph& g, int32_t numDevices, const Plan& plan, std::vector<int32_t>& scratch) {
  const int32_t n = g.numOps();
  if (static_cast<int32_t>(plan.device.size()) != n)
    return "the plan places " + std::to_string(plan.device.size()) + " ops, the graph has " + std::to_string(n);
  if (!plan.priority.empty() && static_cast<int32_t>(plan.priority.size()) != n)
    return "the plan's priorities do not cover every op";
  for (OpId op = 0; op < n; ++op)
    if (plan.device[op] < 0 || plan.device[op] >= numDevices)
      return "op '" + g.opName(op) + "' is placed on device " + std::to_string(plan.device[op]) +
             ", the cluster has " + std::to_string(numDevices);
  return fusionGroupsProblem(g, plan, scratch);
}

std::string planProblem(const Graph& g, int32_t numDevices, const Plan& plan) {
  std::vector<int32_t> scratch;
  return planProblem(g, numDevices, plan, scratch);
}

}  // namespace gp
