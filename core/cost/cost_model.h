// CostModel: how long an op runs on a device and a tensor takes between two devices.
//
// Op time: max(kernel, the framework's per-op overhead), where kernel = launchOverhead +
// max(FLOPs / (peak(type) * efficiency(class, type)) + fillTime(class),
//     (bytesRead + bytesWritten) / (memBandwidth * bandwidthEfficiency)),
// unless a CalibrationTable has a measured time for the op's signature on that device kind,
// which then replaces the kernel time. The efficiency is the device kind's own (cluster file:
// device_kinds.K.efficiency, "Class.type" before "Class"; the profiler writes measured ones)
// where the cluster lists one, else CostParams'; likewise the bandwidth efficiency. An op's
// type is that of its first output (else first input; Unknown = f32); f32 matrix products and
// convolutions of a graph with TF32 math run at the tf32 rate. A matrix op on a tensor-core
// type whose reduction is not a multiple of 8 runs at the f32 rate; an f32 3x3 stride-1
// convolution counts its FLOPs / winogradSpeedup (cost/kernel_shape.h).
// Metadata-only ops (Reshape, Identity, Const, Shape, ...: isMetadataOp) take 0 s.
// Transfer time: routeLatency + bytes / routeBandwidth along the cluster's route.
//
//   CostModel cm(graph, cluster);          // precomputes op times per (op, device kind)
//   double t = cm.opTime(op, 2);           // O(1)
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "graph/op_class.h"
#include "graph/graph.h"

namespace gp {

// The defaults of the roofline where a device kind's cluster entry says nothing. Sources of the
// values: docs/simulator-fidelity.md, "Defaults and their sources" (they were set on the
// corpus rows marked "set" in tests/data/published and checked on the others).
struct CostParams {
  // Fraction of the peak a large compute-bound kernel of each class reaches.
  std::array<double, kNumOpClasses> efficiency = {
      0.90,  // MatMul: large cuBLAS GEMMs (DeepBench V100: 14.8 of 15.7 TFLOPS f32, 112 of 125 f16)
      0.80,  // Conv: cuDNN's best algorithm on large convolutions, direct-FLOP count
      0.50,  // Elementwise (memory-bound in practice; the FLOP side rarely matters)
      0.40,  // Reduction
      0.40,  // Normalization
      0.50,  // DataMovement
      0.60,  // Recurrent: fused RNN cells, small GEMMs
      0.30,  // Other
  };
  // Time a compute kernel of the class needs beyond FLOPs / (peak x efficiency) to fill the
  // device and drain its last wave: small GEMMs and convolutions run far from peak
  // (DeepBench V100 f32: 1760x16x1760 takes 38 us, 6 us at peak).
  std::array<double, kNumOpClasses> fillTime = {
      20e-6,  // MatMul
      20e-6,  // Conv
      0, 0, 0, 0,
      20e-6,  // Recurrent
      0,
  };
  // Fraction of the memory bandwidth streaming kernels reach (BabelStream / STREAM on HBM2
  // and GDDR5 GPUs: 80-90 %).
  double bandwidthEfficiency = 0.85;
  // Speed-up of f32 3x3 stride-1 convolutions over their direct FLOP count (Winograd).
  double winogradSpeedup = 1.6;
  // Fraction of the TF32 tensor-core peak convolutions reach (in place of the class's
  // efficiency): cuDNN's TF32 convolutions run far from that peak (set on the A100 TF32
  // ResNet-50 row of the corpus); TF32 GEMMs keep the MatMul efficiency.
  double tf32ConvEfficiency = 0.35;

  double efficiencyOf(OpClass c) const { return efficiency[static_cast<size_t>(c)]; }
  double fillTimeOf(OpClass c) const { return fillTime[static_cast<size_t>(c)]; }
};

class CostModel {
 public:
  CostModel(const Graph& g, const Cluster& c, CostParams params = {}, const CalibrationTable* calib = nullptr);

