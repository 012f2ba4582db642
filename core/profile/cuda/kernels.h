// The profiler's own GPU kernels (plugin only): data fill, empty kernel (launch overhead),
// elementwise add and sum reduction (memory-bound op classes), a vectorised copy (bandwidth),
// and the executor's memory kernel (an op that is neither a GEMM nor a convolution).
// kernels.cu holds them when nvcc is there; otherwise kernels_cublas.cpp stands in with cuBLAS
// calls of the same memory traffic (axpy for add, asum for sum, a 1-element scal as the empty
// kernel, cudaMemcpyAsync for the copy, copy + asum + memset for the memory kernel, whose FLOPs
// it does not spend) and a host-side fill.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "graph/dtype.h"

namespace gp::prof {

struct KernelContext {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;  // on the same device and stream
};

// Whether these are our own CUDA kernels (nvcc) or the cuBLAS stand-ins.
bool ownKernels();

// n elements of f32 / f16 / bf16 in [-1, 1), deterministic for a seed.
void fillRandom(const KernelContext& c, void* data, size_t n, DType type, uint32_t seed);
void launchEmpty(const KernelContext& c);
// z = x + y over n floats (n a multiple of 4). The stand-in computes y = x + y: the same bytes.
void launchAdd(const KernelContext& c, const float* x, float* y, float* z, size_t n);
// *out += sum(x) over n floats (n a multiple of 4); `out` is scratch.
void launchSum(const KernelContext& c, const float* x, float* out, size_t n);
// dst = src, `bytes` a multiple of 16.
void launchCopy(const KernelContext& c, const void* src, void* dst, size_t bytes);
// The executor's stand-in for an op of no library kind: reads `bytesRead` bytes of `src` and
// writes `bytesWritten` bytes of `dst` (both rounded up to 16: the buffers must hold that),
// spending `flops` as f32 FMAs (2 FLOPs each) spread evenly over the elements touched. `src`
// is read as floats (any finite bit patterns; see fillRandom) and never written.
void launchMemory(const KernelContext& c, const void* src, size_t bytesRead, void* dst, size_t bytesWritten,
                  double flops);

}  // namespace gp::prof
