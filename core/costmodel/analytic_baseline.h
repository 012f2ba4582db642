// The roofline + calibration model of a measured device kind: what graphplace's CostModel does
// for a GPU (roofline with per-class efficiencies, a calibration table of measured signatures),
// fitted here on the same measured training data a learned model sees, so the two are compared
// on equal terms.
//
// Fit (kernel-task data, its single-op kernels): per thread count, the peak FLOP rate is the
// 95th percentile of the rates GEMMs and convolutions of at least 10 MFLOP reached, the
// bandwidth that of the other kernels moving at least 4 MiB (beyond the caches; all kernels
// where none is that large); the per-class
// efficiency is the median fraction of that peak the class's compute-bound kernels reached
// (canonical layout, one tile); the overhead is the shortest kernel measured. The calibration
// table holds every measured (signature, configuration).
// Predict: the table's time where the signature and configuration were measured, else
// overhead x tiles + max(FLOPs / (peak x efficiency), bytes / bandwidth) at the configuration's
// thread count (layout changes nothing: a roofline does not see it). A fused group and a plan
// are the sum over their nodes (a plan's configurable ones at their configuration, the others canonical) plus a
// plan's layout conversions' bytes at the bandwidth.
#pragma once
#include <array>
#include <map>
#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/cost_features.h"
#include "graph/op_class.h"

namespace gp {

class AnalyticCostModel {
 public:
  // Throws gp::Error when the data lacks the analytic fields (TpuGraphs' collections do).
  static AnalyticCostModel fit(const CostDataset& kernels);

  double kernelTime(double flops, double bytes, int cls, const std::string& signature, const KernelConfig& c) const;
  // One prediction per configuration of g (seconds).
  std::vector<double> predict(const CostGraph& g, CostTask task, int32_t configWidth) const;

  // A fitted model as JSON ("format": "graphplace-cpu-roofline", version 1) and back; parse
  // throws gp::Error(source, ...) on anything else.
  std::string toJson() const;
  static AnalyticCostModel parse(const std::string& text, const std::string& source);

  double peakFlops(int32_t threads) const;
  double bandwidth(int32_t threads) const;
  double efficiency(int cls) const { return efficiency_[static_cast<size_t>(cls)]; }
  double overhead() const { return overhead_; }  // the shortest kernel measured (seconds)
  size_t tableSize() const { return table_.size(); }

 private:
  std::map<int32_t, double> peak_, bandwidth_;
  std::array<double, kNumOpClasses> efficiency_{};
  double overhead_ = 0;
  std::map<std::string, double> table_;  // signature + configuration -> seconds
};

// The calibration table's key of a signature under a configuration.
std::string configuredSignature(const std::string& signature, const KernelConfig& c);

}  // namespace gp