  double opTime(OpId op, int device) const { return times_[static_cast<size_t>(op) * numKinds_ + kindOf_[device]]; }
  double fastestOpTime(OpId op) const { return fastest_[op]; }  // min over the cluster's devices
  // 0 if a == b; else routeLatency + bytes / routeBandwidth.
  double transferTime(int64_t bytes, int a, int b) const {
    if (a == b) return 0;
    return cluster_->routeLatency(a, b) + static_cast<double>(bytes) / cluster_->routeBandwidth(a, b);
  }
  // A fused kernel on one device: one launch, summed FLOPs, `bytes` = the bytes of tensors
  // crossing the group boundary (internal tensors never touch memory).
  double fusedTime(double flops, int64_t bytes, OpClass dominant, DType dtype, int device) const;
  // The same for a kernel led by op `top`: its class and kernel rate (TF32, tensor-core
  // alignment); `flops` summed over the kernel's ops' kernelFlops.
  double fusedKernelTime(double flops, int64_t bytes, OpId top, int device) const;
  // The FLOPs op's kernel does (its FLOPs, / winogradSpeedup for an f32 3x3 stride-1
  // convolution) and the FLOP/s it reaches on `device` (peak x efficiency at its kernel rate).
  double kernelFlops(OpId op) const { return kernelFlops_[op]; }
  double kernelComputeRate(OpId op, int device) const;
  // Whether a kernel of `flops` kernel FLOPs moving `bytes`, led by op `top`, is limited by memory
  // bandwidth rather than by its compute rate on `device` (the two sides of the roofline).
  bool memoryBound(double flops, int64_t bytes, OpId top, int device) const;

  OpClass opClass(OpId op) const { return classOfType_[g_->opTypeId(op)]; }
  bool isMetadata(OpId op) const { return metaType_[g_->opTypeId(op)] != 0; }  // isMetadataOp: no kernel
  // first output, else first input; int32 out of 8-bit inputs -> the inputs' type; Unknown -> F32
  DType opDType(OpId op) const;
  // Whether the time of (op, device) came from the calibration table.
  bool calibrated(OpId op, int device) const {
    return calibrated_[static_cast<size_t>(op) * numKinds_ + kindOf_[device]] != 0;
  }
  int numCalibrated() const { return numCalibrated_; }  // (op, device kind) pairs
  int numDeviceKinds() const { return numKinds_; }       // distinct kinds: numOps x this = all pairs
  // The fraction of peak the roofline uses for class c at dtype t on `device`: the device kind's
  // listed efficiency (DeviceSpec::efficiency), else params().efficiencyOf(c).
  double efficiency(OpClass c, DType t, int device) const {
    return efficiencyOn(c, rateOf(c, t), cluster_->device(device));
  }

  const Cluster& cluster() const { return *cluster_; }
  const Graph& graph() const { return *g_; }
  const CostParams& params() const { return params_; }

 private:
  double roofline(double flops, double bytes, OpClass cls, PeakType type, const DeviceSpec& d) const;
  // Fills kernelFlops_ / kernelRate_ of op: its rate with TF32 and tensor-core alignment, its
  // FLOPs with Winograd.
  void kernelOf(OpId op);
  // The arithmetic rate an op of class c and dtype t uses: TF32 for f32 matrix work when the
  // graph asks for TF32 math.
  PeakType rateOf(OpClass c, DType t) const;
  // "Class.type" listed for the kind, else the TF32 convolution default at the TF32 rate (a
  // kind's "Conv" is an f32 measurement), else "Class" listed, else the class default.
  double efficiencyOn(OpClass c, PeakType t, const DeviceSpec& d) const {
    const auto ci = static_cast<size_t>(c);
    if (const double typed = d.typedEfficiency[ci][static_cast<size_t>(t)]; typed > 0) return typed;
    if (t == PeakType::TF32 && c == OpClass::Conv) return params_.tf32ConvEfficiency;
    if (d.classEfficiency[ci] > 0) return d.classEfficiency[ci];
    return params_.efficiencyOf(c);
  }

  const Graph* g_;
  const Cluster* cluster_;
  CostParams params_;
  int numKinds_ = 0;
  std::vector<int> kindOf_;      // device -> distinct-kind index
  std::vector<int> kindDevice_;  // kind index -> first device of that kind
  std::vector<OpClass> classOfType_;
  std::vector<uint8_t> metaType_;  // per op type id: metadata-only
  std::vector<double> kernelFlops_;      // per op: FLOPs its kernel does (Winograd applied)
  std::vector<PeakType> kernelRate_;     // per op: the arithmetic rate its kernel runs at
  std::vector<double> times_;      // [op][kind]
  std::vector<uint8_t> calibrated_;
  std::vector<double> fastest_;
  int numCalibrated_ = 0;
};

}  // namespace gp
