// Launching one GpuKernel (profile/gpu_program.h) on a device's stream from preallocated
// scratch (plugin only): the executor's launches and the kernel timing of `profile --model`.
//
//   Gemm   cublasGemmEx, or cublasGemmStridedBatchedEx when batch > 1; row-major C = A B.
//          f32 without TF32 (the handle's default math, as the microbenchmarks), f16 / bf16 on
//          tensor cores with f32 accumulation.
//   Conv   cuDNN (profile/cuda/conv_runner.h): NHWC, "same" padding, stride; the algorithm is
//          chosen once per shape by prepare() and cached.
//   Memory our memory kernel (kernels.h): reads bytesRead, writes bytesWritten, spends the FLOPs.
//   None   nothing.
//
// Operands come from two regions: `input` (A and B, x and the filter, the memory kernel's
// reads) is only ever read, so random data put there once (fillRandom) stays: GEMMs never run
// on zeros, infinities or NaNs; `output` (C, y, the writes) takes every result.
//
//   KernelLauncher run({stream, blas, dnn});
//   for (const GpuKernel& k : kernels) run.prepare(k);       // cuDNN searches, before allocating
//   Footprint need = ...max of kernelFootprint(k)...;        // + run.workspaceBytes()
//   run.setScratch({in, need.input, out, need.output, ws, run.workspaceBytes()});
//   run.launch(kernels[0]);                                  // throws if it does not fit
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "profile/cuda/conv_runner.h"
#include "profile/gpu_program.h"

namespace gp::prof {

struct LaunchContext {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;  // on the stream's device and bound to the stream
  cudnnHandle_t dnn = nullptr;    // likewise
};

// The operand bytes one kernel needs in each region, every operand aligned to 256 bytes
// (and the memory kernel's to 16). Throws gp::Error("profile", ...) for a shape no library
// can run (non-positive or past the int range of cuBLAS / cuDNN).
struct KernelFootprint {
  int64_t input = 0, output = 0;
  int64_t total() const { return input + output; }
};
KernelFootprint kernelFootprint(const GpuKernel& k);

// "GEMM f16 4x 512x1024x256", "conv 3x3/1 f32 ...", "memory 1.5 MiB read, 0.5 MiB written"
std::string kernelLabel(const GpuKernel& k);

// The dtype a kernel runs in: F16 and BF16 as such, anything else F32.
DType kernelType(const GpuKernel& k);

struct KernelScratch {
  const void* input = nullptr;
  int64_t inputBytes = 0;
  void* output = nullptr;
  int64_t outputBytes = 0;
  void* workspace = nullptr;  // cuDNN's
  int64_t workspaceBytes = 0;
};

class KernelLauncher {
 public:
  // maxConvWorkspace: the most workspace a convolution algorithm may use.
  explicit KernelLauncher(const LaunchContext& c, size_t maxConvWorkspace = size_t{1} << 30);
  ~KernelLauncher();
  KernelLauncher(const KernelLauncher&) = delete;
  KernelLauncher& operator=(const KernelLauncher&) = delete;

  // Convolutions: the algorithm search of the shape (host-blocking, once per shape). Other
  // kinds: only checks the shape.
  void prepare(const GpuKernel& k);
  // The largest workspace of the prepared convolutions' algorithms.
  size_t workspaceBytes() const { return workspace_; }

  void setScratch(const KernelScratch& s) { scratch_ = s; }
  // Launches k on the stream (asynchronously). Throws gp::Error("profile", ...) when its
  // operands do not fit the scratch, or a convolution was not prepared.
  void launch(const GpuKernel& k);

 private:
  using ConvKey = std::array<int64_t, 10>;
  static ConvKey keyOf(const ConvShape& s);

  LaunchContext c_;
  size_t maxConvWorkspace_;
  size_t workspace_ = 0;
  std::map<ConvKey, std::unique_ptr<ConvRunner>> convs_;
  KernelScratch scratch_;
};

// The ConvShape of a Conv kernel.
ConvShape convShapeOf(const GpuKernel& k);

// One device's scratch, allocated once: the input region (filled with random bf16 values in
// [-1, 1): read as f32 they lie in [-1, 1) too, as f16 in (-2, 2), never an infinity or a NaN),
// the output region, cuDNN's workspace and a receive region for incoming peer copies. Checks
// the free memory first (leaving 256 MiB for the libraries) and fails with one line:
// "gpu0: <what> needs 12.3 GiB of scratch, 9.1 GiB free".
class ScratchSpace {
 public:
  ScratchSpace(const LaunchContext& c, int ordinal, const std::string& what, int64_t inputBytes, int64_t outputBytes,
               int64_t workspaceBytes, int64_t receiveBytes = 0);
  ~ScratchSpace();
  ScratchSpace(const ScratchSpace&) = delete;
  ScratchSpace& operator=(const ScratchSpace&) = delete;

  KernelScratch kernelScratch() const;
  const void* input() const { return input_; }
  void* receive() const { return receive_; }
  int64_t totalBytes() const { return inputBytes_ + outputBytes_ + workspaceBytes_ + receiveBytes_; }

 private:
  void* input_ = nullptr;
  void* output_ = nullptr;
  void* workspace_ = nullptr;
  void* receive_ = nullptr;
  int ordinal_;
  int64_t inputBytes_, outputBytes_, workspaceBytes_, receiveBytes_;
};

}  // namespace gp::prof
