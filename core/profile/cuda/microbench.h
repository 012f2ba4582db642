// The profiler's microbenchmarks (plugin only), each on one device's stream:
//   GEMM (cuBLAS, f32 without TF32, f16 and bf16 on tensor cores, square sizes), convolution
//   (cuDNN, NHWC 3x3 as in ResNet-50, f32 without TF32 and f16), elementwise add and sum
//   reduction (our kernels), memory bandwidth (device-to-device copy: cudaMemcpyAsync and our
//   copy kernel), kernel launch overhead (back-to-back empty kernels), and peer copies between
//   two devices over 2^0..2^k bytes.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <functional>

#include "profile/cuda/bench_timer.h"
#include "profile/profile_result.h"

namespace gp::prof {

// A device's stream and library handles (created on construction, made current).
class DeviceContext {
 public:
  explicit DeviceContext(int ordinal);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;
  void makeCurrent() const;

  int ordinal;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cudnnHandle_t dnn = nullptr;
};

struct BenchEnv {
  const ProfileOptions& options;
  BenchTimer& timer;
  std::function<void(const std::string&)> say;  // one progress line
  std::function<void()> checkCancel;            // throws when cancelled
};

// Every compute benchmark on the context's device: fills out.kernels, memBandwidth,
// launchOverhead, emptyKernelSeconds; sets out.measured.
void benchDevice(DeviceContext& c, const BenchEnv& env, DeviceProfile& out);

// Copies from src's device to dstOrdinal over 2^0..2^maxExponent bytes (medians per size of the
// copies' own durations).
void benchPeer(DeviceContext& src, int dstOrdinal, int maxExponent, const BenchEnv& env, PeerProfile& out);

}  // namespace gp::prof
