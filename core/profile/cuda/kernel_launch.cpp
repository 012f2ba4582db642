#include "profile/cuda/kernel_launch.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <initializer_list>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/kernels.h"

namespace gp::prof {
namespace {

constexpr int64_t kAlign = 256;

int64_t alignUp(int64_t bytes, int64_t to = kAlign) {
  return (bytes + to - 1) / to * to;
}

std::string mib(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

// The bytes of a dims[0] x dims[1] x ... array of `elt`-byte elements, aligned; fails past 2^60.
int64_t arrayBytes(const GpuKernel& k, std::initializer_list<int64_t> dims, int elt) {
  double bytes = elt;
  int64_t exact = elt;
  for (int64_t d : dims) {
    bytes *= static_cast<double>(d);
    exact *= d;  // only used when the double says it fits
  }
  if (bytes > static_cast<double>(int64_t{1} << 60)) fail(kernelLabel(k) + ": its operands are too large to allocate");
  return alignUp(exact);
}

int elementBytes(const GpuKernel& k) {
  const DType t = kernelType(k);
  return t == DType::F32 ? 4 : 2;
}

cudaDataType cudaType(DType t) {
  return t == DType::F16 ? CUDA_R_16F : t == DType::BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

// A GEMM runs when every size is positive; a zero size launches nothing; negative or past
// cuBLAS's int range fails.
bool gemmRuns(const GpuKernel& k) {
  for (int64_t v : {k.m, k.n, k.k, k.batch}) {
    if (v < 0) fail(kernelLabel(k) + ": negative size");
    if (v > INT_MAX) fail(kernelLabel(k) + ": a size is past cuBLAS's int range");
  }
  return k.m > 0 && k.n > 0 && k.k > 0 && k.batch > 0;
}

}  // namespace

DType kernelType(const GpuKernel& k) {
  return k.dtype == DType::F16 || k.dtype == DType::BF16 ? k.dtype : DType::F32;
}

ConvShape convShapeOf(const GpuKernel& k) {
  return ConvShape{kernelType(k), k.convN, k.convH, k.convW, k.convC, k.convK, k.convR, k.convS, k.strideH, k.strideW};
}

std::string kernelLabel(const GpuKernel& k) {
  const std::string type(dtypeName(kernelType(k)));
  switch (k.kind) {
    case GpuKernel::Kind::None:
      return "no kernel";
    case GpuKernel::Kind::Gemm:
      return "GEMM " + type + " " + (k.batch != 1 ? std::to_string(k.batch) + "x " : "") + std::to_string(k.m) + "x" +
             std::to_string(k.n) + "x" + std::to_string(k.k);
    case GpuKernel::Kind::Conv:
      return convLabel(convShapeOf(k));
    case GpuKernel::Kind::Memory: {
      char buf[64];
      std::snprintf(buf, sizeof buf, ", %.4g GFLOP", k.flops * 1e-9);
      return "memory kernel " + mib(k.bytesRead) + " read, " + mib(k.bytesWritten) + " written" +
             (k.flops > 0 ? buf : "");
    }
  }
  return "unknown kernel kind";
}

KernelFootprint kernelFootprint(const GpuKernel& k) {
  KernelFootprint f;
  switch (k.kind) {
    case GpuKernel::Kind::None:
      break;
    case GpuKernel::Kind::Gemm:
      if (gemmRuns(k)) {
        const int e = elementBytes(k);
        f.input = arrayBytes(k, {k.batch, k.m, k.k}, e) + arrayBytes(k, {k.batch, k.k, k.n}, e);
        f.output = arrayBytes(k, {k.batch, k.m, k.n}, e);
      }
      break;
    case GpuKernel::Kind::Conv: {
      const ConvDims d = convDims(convShapeOf(k));
      f.input = arrayBytes(k, {d.inputElems}, d.elementBytes) + arrayBytes(k, {d.filterElems}, d.elementBytes);
      f.output = arrayBytes(k, {d.outputElems}, d.elementBytes);
      break;
    }
    case GpuKernel::Kind::Memory:
      if (k.bytesRead < 0 || k.bytesWritten < 0 || k.flops < 0) fail(kernelLabel(k) + ": negative bytes or FLOPs");
      f.input = alignUp(k.bytesRead, 16);
      f.output = alignUp(k.bytesWritten, 16);
      break;
  }
  return f;
}

KernelLauncher::KernelLauncher(const LaunchContext& c, size_t maxConvWorkspace)
    : c_(c), maxConvWorkspace_(maxConvWorkspace) {}

KernelLauncher::~KernelLauncher() = default;

KernelLauncher::ConvKey KernelLauncher::keyOf(const ConvShape& s) {
  return {static_cast<int64_t>(s.dtype), s.n, s.h, s.w, s.c, s.k, s.r, s.s, s.strideH, s.strideW};
}

void KernelLauncher::prepare(const GpuKernel& k) {
  kernelFootprint(k);  // checks the shape
  if (k.kind != GpuKernel::Kind::Conv) return;
  const ConvShape s = convShapeOf(k);
  std::unique_ptr<ConvRunner>& r = convs_[keyOf(s)];
  if (r) return;
  r = std::make_unique<ConvRunner>(c_.dnn, s, maxConvWorkspace_);
  workspace_ = std::max(workspace_, r->workspaceBytes());
}

void KernelLauncher::launch(const GpuKernel& k) {
  const KernelFootprint f = kernelFootprint(k);
  if (f.input > scratch_.inputBytes || f.output > scratch_.outputBytes)
    fail(kernelLabel(k) + " needs " + mib(f.input) + " of input and " + mib(f.output) +
         " of output scratch; the device has " + mib(scratch_.inputBytes) + " and " + mib(scratch_.outputBytes));
  const auto* in = static_cast<const unsigned char*>(scratch_.input);
  switch (k.kind) {
    case GpuKernel::Kind::None:
      return;
    case GpuKernel::Kind::Gemm: {
      if (!gemmRuns(k)) return;
      const int e = elementBytes(k);
      const void* a = in;
      const void* b = in + arrayBytes(k, {k.batch, k.m, k.k}, e);
      const cudaDataType dt = cudaType(kernelType(k));
      const auto m = static_cast<int>(k.m), n = static_cast<int>(k.n), kk = static_cast<int>(k.k);
      const float alpha = 1.0f, beta = 0.0f;
      // row-major C[m,n] = A[m,k] B[k,n] is column-major C^T[n,m] = B^T[n,k] A^T[k,m]
      if (k.batch == 1) {
        checkCublas(cublasGemmEx(c_.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, kk, &alpha, b, dt, n, a, dt, kk, &beta,
                                 scratch_.output, dt, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                    "cublasGemmEx");
      } else {
        checkCublas(
            cublasGemmStridedBatchedEx(c_.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, kk, &alpha, b, dt, n,
                                       static_cast<long long>(k.k) * k.n, a, dt, kk, static_cast<long long>(k.m) * k.k,
                                       &beta, scratch_.output, dt, n, static_cast<long long>(k.m) * k.n,
                                       static_cast<int>(k.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            "cublasGemmStridedBatchedEx");
      }
      return;
    }
    case GpuKernel::Kind::Conv: {
      const ConvShape s = convShapeOf(k);
      const auto it = convs_.find(keyOf(s));
      if (it == convs_.end()) fail(kernelLabel(k) + " was launched without its algorithm search (prepare)");
      const ConvRunner& conv = *it->second;
      if (static_cast<int64_t>(conv.workspaceBytes()) > scratch_.workspaceBytes)
        fail(kernelLabel(k) + " needs " + mib(static_cast<int64_t>(conv.workspaceBytes())) +
             " of cuDNN workspace; the device has " + mib(scratch_.workspaceBytes));
      const ConvDims& d = conv.dims();
      conv.run(c_.dnn, in, in + arrayBytes(k, {d.inputElems}, d.elementBytes), scratch_.output, scratch_.workspace);
      return;
    }
    case GpuKernel::Kind::Memory:
      launchMemory(KernelContext{c_.stream, c_.blas}, in, static_cast<size_t>(k.bytesRead), scratch_.output,
                   static_cast<size_t>(k.bytesWritten), k.flops);
      return;
  }
}

namespace {

std::string gib(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (int64_t{1} << 30));
  return buf;
}

constexpr int64_t kHeadroom = int64_t{256} << 20;  // left free for cuBLAS, cuDNN and the driver

}  // namespace

ScratchSpace::ScratchSpace(const LaunchContext& c, int ordinal, const std::string& what, int64_t inputBytes,
                           int64_t outputBytes, int64_t workspaceBytes, int64_t receiveBytes)
    : ordinal_(ordinal),
      inputBytes_(alignUp(std::max<int64_t>(inputBytes, kAlign))),
      outputBytes_(alignUp(std::max<int64_t>(outputBytes, kAlign))),
      workspaceBytes_(alignUp(std::max<int64_t>(workspaceBytes, 0))),
      receiveBytes_(alignUp(std::max<int64_t>(receiveBytes, kAlign))) {
  const std::string gpu = "gpu" + std::to_string(ordinal);
  checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
  size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  const int64_t need = totalBytes();
  auto tooLittle = [&](size_t freeNow, const std::string& why) {
    fail(gpu + ": " + what + " needs " + gib(need) + " of scratch, " + gib(static_cast<int64_t>(freeNow)) + " free" +
         why);
  };
  if (need + kHeadroom > static_cast<int64_t>(free)) tooLittle(free, "");
  struct Region {
    void** p;
    int64_t bytes;
  };
  try {
    for (Region r : {Region{&input_, inputBytes_}, Region{&output_, outputBytes_}, Region{&workspace_, workspaceBytes_},
                     Region{&receive_, receiveBytes_}}) {
      if (r.bytes == 0) continue;
      const cudaError_t e = cudaMalloc(r.p, static_cast<size_t>(r.bytes));
      if (e == cudaSuccess) continue;
      cudaGetLastError();
      cudaMemGetInfo(&free, &total);
      tooLittle(free, std::string(" (") + cudaGetErrorName(e) + ")");
    }
    // one random chunk, copied on over the rest of the input region
    auto* base = static_cast<unsigned char*>(input_);
    const int64_t chunk = std::min<int64_t>(inputBytes_, int64_t{64} << 20);
    fillRandom(KernelContext{c.stream, c.blas}, input_, static_cast<size_t>(chunk / 2), DType::BF16, 7);
    for (int64_t done = chunk; done < inputBytes_;) {
      const int64_t n = std::min(done, inputBytes_ - done);
      checkCuda(cudaMemcpyAsync(base + done, base, static_cast<size_t>(n), cudaMemcpyDeviceToDevice, c.stream),
                "scratch fill");
      done += n;
    }
    checkCuda(cudaStreamSynchronize(c.stream), "scratch fill");
  } catch (...) {
    for (void* p : {input_, output_, workspace_, receive_}) cudaFree(p);
    throw;
  }
}

ScratchSpace::~ScratchSpace() {
  cudaSetDevice(ordinal_);
  for (void* p : {input_, output_, workspace_, receive_}) cudaFree(p);
}

KernelScratch ScratchSpace::kernelScratch() const {
  return {input_, inputBytes_, output_, outputBytes_, workspace_, workspaceBytes_};
}

}  // namespace gp::prof
