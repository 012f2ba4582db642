// Theoretical peak FLOP/s of an NVIDIA GPU from its compute capability, SM count and SM clock,
// and the device-kind name a profiled GPU gets in the cluster file. CUDA-free arithmetic.
//
// peak(type) = SMs x max SM clock x dense FLOP per clock per SM of the architecture (CUDA cores
// for f32/f64, tensor cores for f16/bf16/f8/int8, no sparsity). NVIDIA's datasheets quote the
// tensor-core figures at a lower clock than the maximum the driver reports (H100 SXM: 1830 vs
// 1980 MHz), so these read up to ~8% above the datasheet's.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cluster/cluster.h"

namespace gp {

// FLOP/s per PeakType; 0 where the architecture has no such unit (the cluster file then leaves
// the type out). nullopt: the architecture is not in our table.
std::optional<std::array<double, kNumPeakTypes>> theoreticalPeaks(int ccMajor, int ccMinor, int multiprocessors,
                                                                  double smClockHz);

// "NVIDIA H100 80GB HBM3", 85 GB -> "H100-80GB-HBM3"; the memory in GiB is appended when the
// name does not already hold it: "NVIDIA H200", 150.7e9 bytes -> "H200-140GB". Characters other
// than letters, digits, '-', '_' and '.' become '-'.
std::string deviceKindName(std::string_view cudaName, int64_t memoryBytes);

}  // namespace gp
