#include "profile/cuda/microbench.h"

#include <algorithm>
#include <cstdio>

#include "base/error.h"
#include "profile/cuda/conv_runner.h"
#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/kernels.h"
#include "profile/link_fit.h"

namespace gp::prof {
namespace {

struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(size_t bytes) { checkCuda(cudaMalloc(&p, std::max<size_t>(bytes, 16)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string figures(const KernelBench& k) {
  std::string s = k.label + ": ";
  if (k.flops > 0 && k.kernelSeconds > 0) s += fmt("%.4g TFLOP/s", k.flops / k.kernelSeconds * 1e-12) + ", ";
  if (k.bytes > 0 && k.kernelSeconds > 0) s += fmt("%.4g GB/s", k.bytes / k.kernelSeconds * 1e-9) + ", ";
  s += fmt("%.4g us", k.seconds * 1e6);
  if (k.kernelsPerRepetition > 1) s += " (" + std::to_string(k.kernelsPerRepetition) + " kernels)";
  return s;
}

KernelBench record(std::string label, std::string opType, OpClass cls, DType t,
                   std::vector<std::vector<int64_t>> shapes, double flops, double bytes, const BatchTiming& bt,
                   bool calibrate = true) {
  KernelBench k;
  k.label = std::move(label);
  k.opType = std::move(opType);
  k.opClass = cls;
  k.dtype = t;
  k.inputShapes = std::move(shapes);
  k.flops = flops;
  k.bytes = bytes;
  k.seconds = bt.seconds;
  k.kernelSeconds = bt.kernelSeconds;
  k.repetitions = bt.repetitions;
  k.kernelsPerRepetition = bt.kernelsPerRepetition;
  k.calibrate = calibrate;
  return k;
}

size_t freeMemory() {
  size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

cudaDataType cudaType(DType t) {
  return t == DType::F16 ? CUDA_R_16F : t == DType::BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

void benchGemm(DeviceContext& c, const BenchEnv& env, DType t, int n, DeviceProfile& out) {
  const size_t elems = static_cast<size_t>(n) * n, bytes = elems * static_cast<size_t>(dtypeSize(t));
  if (3 * bytes > freeMemory() / 2) {
    env.say("  GEMM " + std::string(dtypeName(t)) + " " + std::to_string(n) + "^3 skipped: not enough free memory");
    return;
  }
  DeviceBuffer a(bytes), b(bytes), cOut(bytes);
  const KernelContext kc{c.stream, c.blas};
  fillRandom(kc, a.p, elems, t, 1);
  fillRandom(kc, b.p, elems, t, 2);
  const float alpha = 1.0f, beta = 0.0f;
  const cudaDataType dt = cudaType(t);
  // row-major C[n,n] = A B is column-major C^T = B^T A^T
  auto launch = [&] {
    checkCublas(cublasGemmEx(c.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b.p, dt, n, a.p, dt, n, &beta, cOut.p,
                             dt, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  };
  const bool quick = env.options.quick;
  BatchTiming bt = env.timer.timeFor(c.stream, quick ? 0.02 : 0.05, quick ? 5 : 10, 200, launch);
  const std::string dims = std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n);
  out.kernels.push_back(record("GEMM " + std::string(dtypeName(t)) + " " + dims, "MatMul", OpClass::MatMul, t,
                               {{n, n}, {n, n}}, 2.0 * n * n * static_cast<double>(n), 3.0 * static_cast<double>(bytes),
                               bt));
  env.say("  " + figures(out.kernels.back()));
}

// NHWC 3x3 convolution, stride 1, same padding (a ResNet-50 layer), as the zoo's Conv2D.
void benchConv(DeviceContext& c, const BenchEnv& env, DType t, int batch, int hw, int channels, DeviceProfile& out) {
  const int k = channels, r = 3;
  const ConvShape shape{t, batch, hw, hw, channels, k, r, r, 1, 1};
  const ConvRunner conv(c.dnn, shape, size_t{1} << 30);  // algorithm search first, as cuDNN advises
  const ConvDims& d = conv.dims();
  const size_t elt = static_cast<size_t>(d.elementBytes);
  const auto xn = static_cast<size_t>(d.inputElems), wn = static_cast<size_t>(d.filterElems),
             yn = static_cast<size_t>(d.outputElems);
  DeviceBuffer x(xn * elt), w(wn * elt), y(yn * elt), ws(conv.workspaceBytes());
  const KernelContext kc{c.stream, c.blas};
  fillRandom(kc, x.p, xn, t, 3);
  fillRandom(kc, w.p, wn, t, 4);
  checkCuda(cudaStreamSynchronize(c.stream), "conv data");
  auto launch = [&] { conv.run(c.dnn, x.p, w.p, y.p, ws.p); };
  const bool quick = env.options.quick;
  BatchTiming bt = env.timer.timeFor(c.stream, quick ? 0.02 : 0.05, quick ? 5 : 10, 200, launch);
  const double flops = 2.0 * static_cast<double>(yn) * channels * r * r;
  const std::string label = "conv 3x3 " + std::string(dtypeName(t)) + " " + std::to_string(batch) + "x" +
                            std::to_string(hw) + "x" + std::to_string(hw) + "x" + std::to_string(channels);
  out.kernels.push_back(record(label, "Conv2D", OpClass::Conv, t, {{batch, hw, hw, channels}, {r, r, channels, k}},
                               flops, static_cast<double>((xn + wn + yn) * elt), bt));
  env.say("  " + figures(out.kernels.back()));
}

void benchMemoryBound(DeviceContext& c, const BenchEnv& env, DeviceProfile& out) {
  const bool quick = env.options.quick;
  const KernelContext kc{c.stream, c.blas};
  const double target = quick ? 0.02 : 0.05;
  const int minReps = quick ? 5 : 10;
  {
    const size_t n = quick ? size_t{1} << 24 : size_t{1} << 26;  // floats per array
    DeviceBuffer x(n * 4), y(n * 4), z(n * 4), sum(64);
    fillRandom(kc, x.p, n, DType::F32, 5);
    fillRandom(kc, y.p, n, DType::F32, 6);
    const auto ln = static_cast<int64_t>(n);
    BatchTiming add = env.timer.timeFor(c.stream, target, minReps, 500,
                                        [&] { launchAdd(kc, x.as<float>(), y.as<float>(), z.as<float>(), n); });
    out.kernels.push_back(record("elementwise add f32 " + std::to_string(n), "Add", OpClass::Elementwise, DType::F32,
                                 {{ln}, {ln}}, static_cast<double>(n), 12.0 * static_cast<double>(n), add));
    env.say("  " + figures(out.kernels.back()));
    env.checkCancel();
    BatchTiming red =
        env.timer.timeFor(c.stream, target, minReps, 500, [&] { launchSum(kc, x.as<float>(), sum.as<float>(), n); });
    out.kernels.push_back(record("reduction sum f32 " + std::to_string(n), "Sum", OpClass::Reduction, DType::F32,
                                 {{ln}}, static_cast<double>(n), 4.0 * static_cast<double>(n), red));
    env.say("  " + figures(out.kernels.back()));
  }
  env.checkCancel();
  {
    const size_t bytes = quick ? size_t{256} << 20 : size_t{1} << 30;
    if (2 * bytes < freeMemory() / 2) {
      DeviceBuffer src(bytes), dst(bytes);
      checkCuda(cudaMemsetAsync(src.p, 1, bytes, c.stream), "cudaMemsetAsync");
      const auto lb = static_cast<int64_t>(bytes);
      BatchTiming api = env.timer.timeFor(c.stream, target, minReps, 200, [&] {
        checkCuda(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice, c.stream), "cudaMemcpyAsync");
      });
      out.kernels.push_back(record("device copy (cudaMemcpyAsync) " + std::to_string(bytes >> 20) + " MiB", "Copy",
                                   OpClass::DataMovement, DType::U8, {{lb}}, 0, 2.0 * static_cast<double>(bytes), api,
                                   false));
      env.say("  " + figures(out.kernels.back()));
      BatchTiming own = env.timer.timeFor(c.stream, target, minReps, 200, [&] { launchCopy(kc, src.p, dst.p, bytes); });
      out.kernels.push_back(record("copy kernel " + std::to_string(bytes >> 20) + " MiB", "Copy", OpClass::DataMovement,
                                   DType::U8, {{lb}}, 0, 2.0 * static_cast<double>(bytes), own, false));
      env.say("  " + figures(out.kernels.back()));
      for (const BatchTiming* b : {&api, &own})
        if (b->kernelSeconds > 0)
          out.memBandwidth = std::max(out.memBandwidth, 2.0 * static_cast<double>(bytes) / b->kernelSeconds);
    } else {
      env.say("  bandwidth test skipped: not enough free memory");
    }
  }
  env.checkCancel();
  {
    const int reps = quick ? 200 : 1000;
    BatchTiming t = env.timer.time(
        c.stream, 50, reps, [&] { launchEmpty(kc); }, /*tagged=*/false);
    out.launchOverhead = t.seconds;
    out.emptyKernelSeconds = t.kernelSeconds;
    out.kernels.push_back(record(ownKernels() ? "empty kernel" : "1-element cublasSscal", "NoOp", OpClass::Other,
                                 DType::F32, {}, 0, 0, t, false));
    env.say("  launch overhead " + fmt("%.3g us", t.seconds * 1e6) + " start-to-start, kernel itself " +
            fmt("%.3g us", t.kernelSeconds * 1e6));
  }
}

}  // namespace

DeviceContext::DeviceContext(int o) : ordinal(o) {
  checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
  checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  checkCublas(cublasCreate(&blas), "cublasCreate");
  checkCublas(cublasSetStream(blas, stream), "cublasSetStream");
  checkCublas(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");  // f32 without TF32
  checkCudnn(cudnnCreate(&dnn), "cudnnCreate");
  checkCudnn(cudnnSetStream(dnn, stream), "cudnnSetStream");
}

DeviceContext::~DeviceContext() {
  cudaSetDevice(ordinal);
  if (dnn) cudnnDestroy(dnn);
  if (blas) cublasDestroy(blas);
  if (stream) cudaStreamDestroy(stream);
}

void DeviceContext::makeCurrent() const {
  checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
}

void benchDevice(DeviceContext& c, const BenchEnv& env, DeviceProfile& out) {
  c.makeCurrent();
  const bool quick = env.options.quick;
  const std::vector<int> sizes =
      quick ? std::vector<int>{1024, 4096, 8192} : std::vector<int>{256, 512, 1024, 2048, 4096, 8192};
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (int n : sizes) {
      env.checkCancel();
      benchGemm(c, env, t, n, out);
    }
  // A convolution cuDNN cannot run here (no algorithm for the type) is reported, not fatal.
  auto conv = [&](DType t, int batch, int hw, int channels) {
    env.checkCancel();
    try {
      benchConv(c, env, t, batch, hw, channels, out);
    } catch (const Error& e) {
      env.say("  conv " + std::string(dtypeName(t)) + " skipped: " + e.problem());
    }
  };
  for (DType t : {DType::F32, DType::F16}) {
    conv(t, 32, 14, 256);             // ResNet-50 conv4_x 3x3
    if (!quick) conv(t, 32, 56, 64);  // ResNet-50 conv2_x 3x3
  }
  env.checkCancel();
  benchMemoryBound(c, env, out);
  out.measured = true;
}

void benchPeer(DeviceContext& src, int dstOrdinal, int maxExponent, const BenchEnv& env, PeerProfile& out) {
  const int a = src.ordinal, b = dstOrdinal;
  int canAB = 0, canBA = 0;
  checkCuda(cudaDeviceCanAccessPeer(&canAB, a, b), "cudaDeviceCanAccessPeer");
  checkCuda(cudaDeviceCanAccessPeer(&canBA, b, a), "cudaDeviceCanAccessPeer");
  auto enable = [](int from, int to) {
    checkCuda(cudaSetDevice(from), "cudaSetDevice");
    cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();  // clear the sticky-free error state
      return;
    }
    checkCuda(e, "cudaDeviceEnablePeerAccess");
  };
  if (canAB) enable(a, b);
  if (canBA) enable(b, a);
  out.peerAccess = canAB && canBA;
  const size_t maxBytes = size_t{1} << maxExponent;
  checkCuda(cudaSetDevice(b), "cudaSetDevice");
  DeviceBuffer dst(maxBytes);
  src.makeCurrent();
  DeviceBuffer from(maxBytes);
  checkCuda(cudaMemsetAsync(from.p, 1, maxBytes, src.stream), "cudaMemsetAsync");
  const bool quick = env.options.quick;
  for (int e = 0; e <= maxExponent; e += quick ? 2 : 1) {
    env.checkCancel();
    const size_t bytes = size_t{1} << e;
    const int reps = e < 20 ? (quick ? 10 : 20) : (quick ? 3 : 5);
    BatchTiming t = env.timer.time(src.stream, 1, reps, [&] {
      checkCuda(cudaMemcpyPeerAsync(dst.p, b, from.p, a, bytes, src.stream), "cudaMemcpyPeerAsync");
    });
    out.samples.push_back({static_cast<int64_t>(bytes), t.kernelSeconds});
  }
  try {
    const LinkFit f = fitLatencyBandwidth(out.samples);
    env.say("  gpu" + std::to_string(a) + " -> gpu" + std::to_string(b) + (out.peerAccess ? " (P2P)" : " (via host)") +
            ": latency " + fmt("%.3g us", f.latency * 1e6) + ", bandwidth " + fmt("%.4g GB/s", f.bandwidth * 1e-9));
  } catch (const std::exception& e) {
    env.say("  gpu" + std::to_string(a) + " -> gpu" + std::to_string(b) + ": " + e.what());
  }
}

}  // namespace gp::prof
