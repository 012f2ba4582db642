// From a ProfileResult to what graphplace uses: per device kind the peaks, measured efficiency
// per op class, memory bandwidth and launch overhead; per GPU pair the fitted link; then the
// cluster file (docs/formats.md, "Cluster JSON"), the calibration table ("Calibration table"),
// the CLI's JSON report and its text summary.
//
//   ProfileSummary s = summarizeProfile(result);
//   std::string cluster = profileClusterJson(result, s, "my-cluster");   // parseClusterJson() loads it
//   CalibrationTable cal = profileCalibration(result, s);
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "base/file_text.h"  // writeTextFileAtomically, for the writers of these texts
#include "cost/calibration.h"
#include "profile/profile_result.h"

namespace gp {

struct KindSummary {
  std::string kind;                                // device_kinds key, from deviceKindName()
  std::vector<int> devices;                        // indices into ProfileResult::devices
  std::array<double, kNumPeakTypes> peak{};        // FLOP/s; 0 = not listed (runs at the f32 rate)
  bool peakFromTable = false;                      // theoretical (gpu_peaks.h), else the best measured
  std::array<double, kNumPeakTypes> bestMatMul{};  // best GEMM FLOP/s measured per type; 0 = none
  // achieved / peak for the compute-bound classes (MatMul at f32, Conv at f32); nullopt where
  // not measured or not meaningful (memory-bound classes: see bandwidthFraction)
  std::array<std::optional<double>, kNumOpClasses> efficiency{};
  std::array<std::optional<double>, kNumPeakTypes> matmulEfficiency{};  // per type
  std::array<std::optional<double>, kNumPeakTypes> convEfficiency{};    // best conv / peak, per type
  // achieved bytes/s / memBandwidth of the memory-bound classes (Elementwise, Reduction)
  std::array<std::optional<double>, kNumOpClasses> bandwidthFraction{};
  double memBandwidth = 0;    // bytes/s (median over the kind's measured devices)
  double launchOverhead = 0;  // s
  int smCount = 0;            // multiprocessors of the kind's first measured GPU
  int64_t memoryBytes = 0;
};

struct LinkSummary {
  int a = 0, b = 0;  // device indices, a < b
  bool peerAccess = false;
  LinkFit ab, ba;                     // each direction's fit
  double bandwidth = 0, latency = 0;  // what the cluster file gets: min bandwidth, mean latency
};

struct ProfileSummary {
  std::vector<KindSummary> kinds;
  std::vector<int> kindOf;  // per device: index into kinds
  std::vector<LinkSummary> links;
};

// Throws gp::Error("profile", ...) when a kind has no measured device, a measured device lacks
// the bandwidth or launch benchmarks, or two devices have no transfers measured between them.
ProfileSummary summarizeProfile(const ProfileResult& r);

// Device names are gpu<ordinal>; one link per GPU pair (kind "P2P" with peer access, else
// "via-host"); description and sources say how each number was measured. Each kind's
// `efficiency` lists the measured compute-bound classes: "MatMul" (f32 GEMM; the fallback for
// every type without its own key), "MatMul.<type>" for the other measured GEMM types, "Conv" /
// "Conv.<type>" likewise; each clamped to [0.01, 1] (a GEMM may beat a table peak by a few %).
// Memory-bound classes (Elementwise, Reduction) get none: their bandwidth fraction is not a
// FLOP efficiency, and the roofline's memory term already uses the measured bandwidth.
std::string profileClusterJson(const ProfileResult& r, const ProfileSummary& s, const std::string& name);

// One entry per calibrated benchmark and device kind (median over the kind's devices).
CalibrationTable profileCalibration(const ProfileResult& r, const ProfileSummary& s);
// The table as JSON with a description line (profiler, host, timer).
std::string profileCalibrationJson(const ProfileResult& r, const CalibrationTable& t);

// graphplace-cli profile --json: devices, benchmarks, kinds, links, files written.
std::string profileReportJson(const ProfileResult& r, const ProfileSummary& s);
// Key figures for the terminal: GEMM TFLOP/s per dtype, bandwidth, launch overhead, links.
std::string profileSummaryText(const ProfileResult& r, const ProfileSummary& s);

}  // namespace gp
