// This machine's CPU as a device kind of the simulator: the kind the CPU measurement source
// records ("cpu:<model name> (N threads)") and a one-device cluster of that kind, so that the
// simulator's step on it (with op times a learned model predicts, `--costs learned:FILE`) can be
// held against what the CPU runs for real.
//
//   Cluster c = cpuCluster(&fit);   // `--cluster cpu`
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "cluster/cluster.h"

namespace gp {

class AnalyticCostModel;

// "cpu:<model name from /proc/cpuinfo> (<hardware threads> threads)".
std::string thisCpuKind();
// N of a kind "cpu:... (N threads)"; 0 for any other kind.
int32_t threadsOfCpuKind(std::string_view kind);

// The cluster JSON of one device "cpu0" of thisCpuKind(), named "cpu", with the machine's
// memory. Its roofline is `fit`'s at the most threads it measured (peak f32 FLOP/s, streaming
// bandwidth, per-class efficiencies, the shortest kernel as the launch overhead); without a fit,
// nominal figures (100 GFLOP/s, 20 GB/s, 1 us). Kernels are called back to back from C++: no
// per-op framework overhead.
std::string cpuClusterJson(const AnalyticCostModel* fit, const std::string& fitSource);
Cluster cpuCluster(const AnalyticCostModel* fit, const std::string& fitSource);

}  // namespace gp
