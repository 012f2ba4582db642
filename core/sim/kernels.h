// Kernel formation: how a plan's ops become the kernels that run. The simulator times these
// kernels and the GPU program builder (profile/gpu_program.h) launches the same ones, so a
// simulated step and a measured one are made of the same kernels:
//  - an op outside every fusion group is a kernel of its own;
//  - the ops of one fusion group are one kernel, named by its first op (lowest id);
//  - a fused kernel does the summed FLOPs of its ops and moves only its boundary tensors: each
//    input made outside it (or a graph input, or a parameter) read once however many of its
//    ops read it, each output read outside it or by nothing written once;
//  - its lead op, which sets the kernel's class and compute rate (and the GPU program's
//    representative shape), is the op with the most FLOPs that is not a metadata op (first of
//    equals); a group of metadata ops only (Reshape, Identity, ...) has none and takes 0 s.
//
//   PlanKernels k;
//   k.form(plan, g.numOps());              // plan checked by planProblem first
//   KernelWorkScratch scratch;
//   for (OpId op = 0; op < g.numOps(); ++op)
//     if (k.kernelOf(op) == op) double t = kernelTime(cost, k, op, plan.device[op], scratch);
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

class CostModel;

class PlanKernels {
 public:
  // Forms the kernels of `plan` over a graph of `numOps` ops; storage is reused across calls.
  void form(const Plan& plan, int32_t numOps);
  int32_t kernelOf(OpId op) const { return kernelOf_[op]; }  // the kernel's id: its first op
  // The ops of kernel `k` in id order (empty when `k` names no kernel).
  std::span<const OpId> ops(int32_t k) const {
    return {ops_.data() + offset_[k], static_cast<size_t>(offset_[k + 1] - offset_[k])};
  }
  bool fused(int32_t k) const { return offset_[k + 1] - offset_[k] > 1; }
  bool anyFused() const { return count_ < static_cast<int32_t>(kernelOf_.size()); }
  int32_t count() const { return count_; }

 private:
  std::vector<int32_t> kernelOf_, offset_, ops_, cursor_;
  int32_t count_ = 0;
};

struct KernelWork {
  OpId lead = kNone;          // kNone: metadata ops only, no kernel
  double flops = 0;           // the ops' FLOPs as the graph counts them
  double kernelFlops = 0;     // the ops' CostModel::kernelFlops (what the roofline times)
  int64_t bytesRead = 0;      // boundary inputs, each once
  int64_t bytesWritten = 0;   // outputs read outside the kernel or by nothing
};

// Per-tensor scratch for kernelWork (reused: sized on first use).
struct KernelWorkScratch {
  std::vector<uint32_t> seen;
  uint32_t stamp = 0;
};

KernelWork kernelWork(const CostModel& cost, const PlanKernels& kernels, int32_t k, KernelWorkScratch& scratch);

// Kernel `k`'s time on `device`: a lone op's CostModel::opTime (calibrated or roofline), a
// fused kernel's CostModel::fusedKernelTime of its work and lead op, 0 without a lead.
double kernelTime(const CostModel& cost, const PlanKernels& kernels, int32_t k, int device,
                  KernelWorkScratch& scratch);

}  // namespace gp
