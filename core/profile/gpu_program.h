// GpuProgram: one step of a placed graph as the GPU executor (profile/cuda/executor) runs it,
// built without CUDA from the cost model, the plan and the plan's simulated Measurement.
//
// Every kernel of the plan (sim/kernels.h: an op, or a fusion group) becomes a GpuLaunch of a
// representative kernel with the kernel's FLOPs and bytes: a cuBLAS GEMM for MatMul-class ops (the shapes from
// the op's inputs, else a cube of the same FLOPs), a cuDNN convolution for a Conv2D / Conv with
// NHWC-readable shapes (else the GEMM of the same FLOPs), our memory kernel otherwise (reads
// bytesRead, writes bytesWritten, spends the FLOPs over its elements), nothing for metadata
// ops (Reshape, Identity, ...: no kernel, the launch only orders its dependants). A tensor read
// on another device becomes one GpuCopy per destination device (a peer copy after its
// producer, on the copy stream of that device pair). Each device runs its launches on one
// stream in the simulated start order; `issue` is one host order of every launch and copy that
// respects every dependency (a copy after its producer, a launch after its incoming copies),
// so events are always recorded before a stream waits on them.
//
//   Measurement sim = Simulator(cost).run(plan);
//   GpuProgram p = buildGpuProgram(cost, plan, sim);   // throws gp::Error on an infeasible plan
#pragma once
#include <cstdint>
#include <vector>

#include "graph/dtype.h"
#include "graph/graph.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

class CostModel;

struct GpuKernel {
  enum class Kind : uint8_t {
    None,    // metadata op: no kernel
    Gemm,    // batch x (C[m,n] = A[m,k] * B[k,n])
    Conv,    // NHWC input [n,h,w,c], filter [r,s,c,k], stride, "same" padding
    Memory,  // our kernel: reads bytesRead, writes bytesWritten, flops spread over the elements
  };
  Kind kind = Kind::None;
  DType dtype = DType::F32;  // F32, F16 or BF16 (anything else runs as F32)
  int64_t m = 0, n = 0, k = 0, batch = 1;                                // Gemm
  int64_t convN = 0, convH = 0, convW = 0, convC = 0, convK = 0;         // Conv
  int64_t convR = 0, convS = 0, strideH = 1, strideW = 1;                // Conv
  double flops = 0;                                                      // every kind: the task's FLOPs
  int64_t bytesRead = 0, bytesWritten = 0;                               // every kind: the task's traffic

  bool operator==(const GpuKernel&) const = default;
};

struct GpuLaunch {
  std::vector<OpId> ops;           // the op, or the fusion group's ops (graph order)
  int32_t device = 0;              // cluster device
  int32_t fusionGroup = -1;        // the plan's group, -1 when not fused
  GpuKernel kernel;
  std::vector<int32_t> waitCopies; // GpuProgram::copies that must have arrived first
  double simStart = 0, simEnd = 0; // seconds, from the simulated timeline
};

struct GpuCopy {
  TensorId tensor = -1;
  int32_t src = 0, dst = 0;        // cluster devices
  int64_t bytes = 0;
  int32_t after = -1;              // the producing launch (on src); -1: a graph input (no wait)
  double simStart = 0, simEnd = 0;
};

struct GpuIssue {                  // one entry of the host's issue order
  bool copy = false;               // true: copies[index], false: launches[index]
  int32_t index = 0;
};

struct GpuProgram {
  int32_t numDevices = 0;                 // the cluster's devices
  std::vector<GpuLaunch> launches;
  std::vector<GpuCopy> copies;
  std::vector<std::vector<int32_t>> order;  // per device: its launches in stream order
  std::vector<GpuIssue> issue;              // launches and copies, dependencies first
  // Per device: the largest operand buffer one launch or copy needs (bytes), so the executor
  // allocates scratch once: A, B and C of a GEMM, input/filter/output of a conv, the memory
  // kernel's read and write buffers, a copy's send and receive buffers.
  std::vector<int64_t> scratchBytes;
  double simulatedStepTime = 0;
  bool usesDevice(int32_t d) const { return d >= 0 && d < static_cast<int32_t>(order.size()) && !order[d].empty(); }
};

// The representative kernel of one op on its own (the calibration of `profile --model` times
// these, so the simulator with that table and the executor run the same kernels).
GpuKernel kernelForOp(const CostModel& cost, OpId op);

// Throws gp::Error("measure", ...) when the simulated measurement is not feasible or lacks
// its timeline (the order comes from it).
GpuProgram buildGpuProgram(const CostModel& cost, const Plan& plan, const Measurement& simulated);

// The external ids the executor pushes around each launch and copy (CUPTI's external
// correlation), and back: launches 1..L, copies L+1..L+C. 0 is "no id".
inline uint64_t launchExternalId(const GpuProgram& p, int32_t launch) { (void)p; return static_cast<uint64_t>(launch) + 1; }
inline uint64_t copyExternalId(const GpuProgram& p, int32_t copy) {
  return static_cast<uint64_t>(p.launches.size()) + static_cast<uint64_t>(copy) + 1;
}

}  // namespace gp
