// Features of a candidate move: see move_features.h.
#include "sim/move_features.h"

#include <algorithm>
#include <cmath>

namespace gp {

const char* moveGroupName(MoveGroup group) {
  switch (group) {
    case MoveGroup::Family: return "family";
    case MoveGroup::Alone: return "alone";
    case MoveGroup::Scope: return "scope";
    case MoveGroup::Fuse: return "fuse";
    case MoveGroup::Priority: return "priority";
  }
  return "?";
}

const std::array<const char*, kMoveFeatures>& moveFeatureNames() {
  static const std::array<const char*, kMoveFeatures> names{
      "bias",      "lead_share",      "waited_share",  "ops_log",   "ops_share",       "from_busy",
      "to_busy",   "from_path_share", "to_path_share", "to_memory", "transfer_change", "moved_work_share"};
  return names;
}

MoveContext::MoveContext(const CostModel& cost, const Plan& plan, const StepAnalysis& a, const Measurement* m)
    : cost_(cost), plan_(plan), a_(a), m_(m), moved_(static_cast<size_t>(cost.graph().numOps()), 0) {}

double MoveContext::transferChange(const std::vector<OpId>& ops, int32_t to) {
  const Graph& g = cost_.graph();
  for (OpId op : ops) moved_[op] = 1;
  double change = 0;
  for (OpId op : ops) {
    const int32_t from = plan_.device[op];
    for (TensorId t : g.inputs(op)) {
      const OpId p = g.producer(t);
      if (p == kNone || moved_[p]) continue;
      const int64_t bytes = g.tensorBytes(t);
      change += cost_.transferTime(bytes, plan_.device[p], to) - cost_.transferTime(bytes, plan_.device[p], from);
    }
    for (TensorId t : g.outputs(op))
      for (OpId c : g.consumers(t)) {
        if (moved_[c]) continue;
        const int64_t bytes = g.tensorBytes(t);
        change += cost_.transferTime(bytes, to, plan_.device[c]) - cost_.transferTime(bytes, from, plan_.device[c]);
      }
  }
  for (OpId op : ops) moved_[op] = 0;
  return change;
}

MoveFeatureRow MoveContext::features(const PlanMove& move, const MoveOrigin& origin) {
  const double step = std::max(a_.stepTime, 1e-12);
  const double numOps = std::max(1, cost_.graph().numOps());
  const auto share = [&](const std::vector<double>& perDevice, int32_t d) {
    return d >= 0 && static_cast<size_t>(d) < perDevice.size() ? perDevice[d] / step : 0.0;
  };
  const auto busy = [&](int32_t d) {
    return m_ && d >= 0 && static_cast<size_t>(d) < m_->devices.size() ? m_->devices[d].utilization : 0.0;
  };
  const bool moves = move.kind == PlanMove::Kind::Op || move.kind == PlanMove::Kind::Scope;
  const int32_t to = moves ? move.device : -1;
  double work = 0;
  for (OpId op : move.ops) work += cost_.opTime(op, plan_.device[op]);
  MoveFeatureRow x{};
  x[0] = 1;
  x[1] = origin.leadSeconds / step;
  x[2] = origin.waitedSeconds / step;
  x[3] = std::log1p(static_cast<double>(move.ops.size())) / 10;
  x[4] = static_cast<double>(move.ops.size()) / numOps;
  x[5] = busy(origin.from);
  x[6] = busy(to);
  x[7] = share(a_.computeByDevice, origin.from);
  x[8] = share(a_.computeByDevice, to);
  if (m_ && to >= 0 && static_cast<size_t>(to) < m_->devices.size() && m_->devices[to].capacity > 0)
    x[9] = static_cast<double>(m_->devices[to].peakMemory) / static_cast<double>(m_->devices[to].capacity);
  x[10] = moves ? std::clamp(transferChange(move.ops, to) / step, -5.0, 5.0) : 0.0;
  x[11] = std::min(work / step, 5.0);
  return x;
}

}  // namespace gp
