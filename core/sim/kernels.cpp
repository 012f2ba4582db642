#include "sim/kernels.h"

#include <algorithm>

#include "cost/cost_model.h"

namespace gp {

void PlanKernels::form(const Plan& plan, int32_t numOps) {
  const auto n = static_cast<size_t>(numOps);
  kernelOf_.resize(n);
  offset_.assign(n + 1, 0);
  ops_.resize(n);
  // first op of each group; offset_ serves as that table before it holds the offsets
  std::vector<int32_t>& firstOf = ops_;
  std::fill(firstOf.begin(), firstOf.end(), -1);
  for (OpId op = 0; op < numOps; ++op) {
    const int32_t grp = plan.fusionGroup.empty() ? -1 : plan.fusionGroup[op];
    if (grp < 0) {
      kernelOf_[op] = op;
    } else {
      if (firstOf[grp] < 0) firstOf[grp] = op;
      kernelOf_[op] = firstOf[grp];
    }
  }
  for (OpId op = 0; op < numOps; ++op) ++offset_[kernelOf_[op] + 1];
  count_ = 0;
  for (OpId op = 0; op < numOps; ++op) {
    count_ += offset_[op + 1] > 0;
    offset_[op + 1] += offset_[op];
  }
  cursor_.assign(offset_.begin(), offset_.end() - 1);
  for (OpId op = 0; op < numOps; ++op) ops_[cursor_[kernelOf_[op]]++] = op;
}

KernelWork kernelWork(const CostModel& cost, const PlanKernels& kernels, int32_t k, KernelWorkScratch& scratch) {
  const Graph& g = cost.graph();
  if (scratch.seen.size() != static_cast<size_t>(g.numTensors()) || ++scratch.stamp == 0) {
    scratch.seen.assign(static_cast<size_t>(g.numTensors()), 0);
    scratch.stamp = 1;
  }
  KernelWork w;
  double leadFlops = 0;
  for (OpId op : kernels.ops(k)) {
    w.flops += g.flops(op);
    w.kernelFlops += cost.kernelFlops(op);
    if (!cost.isMetadata(op) && (w.lead == kNone || g.flops(op) > leadFlops)) {
      w.lead = op;
      leadFlops = g.flops(op);
    }
    for (TensorId t : g.inputs(op))
      if ((g.producer(t) == kNone || kernels.kernelOf(g.producer(t)) != k) && scratch.seen[t] != scratch.stamp) {
        scratch.seen[t] = scratch.stamp;
        w.bytesRead += g.tensorBytes(t);
      }
    for (TensorId t : g.outputs(op)) {
      bool external = g.consumers(t).empty();
      for (OpId c : g.consumers(t)) external |= kernels.kernelOf(c) != k;
      if (external) w.bytesWritten += g.tensorBytes(t);
    }
  }
  return w;
}

double kernelTime(const CostModel& cost, const PlanKernels& kernels, int32_t k, int device,
                  KernelWorkScratch& scratch) {
  if (!kernels.fused(k)) return cost.opTime(k, device);
  const KernelWork w = kernelWork(cost, kernels, k, scratch);
  if (w.lead == kNone) return 0;
  return cost.fusedKernelTime(w.kernelFlops, w.bytesRead + w.bytesWritten, w.lead, device);
}

}  // namespace gp
