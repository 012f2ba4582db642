// Stand-ins for kernels.cu when nvcc is not there (see kernels.h): cuBLAS calls with the same
// memory traffic, a host-side fill.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <map>
#include <mutex>
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

namespace {

// A 1-element vector per device, kept for the process.
float* deviceScalar() {
  static std::mutex mutex;
  static std::map<int, float*> ones;
  int device = 0;
  checkCuda(cudaGetDevice(&device), "device scalar");
  std::lock_guard lock(mutex);
  float*& one = ones[device];
  if (!one) checkCuda(cudaMalloc(reinterpret_cast<void**>(&one), sizeof(float)), "device scalar");
  return one;
}

}  // namespace

void launchEmpty(const KernelContext& c) {
  const float a = 1.0f;
  checkCublas(cublasSscal(c.blas, 1, &a, deviceScalar(), 1), "empty kernel (cublasSscal)");
}

void launchAdd(const KernelContext& c, const float* x, float* y, float* /*z*/, size_t n) {
  const float a = 1.0f;
  checkCublas(cublasSaxpy(c.blas, static_cast<int>(n), &a, x, 1, y, 1), "add (cublasSaxpy)");
}

// Device pointer mode for a result left on the GPU, back to host mode however the scope ends
// (later GEMMs pass alpha and beta from the host).
struct DevicePointerMode {
  cublasHandle_t blas;
  explicit DevicePointerMode(cublasHandle_t h) : blas(h) {
    checkCublas(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_DEVICE), "device pointer mode");
  }
  ~DevicePointerMode() { cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST); }
  DevicePointerMode(const DevicePointerMode&) = delete;
  DevicePointerMode& operator=(const DevicePointerMode&) = delete;
};

void launchSum(const KernelContext& c, const float* x, float* out, size_t n) {
  const DevicePointerMode mode(c.blas);
  checkCublas(cublasSasum(c.blas, static_cast<int>(n), x, 1, out), "sum (cublasSasum)");
}

void launchCopy(const KernelContext& c, const void* src, void* dst, size_t bytes) {
  checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, c.stream), "copy");
}

// The same bytes as the memory kernel: a device copy of what is both read and written, a sum
// over the rest of the reads, a memset of the rest of the writes. The FLOPs are not spent.
void launchMemory(const KernelContext& c, const void* src, size_t bytesRead, void* dst, size_t bytesWritten,
                  double /*flops*/) {
  const size_t r = (bytesRead + 15) / 16 * 16, w = (bytesWritten + 15) / 16 * 16, both = std::min(r, w);
  if (both > 0) checkCuda(cudaMemcpyAsync(dst, src, both, cudaMemcpyDeviceToDevice, c.stream), "memory (copy)");
  if (r > both) {
    float* out = deviceScalar();
    const float* rest = reinterpret_cast<const float*>(static_cast<const unsigned char*>(src) + both);
    const DevicePointerMode mode(c.blas);
    constexpr size_t kChunk = size_t{1} << 30;  // floats per cublasSasum (its count is an int)
    for (size_t left = (r - both) / 4; left > 0;) {
      const size_t n = std::min(left, kChunk);
      checkCublas(cublasSasum(c.blas, static_cast<int>(n), rest, 1, out), "memory (cublasSasum)");
      rest += n;
      left -= n;
    }
  }
  if (w > both)
    checkCuda(cudaMemsetAsync(static_cast<unsigned char*>(dst) + both, 0, w - both, c.stream), "memory (memset)");
  if (r == 0 && w == 0) launchEmpty(c);  // one launch all the same, as the kernel has
}

}  // namespace gp::prof
