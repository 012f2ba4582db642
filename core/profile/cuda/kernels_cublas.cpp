// Stand-ins for kernels.cu when nvcc is not there (see kernels.h): cuBLAS calls with the same
// memory traffic, a host-side fill.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <map>
#include <vector>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/kernels.h"

namespace gp::prof {

bool ownKernels() {
  return false;
}

void fillRandom(const KernelContext& c, void* data, size_t n, DType type, uint32_t seed) {
  const size_t elt = type == DType::F16 || type == DType::BF16 ? 2 : 4;
  std::vector<unsigned char> host(n * elt);
  uint32_t x = seed * 2654435761U + 1;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525U + 1013904223U;
    const float v = static_cast<float>(x >> 8) * (1.0f / 8388608.0f) - 1.0f;
    if (type == DType::F16)
      reinterpret_cast<__half*>(host.data())[i] = __float2half(v);
    else if (type == DType::BF16)
      reinterpret_cast<__nv_bfloat16*>(host.data())[i] = __float2bfloat16(v);
    else
      reinterpret_cast<float*>(host.data())[i] = v;
  }
  checkCuda(cudaMemcpyAsync(data, host.data(), host.size(), cudaMemcpyHostToDevice, c.stream), "fill");
  checkCuda(cudaStreamSynchronize(c.stream), "fill");
}

void launchEmpty(const KernelContext& c) {
  static std::map<int, float*> ones;  // a 1-element vector per device, kept for the process
  int device = 0;
  checkCuda(cudaGetDevice(&device), "empty kernel");
  float*& one = ones[device];
  if (!one) checkCuda(cudaMalloc(reinterpret_cast<void**>(&one), sizeof(float)), "empty kernel buffer");
  const float a = 1.0f;
  checkCublas(cublasSscal(c.blas, 1, &a, one, 1), "empty kernel (cublasSscal)");
}

void launchAdd(const KernelContext& c, const float* x, float* y, float* /*z*/, size_t n) {
  const float a = 1.0f;
  checkCublas(cublasSaxpy(c.blas, static_cast<int>(n), &a, x, 1, y, 1), "add (cublasSaxpy)");
}

void launchSum(const KernelContext& c, const float* x, float* out, size_t n) {
  checkCublas(cublasSetPointerMode(c.blas, CUBLAS_POINTER_MODE_DEVICE), "sum");
  checkCublas(cublasSasum(c.blas, static_cast<int>(n), x, 1, out), "sum (cublasSasum)");
  checkCublas(cublasSetPointerMode(c.blas, CUBLAS_POINTER_MODE_HOST), "sum");
}

void launchCopy(const KernelContext& c, const void* src, void* dst, size_t bytes) {
  checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, c.stream), "copy");
}

}  // namespace gp::prof
