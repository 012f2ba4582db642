// Entry points of the GPU profiler plugin (libgp_profile.so). core/profile/profile_plugin.cpp
// dlopen()s it on the first profile, so programs that never profile never load the CUDA
// libraries. Order of a run: device discovery, CUPTI (or CUDA events), per device the compute
// benchmarks (quick: one device per kind), then every ordered GPU pair's peer copies. The
// executor (executor.h) and the kernel timing of `profile --model` (kernel_timing.h) are two
// more entries; each entry's signature is checked against profile_plugin.h's function types.
#include <unistd.h>

#include <chrono>
#include <map>
#include <memory>
#include <type_traits>

#include "base/error.h"
#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/cupti_collector.h"
#include "profile/cuda/executor.h"
#include "profile/cuda/gpu_session.h"
#include "profile/cuda/kernel_timing.h"
#include "profile/cuda/kernels.h"
#include "profile/cuda/microbench.h"
#include "profile/gpu_peaks.h"
#include "profile/profile_plugin.h"

namespace gp::prof {
namespace {

std::string hostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

void run(const ProfileOptions& o, const ProfileProgressFn& progress, const std::atomic<bool>* cancel,
         ProfileResult& out) {
  const auto t0 = std::chrono::steady_clock::now();
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  auto checkCancel = [&] {
    if (cancel && cancel->load()) fail("cancelled");
  };
  out = ProfileResult{};
  const std::vector<GpuInfo> all = discoverGpus();
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  out.driverVersion = cudaVersionString(driver);
  out.runtimeVersion = cudaVersionString(runtime);
  out.hostName = hostName();

  std::vector<GpuInfo> gpus;
  if (o.devices.empty()) {
    gpus = all;
  } else {
    for (int d : o.devices) {
      checkOrdinal(d, static_cast<int>(all.size()));
      for (const GpuInfo& g : gpus)
        if (g.ordinal == d) fail("GPU " + std::to_string(d) + " is listed twice");
      gpus.push_back(all[d]);
    }
  }
  say("found " + std::to_string(all.size()) + " GPU(s), CUDA driver " + out.driverVersion + ", runtime " +
      out.runtimeVersion + (ownKernels() ? "" : " (built without nvcc: cuBLAS stand-ins for our kernels)"));
  for (const GpuInfo& g : gpus)
    say("  gpu" + std::to_string(g.ordinal) + ": " + g.name + ", sm_" + std::to_string(g.ccMajor) +
        std::to_string(g.ccMinor) + ", " + std::to_string(g.multiprocessors) + " SMs, " +
        std::to_string(static_cast<long long>(g.memoryBytes >> 20)) + " MiB");

  // one context per profiled GPU (creating it initializes the device before CUPTI starts)
  std::vector<std::unique_ptr<DeviceContext>> ctx;
  for (const GpuInfo& g : gpus) ctx.push_back(std::make_unique<DeviceContext>(g.ordinal));

  const CuptiSession cupti(o.timer);
  if (!cupti.note().empty()) {
    out.timerNote = cupti.note();
    say("warning: " + cupti.note() + "; timing with CUDA events instead");
  }
  out.timer = cupti.timerName();
  BenchTimer timer(cupti.on());
  const BenchEnv env{o, timer, say, checkCancel};

  std::map<std::string, bool> kindMeasured;
  for (size_t i = 0; i < gpus.size(); ++i) {
    DeviceProfile p;
    p.gpu = gpus[i];
    const std::string kind = deviceKindName(p.gpu.name, p.gpu.memoryBytes);
    if (!o.quick || !kindMeasured[kind]) {
      say("[gpu" + std::to_string(p.gpu.ordinal) + "] compute benchmarks (" + kind + ")");
      benchDevice(*ctx[i], env, p);
      kindMeasured[kind] = true;
    } else {
      say("[gpu" + std::to_string(p.gpu.ordinal) + "] skipped with --quick: same kind as a measured GPU");
    }
    out.devices.push_back(std::move(p));
  }
  const int maxExp = o.maxPeerExponent >= 0 ? o.maxPeerExponent : (o.quick ? 26 : 29);
  if (gpus.size() > 1) say("[peers] copies of 2^0..2^" + std::to_string(maxExp) + " bytes between every GPU pair");
  for (size_t i = 0; i < gpus.size(); ++i)
    for (size_t j = 0; j < gpus.size(); ++j) {
      if (i == j) continue;
      PeerProfile pp;
      pp.src = static_cast<int>(i);
      pp.dst = static_cast<int>(j);
      benchPeer(*ctx[i], gpus[j].ordinal, maxExp, env, pp);
      out.peers.push_back(std::move(pp));
    }
  if (!timer.note().empty()) out.timerNote += (out.timerNote.empty() ? "" : "; ") + timer.note();
  if (const uint64_t dropped = CuptiCollector::droppedRecords())
    out.timerNote += (out.timerNote.empty() ? "" : "; ") + std::to_string(dropped) + " CUPTI records dropped";
  out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void traceSample(int device, std::vector<ActivityRecord>& out) {
  const std::vector<GpuInfo> gpus = discoverGpus();
  checkOrdinal(device, static_cast<int>(gpus.size()));
  DeviceContext c(device);
  const CuptiSession cupti(ProfileTimer::Cupti);
  constexpr int n = 512;
  constexpr size_t mib = size_t{1} << 20;
  struct Buffers {  // freed on every path (cudaFree finds each buffer's device itself: UVA)
    void *a = nullptr, *b = nullptr, *cm = nullptr, *peer = nullptr;
    ~Buffers() {
      for (void* p : {a, b, cm, peer})
        if (p) cudaFree(p);
    }
  } buf;
  void *&a = buf.a, *&b = buf.b, *&cm = buf.cm, *&peer = buf.peer;
  checkCuda(cudaMalloc(&a, n * n * 4), "cudaMalloc");
  checkCuda(cudaMalloc(&b, n * n * 4), "cudaMalloc");
  checkCuda(cudaMalloc(&cm, n * n * 4), "cudaMalloc");
  const int next = (device + 1) % static_cast<int>(gpus.size());
  if (next != device) {
    checkCuda(cudaSetDevice(next), "cudaSetDevice");
    checkCuda(cudaMalloc(&peer, mib), "cudaMalloc");
    c.makeCurrent();
  }
  CuptiCollector::take();
  const KernelContext kc{c.stream, c.blas};
  const float alpha = 1, beta = 0;
  CuptiCollector::push(1);
  fillRandom(kc, a, size_t{n} * n, DType::F32, 1);
  checkCublas(cublasSgemm(c.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, static_cast<float*>(a), n,
                          static_cast<float*>(a), n, &beta, static_cast<float*>(cm), n),
              "cublasSgemm");
  CuptiCollector::pop();
  CuptiCollector::push(2);
  checkCuda(cudaMemsetAsync(b, 0, mib, c.stream), "cudaMemsetAsync");
  CuptiCollector::pop();
  CuptiCollector::push(3);
  checkCuda(cudaMemcpyAsync(cm, b, mib, cudaMemcpyDeviceToDevice, c.stream), "cudaMemcpyAsync");
  CuptiCollector::pop();
  if (peer) {
    CuptiCollector::push(4);
    checkCuda(cudaMemcpyPeerAsync(peer, next, b, device, mib, c.stream), "cudaMemcpyPeerAsync");
    CuptiCollector::pop();
  }
  checkCuda(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
  out = CuptiCollector::take();
}

}  // namespace
}  // namespace gp::prof

extern "C" uint64_t gp_profile_abi() {
  return gp::profilePluginAbi();
}

extern "C" void gp_profile_list_gpus(std::vector<gp::GpuInfo>& out) {
  out = gp::prof::discoverGpus();
}

extern "C" void gp_profile_trace_sample(int device, std::vector<gp::ActivityRecord>& out) {
  gp::prof::traceSample(device, out);
}

extern "C" void gp_profile_run(const gp::ProfileOptions& options, const gp::ProfileProgressFn& progress,
                               const std::atomic<bool>* cancel, gp::ProfileResult& out) {
  gp::prof::run(options, progress, cancel, out);
}

extern "C" void gp_profile_execute(const gp::GpuProgram& program, const gp::GpuRunOptions& options,
                                   const gp::ProfileProgressFn& progress, const std::atomic<bool>* cancel,
                                   gp::GpuRunResult& out) {
  gp::prof::executeProgram(program, options, progress, cancel, out);
}

extern "C" void gp_profile_time_kernels(const std::vector<gp::GpuKernel>& kernels,
                                        const gp::KernelTimingOptions& options, const gp::ProfileProgressFn& progress,
                                        const std::atomic<bool>* cancel, std::vector<double>& out) {
  gp::prof::timeKernelList(kernels, options, progress, cancel, out);
}

// The loader casts dlsym()'s results to these types: the definitions above must match them.
static_assert(std::is_same_v<decltype(&gp_profile_run), gp::ProfileRunFn>);
static_assert(std::is_same_v<decltype(&gp_profile_list_gpus), gp::ProfileListFn>);
static_assert(std::is_same_v<decltype(&gp_profile_trace_sample), gp::ProfileTraceFn>);
static_assert(std::is_same_v<decltype(&gp_profile_execute), gp::ProfileExecuteFn>);
static_assert(std::is_same_v<decltype(&gp_profile_time_kernels), gp::ProfileTimeKernelsFn>);
static_assert(std::is_same_v<decltype(&gp_profile_abi), gp::ProfileAbiFn>);
