#include "rl/decisions.h"

#include <algorithm>
#include <numeric>

#include "base/error.h"

namespace gp::rl {

PlanBuilder::PlanBuilder(const Graph& g, const GraphFeatures& f, const OptimizeOptions& o, int32_t numDevices)
    : g_(g), f_(f), tasks_(o.tasks), fuse_(o.fuse), numDevices_(std::max(1, numDevices)),
      base_(f.priority) {
  if (!tasks_.any()) throw Error("optimize", "no task to optimize (placement, schedule, fusion)");
  if (!tasks_.fusion && fuse_ == FuseMode::Plan && tasks_.placement)
    throw Error("optimize", "--fuse plan keeps the start plan's fusion groups, so placement cannot be optimized too");
  const Plan* start = o.startPlan ? &*o.startPlan : nullptr;
  fixedUnits_.assign(static_cast<size_t>(f.numUnits), 0);
  fixedDevice_.assign(static_cast<size_t>(f.numOps), 0);
  if (start) {
    if (start->device.size() != static_cast<size_t>(f.numOps))
      throw Error("optimize", "the start plan places " + std::to_string(start->device.size()) + " ops, the graph has " +
                                  std::to_string(f.numOps));
    if (!tasks_.placement) {
      for (OpId op = 0; op < f.numOps; ++op)
        if (start->device[op] < 0 || start->device[op] >= numDevices_)
          throw Error("optimize", "the start plan puts op '" + g.opName(op) + "' on device " +
                                      std::to_string(start->device[op]) + ", placement is fixed and the cluster has " +
                                      std::to_string(numDevices_) + " devices");
      fixedDevice_ = start->device;  // op by op: a colocation group the start splits stays split
    }
    fixedUnits_ = unitsOf(*start);
    fixedPriority_ = start->priority;
    if (fuse_ == FuseMode::Plan) fixedFusion_ = start->fusionGroup;
  }
  fusible_.resize(static_cast<size_t>(f.numOps));
  for (OpId op = 0; op < f.numOps; ++op) fusible_[op] = fusionRole(g, op) != FusionRole::Never;
}

std::vector<int32_t> PlanBuilder::unitsOf(const Plan& plan) const {
  std::vector<int32_t> u(static_cast<size_t>(f_.numUnits));
  for (int32_t i = 0; i < f_.numUnits; ++i) u[static_cast<size_t>(i)] = std::clamp<int32_t>(plan.device[f_.unitFirstOp[i]], 0, numDevices_ - 1);
  return u;
}

void PlanBuilder::setBaseOrder(const std::vector<int32_t>& priority) {
  const int32_t n = f_.numOps;
  std::vector<int32_t> order(f_.topo);  // decreasing priority, ties in topological order
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return priority[a] > priority[b]; });
  for (int32_t i = 0; i < n; ++i) base_[order[i]] = n - i;
}

void PlanBuilder::resetBaseOrder() { base_ = f_.priority; }

Decisions PlanBuilder::initial() const {
  Decisions d;
  d.units = fixedUnits_;
  d.schedule.assign(static_cast<size_t>(f_.numOps), 0);
  d.fusion.resize(static_cast<size_t>(f_.numOps));
  for (size_t i = 0; i < d.fusion.size(); ++i) d.fusion[i] = fusible_[i] ? 1 : 0;
  return d;
}

Plan PlanBuilder::build(const Decisions& d) const {
  Plan p;
  if (tasks_.placement) p = planFromUnits(f_, d.units);
  else p.device = fixedDevice_;
  if (tasks_.schedule) {
    const int64_t stride = static_cast<int64_t>(f_.numOps) + 1;
    p.priority.resize(static_cast<size_t>(f_.numOps));
    for (int32_t op = 0; op < f_.numOps; ++op)
      p.priority[op] = static_cast<int32_t>(d.schedule[op] * stride + base_[op]);
  } else {
    p.priority = fixedPriority_;
  }
  if (tasks_.fusion) p.fusionGroup = fuseByPriority(g_, p.device, d.fusion);
  else if (fuse_ == FuseMode::Default) p.fusionGroup = defaultFusion(g_, p.device);
  else if (fuse_ == FuseMode::Plan) p.fusionGroup = fixedFusion_;
  return p;
}

}  // namespace gp::rl
