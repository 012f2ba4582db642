// The profiler's own kernels (see kernels.h). Grid-stride loops, 16-byte vector accesses.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/kernels.h"

namespace gp::prof {
namespace {

constexpr int kBlock = 256;

unsigned gridFor(size_t items) {
  size_t g = (items + kBlock - 1) / kBlock;
  if (g > 65536) g = 65536;  // grid-stride loops cover the rest
  return static_cast<unsigned>(g < 1 ? 1 : g);
}

__device__ __forceinline__ uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__device__ __forceinline__ void store(float* p, float v) {
  *p = v;
}
__device__ __forceinline__ void store(__half* p, float v) {
  *p = __float2half(v);
}
__device__ __forceinline__ void store(__nv_bfloat16* p, float v) {
  *p = __float2bfloat16(v);
}

template <class T>
__global__ void fillKernel(T* data, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const uint32_t h = mix(static_cast<uint32_t>(i) ^ mix(seed + static_cast<uint32_t>(i >> 32)));
    store(data + i, static_cast<float>(h & 0xffffff) * (1.0f / 8388608.0f) - 1.0f);
  }
}

__global__ void emptyKernel() {}

__global__ void addKernel(const float4* x, const float4* y, float4* z, size_t n4) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n4; i += size_t{gridDim.x} * blockDim.x) {
    const float4 a = x[i], b = y[i];
    z[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

__global__ void sumKernel(const float4* x, size_t n4, float* out) {
  float acc = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n4; i += size_t{gridDim.x} * blockDim.x) {
    const float4 a = x[i];
    acc += (a.x + a.y) + (a.z + a.w);
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffU, acc, o);
  __shared__ float warpSums[kBlock / 32];
  if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < kBlock / 32 ? warpSums[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffU, acc, o);
    if (threadIdx.x == 0) atomicAdd(out, acc);
  }
}

__global__ void copyKernel(const int4* src, int4* dst, size_t n16) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n16; i += size_t{gridDim.x} * blockDim.x)
    dst[i] = src[i];
}

// Enough blocks to fill the GPU for the reduction (one atomic per block).
unsigned reductionGrid() {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return static_cast<unsigned>(sms > 0 ? sms * 8 : 1024);
}

}  // namespace

bool ownKernels() {
  return true;
}

void fillRandom(const KernelContext& c, void* data, size_t n, DType type, uint32_t seed) {
  switch (type) {
    case DType::F16:
      fillKernel<<<gridFor(n), kBlock, 0, c.stream>>>(static_cast<__half*>(data), n, seed);
      break;
    case DType::BF16:
      fillKernel<<<gridFor(n), kBlock, 0, c.stream>>>(static_cast<__nv_bfloat16*>(data), n, seed);
      break;
    default:
      fillKernel<<<gridFor(n), kBlock, 0, c.stream>>>(static_cast<float*>(data), n, seed);
      break;
  }
  checkCuda(cudaGetLastError(), "fill kernel");
}

void launchEmpty(const KernelContext& c) {
  emptyKernel<<<1, 1, 0, c.stream>>>();
  checkCuda(cudaGetLastError(), "empty kernel");
}

void launchAdd(const KernelContext& c, const float* x, float* y, float* z, size_t n) {
  addKernel<<<gridFor(n / 4), kBlock, 0, c.stream>>>(
      reinterpret_cast<const float4*>(x), reinterpret_cast<const float4*>(y), reinterpret_cast<float4*>(z), n / 4);
  checkCuda(cudaGetLastError(), "add kernel");
}

void launchSum(const KernelContext& c, const float* x, float* out, size_t n) {
  static const unsigned grid = reductionGrid();
  sumKernel<<<grid, kBlock, 0, c.stream>>>(reinterpret_cast<const float4*>(x), n / 4, out);
  checkCuda(cudaGetLastError(), "sum kernel");
}

void launchCopy(const KernelContext& c, const void* src, void* dst, size_t bytes) {
  copyKernel<<<gridFor(bytes / 16), kBlock, 0, c.stream>>>(static_cast<const int4*>(src), static_cast<int4*>(dst),
                                                           bytes / 16);
  checkCuda(cudaGetLastError(), "copy kernel");
}

}  // namespace gp::prof
