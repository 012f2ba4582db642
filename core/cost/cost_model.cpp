#include "cost/cost_model.h"

#include <algorithm>
#include <limits>

#include "cost/kernel_shape.h"

namespace gp {

CostModel::CostModel(const Graph& g, const Cluster& c, CostParams params, const CalibrationTable* calib)
    : g_(&g), cluster_(&c), params_(params) {
  // Distinct device kinds, in order of first appearance.
  kindOf_.resize(static_cast<size_t>(c.numDevices()));
  for (int d = 0; d < c.numDevices(); ++d) {
    int k = 0;
    while (k < numKinds_ && c.device(kindDevice_[k]).kind != c.device(d).kind) ++k;
    if (k == numKinds_) {
      kindDevice_.push_back(d);
      ++numKinds_;
    }
    kindOf_[d] = k;
  }
  // Classes per op type, not per op.
  const auto& types = g.opTypeNames();
  classOfType_.resize(types.size());
  metaType_.resize(types.size());
  for (size_t t = 0; t < types.size(); ++t) {
    classOfType_[t] = classifyOp(types[t]);
    metaType_[t] = isMetadataOp(types[t]) ? 1 : 0;
  }

  const size_t n = static_cast<size_t>(g.numOps());
  kernelFlops_.resize(n);
  kernelRate_.resize(n);
  for (OpId op = 0; op < g.numOps(); ++op) kernelOf(op);
  times_.assign(n * numKinds_, 0.0);
  calibrated_.assign(n * numKinds_, 0);
  fastest_.assign(n, 0.0);
  const bool useCalib = calib != nullptr && !calib->empty();
  for (OpId op = 0; op < g.numOps(); ++op) {
    const int32_t type = g.opTypeId(op);
    const DType dt = opDType(op);
    const double bytes = static_cast<double>(g.bytesRead(op)) + static_cast<double>(g.bytesWritten(op));
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < numKinds_; ++k) {
      const DeviceSpec& dev = c.device(kindDevice_[k]);
      const size_t i = static_cast<size_t>(op) * numKinds_ + k;
      double t = 0;
      std::optional<double> measured;
      if (useCalib) measured = calib->lookup(CalibrationTable::signature(g, op, dt, dev.kind));
      if (measured) {
        t = std::max(*measured, c.framework().opOverhead);
        calibrated_[i] = 1;
        ++numCalibrated_;
      } else if (!metaType_[type]) {
        t = roofline(kernelFlops_[op], bytes, classOfType_[type], kernelRate_[op], dev);
      }
      times_[i] = t;
      best = std::min(best, t);
    }
    fastest_[op] = numKinds_ > 0 ? best : 0.0;
  }
}

DType CostModel::opDType(OpId op) const {
  DType dt = DType::Unknown;
  const auto ins = g_->inputs(op);
  if (auto outs = g_->outputs(op); !outs.empty())
    dt = g_->dtype(outs[0]);
  else if (!ins.empty())
    dt = g_->dtype(ins[0]);
  // Integer matrix products (MatMulInteger, ConvInteger) accumulate 8-bit operands in int32:
  // they run at the device's int8 rate.
  if (dt == DType::I32 && !ins.empty() && (g_->dtype(ins[0]) == DType::I8 || g_->dtype(ins[0]) == DType::U8))
    dt = g_->dtype(ins[0]);
  return dt == DType::Unknown ? DType::F32 : dt;
}

PeakType CostModel::rateOf(OpClass c, DType t) const {
  const PeakType p = peakTypeOf(t);
  const bool matrix = c == OpClass::MatMul || c == OpClass::Conv || c == OpClass::Recurrent;
  return p == PeakType::F32 && matrix && g_->tf32Math() ? PeakType::TF32 : p;
}

void CostModel::kernelOf(OpId op) {
  const OpClass cls = classOfType_[g_->opTypeId(op)];
  PeakType type = rateOf(cls, opDType(op));
  double flops = g_->flops(op);
  if (cls == OpClass::MatMul || cls == OpClass::Conv) {
    const KernelShape shape = kernelShapeOf(*g_, op);
    const bool tensorCore = type == PeakType::F16 || type == PeakType::BF16 || type == PeakType::F8 || type == PeakType::TF32;
    // Tensor cores need the reduction a multiple of 8 (NVIDIA Deep Learning Performance Guide,
    // "Tensor Core Requirements"); otherwise the library runs a CUDA-core kernel.
    if (tensorCore && shape.reduction > 0 && shape.reduction % 8 != 0) type = PeakType::F32;
    // f32 3x3 stride-1 convolutions: cuDNN's Winograd kernels do 2.25x fewer multiplies for
    // F(2x2,3x3) (Lavin & Gray, CVPR 2016); params_.winogradSpeedup is what they achieve.
    if (type == PeakType::F32 && shape.winograd) flops /= params_.winogradSpeedup;
  }
  kernelFlops_[op] = flops;
  kernelRate_[op] = type;
}

double CostModel::kernelComputeRate(OpId op, int device) const {
  const DeviceSpec& d = cluster_->device(device);
  const PeakType p = kernelRate_[op];
  return d.peak[static_cast<size_t>(p)] * efficiencyOn(opClass(op), p, d);
}

double CostModel::fusedKernelTime(double flops, int64_t bytes, OpId top, int device) const {
  return roofline(flops, static_cast<double>(bytes), opClass(top), kernelRate_[top], cluster_->device(device));
}

bool CostModel::memoryBound(double flops, int64_t bytes, OpId top, int device) const {
  const DeviceSpec& d = cluster_->device(device);
  const double compute = flops > 0 ? flops / kernelComputeRate(top, device) + params_.fillTimeOf(opClass(top)) : 0.0;
  const double bwEff = d.bandwidthEfficiency > 0 ? d.bandwidthEfficiency : params_.bandwidthEfficiency;
  return bytes > 0 && static_cast<double>(bytes) / (d.memBandwidth * bwEff) > compute;
}

double CostModel::roofline(double flops, double bytes, OpClass cls, PeakType type, const DeviceSpec& d) const {
  const double rate = d.peak[static_cast<size_t>(type)] * efficiencyOn(cls, type, d);
  const double compute = flops > 0 ? flops / rate + params_.fillTimeOf(cls) : 0.0;
  const double bwEff = d.bandwidthEfficiency > 0 ? d.bandwidthEfficiency : params_.bandwidthEfficiency;
  const double memory = bytes > 0 ? bytes / (d.memBandwidth * bwEff) : 0.0;
  return std::max(d.launchOverhead + std::max(compute, memory), cluster_->framework().opOverhead);
}

double CostModel::fusedTime(double flops, int64_t bytes, OpClass dominant, DType dtype, int device) const {
  if (dtype == DType::Unknown) dtype = DType::F32;
  return roofline(flops, static_cast<double>(bytes), dominant, rateOf(dominant, dtype), cluster_->device(device));
}

}  // namespace gp
