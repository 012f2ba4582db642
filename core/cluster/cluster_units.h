// Units of the cluster JSON fields (docs/formats.md, "Cluster JSON"); internal to core/cluster.
#pragma once

namespace gp {

inline constexpr const char* kClusterFormat = "graphplace-cluster";
inline constexpr int kClusterVersion = 1;
inline constexpr double kTera = 1e12;                 // peak_TFLOPS
inline constexpr double kGiga = 1e9;                  // *_GBps (decimal GB/s)
inline constexpr double kMicro = 1e-6;                // *_us
inline constexpr double kGiB = 1024.0 * 1024 * 1024;  // memory_GiB

}  // namespace gp
