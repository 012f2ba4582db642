// CostModel: how long an op runs on a device and a tensor takes between two devices.
//
// Op time (roofline): launchOverhead + max(FLOPs / (peak(dtype) * efficiency(class, dtype)),
// (bytesRead + bytesWritten) / memBandwidth), unless a CalibrationTable has a measured time
// for the op's signature on that device kind, which then replaces the whole formula. The
// efficiency is the device kind's own (cluster file: device_kinds.K.efficiency, "Class.type"
// before "Class"; the profiler writes measured ones) where the cluster lists one, else
// CostParams'. An op's dtype is that of its first output (else first input; Unknown = f32).
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
#include "cost/op_class.h"
#include "graph/graph.h"

namespace gp {

// Fraction of a device's peak FLOP/s that kernels of each class reach when compute-bound:
// the defaults for device kinds whose cluster entry lists no efficiency for the class.
struct CostParams {
  std::array<double, kNumOpClasses> efficiency = {
      0.70,  // MatMul: large GEMMs in cuBLAS reach 70-90% of peak
      0.60,  // Conv: cuDNN convolutions, lower on small/depthwise kernels
      0.50,  // Elementwise (memory-bound in practice; the FLOP side rarely matters)
      0.40,  // Reduction
      0.40,  // Normalization
      0.50,  // DataMovement
      0.50,  // Recurrent: fused RNN cells, small GEMMs
      0.30,  // Other
  };
  double efficiencyOf(OpClass c) const { return efficiency[static_cast<size_t>(c)]; }
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

  OpClass opClass(OpId op) const { return classOfType_[g_->opTypeId(op)]; }
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
  double efficiency(OpClass c, DType t, int device) const { return efficiencyOn(c, t, cluster_->device(device)); }

  const Cluster& cluster() const { return *cluster_; }
  const Graph& graph() const { return *g_; }
  const CostParams& params() const { return params_; }

 private:
  double roofline(double flops, double bytes, OpClass cls, DType dtype, const DeviceSpec& d) const;
  double efficiencyOn(OpClass c, DType t, const DeviceSpec& d) const {
    const double listed = d.efficiency(c, t);
    return listed > 0 ? listed : params_.efficiencyOf(c);
  }

  const Graph* g_;
  const Cluster* cluster_;
  CostParams params_;
  int numKinds_ = 0;
  std::vector<int> kindOf_;      // device -> distinct-kind index
  std::vector<int> kindDevice_;  // kind index -> first device of that kind
  std::vector<OpClass> classOfType_;
  std::vector<uint8_t> metaType_;  // per op type id: metadata-only
  std::vector<double> times_;      // [op][kind]
  std::vector<uint8_t> calibrated_;
  std::vector<double> fastest_;
  int numCalibrated_ = 0;
};

}  // namespace gp
