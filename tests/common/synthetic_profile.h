// A synthetic ProfileResult of two H100s, as the CUDA plugin would fill it (GEMM f32/f16,
// conv, elementwise add, sum, device copy; an NVLink-like peer link measured over 2^0..2^29
// bytes), for tests of the profiler's outputs and of the app without a GPU.
#pragma once
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "profile/profile_result.h"

namespace gptest {

inline constexpr double kSyntheticLatency = 2e-6, kSyntheticBandwidth = 400e9;  // the synthetic NVLink

inline gp::KernelBench bench(std::string op, gp::OpClass cls, gp::DType t, std::vector<std::vector<int64_t>> shapes,
                             double flops, double bytes, double kernelSeconds, double launch = 3e-6) {
  gp::KernelBench k;
  k.label = op + " " + std::string(gp::dtypeName(t));
  k.opType = std::move(op);
  k.opClass = cls;
  k.dtype = t;
  k.inputShapes = std::move(shapes);
  k.flops = flops;
  k.bytes = bytes;
  k.kernelSeconds = kernelSeconds;
  k.seconds = kernelSeconds + launch;
  k.repetitions = 10;
  k.kernelsPerRepetition = 1;
  return k;
}

// One H100 whose 4096^3 f32 GEMM takes gemmF32Seconds (f16: 700 TFLOP/s, conv f32: 40 TFLOP/s,
// add 2.7 TB/s, sum 2.4 TB/s, copies 3 TB/s, launch 2.5 us).
inline gp::DeviceProfile h100(int ordinal, double gemmF32Seconds) {
  using gp::DType;
  using gp::OpClass;
  gp::DeviceProfile p;
  p.gpu.ordinal = ordinal;
  p.gpu.name = "NVIDIA H100 80GB HBM3";
  p.gpu.ccMajor = 9;
  p.gpu.ccMinor = 0;
  p.gpu.multiprocessors = 132;
  p.gpu.smClockHz = 1.98e9;
  p.gpu.memoryBytes = 85'520'809'984;
  p.measured = true;
  const double n = 4096, gemm = 2 * n * n * n;
  p.kernels.push_back(
      bench("MatMul", OpClass::MatMul, DType::F32, {{4096, 4096}, {4096, 4096}}, gemm, 3 * n * n * 4, gemmF32Seconds));
  p.kernels.push_back(
      bench("MatMul", OpClass::MatMul, DType::F16, {{4096, 4096}, {4096, 4096}}, gemm, 3 * n * n * 2, gemm / 700e12));
  p.kernels.push_back(bench("MatMul", OpClass::MatMul, DType::F16, {{1024, 1024}, {1024, 1024}}, gemm / 64,
                            3 * n * n * 2 / 16, gemm / 64 / 300e12));
  const double conv = 2.0 * 32 * 14 * 14 * 256 * 256 * 9;
  p.kernels.push_back(
      bench("Conv2D", OpClass::Conv, DType::F32, {{32, 14, 14, 256}, {3, 3, 256, 256}}, conv, 1e7, conv / 40e12));
  p.kernels.push_back(bench("Add", OpClass::Elementwise, DType::F32, {{1 << 26}, {1 << 26}}, 1 << 26, 12.0 * (1 << 26),
                            12.0 * (1 << 26) / 2.7e12));
  p.kernels.push_back(
      bench("Sum", OpClass::Reduction, DType::F32, {{1 << 26}}, 1 << 26, 4.0 * (1 << 26), 4.0 * (1 << 26) / 2.4e12));
  gp::KernelBench copy =
      bench("Copy", OpClass::DataMovement, DType::U8, {{1 << 30}}, 0, 2.0 * (1 << 30), 2.0 * (1 << 30) / 3e12);
  copy.calibrate = false;
  p.kernels.push_back(copy);
  p.memBandwidth = 3e12;
  p.launchOverhead = 2.5e-6;
  p.emptyKernelSeconds = 1.2e-6;
  return p;
}

// Copies src -> dst over 2^0..2^29 bytes at the synthetic link, with +-1 % noise (seeded).
inline gp::PeerProfile peer(int src, int dst, uint32_t seed) {
  gp::PeerProfile p;
  p.src = src;
  p.dst = dst;
  p.peerAccess = true;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.01, 0.01);
  for (int e = 0; e <= 29; ++e) {
    const int64_t bytes = int64_t{1} << e;
    p.samples.push_back({bytes, (kSyntheticLatency + static_cast<double>(bytes) / kSyntheticBandwidth) * (1 + u(rng))});
  }
  return p;
}

// Two H100s (f32 GEMM at 50 and 54 TFLOP/s) joined by the synthetic link both ways.
inline gp::ProfileResult twoH100s() {
  gp::ProfileResult r;
  r.timer = "cupti";
  r.driverVersion = "13.0";
  r.runtimeVersion = "13.0";
  r.hostName = "testhost";
  r.devices = {h100(0, 2 * 4096.0 * 4096 * 4096 / 50e12), h100(1, 2 * 4096.0 * 4096 * 4096 / 54e12)};
  r.peers = {peer(0, 1, 1), peer(1, 0, 2)};
  r.wallSeconds = 12.5;
  return r;
}

}  // namespace gptest
