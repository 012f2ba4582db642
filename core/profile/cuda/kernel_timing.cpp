#include "profile/cuda/kernel_timing.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <string>

#include "profile/cuda/bench_timer.h"
#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/gpu_session.h"
#include "profile/cuda/kernel_launch.h"
#include "profile/cuda/microbench.h"

namespace gp::prof {
namespace {

constexpr int kWarmup = 3;
constexpr size_t kProgressEvery = 50;

// Every field of a kernel (FLOPs by their bits): equal keys, identical kernels.
using KernelKey = std::array<int64_t, 18>;
KernelKey keyOf(const GpuKernel& k) {
  return {static_cast<int64_t>(k.kind),
          static_cast<int64_t>(k.dtype),
          k.m,
          k.n,
          k.k,
          k.batch,
          k.convN,
          k.convH,
          k.convW,
          k.convC,
          k.convK,
          k.convR,
          k.convS,
          k.strideH,
          k.strideW,
          std::bit_cast<int64_t>(k.flops),
          k.bytesRead,
          k.bytesWritten};
}

}  // namespace

void timeKernelList(const std::vector<GpuKernel>& kernels, const KernelTimingOptions& options,
                    const ProfileProgressFn& progress, const std::atomic<bool>* cancel, std::vector<double>& out) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  auto checkCancel = [&] {
    if (cancel && cancel->load()) fail("cancelled");
  };
  if (options.repetitions < 1) fail("needs at least 1 repetition per kernel");
  out.assign(kernels.size(), 0.0);
  const std::vector<GpuInfo> gpus = discoverGpus();
  checkOrdinal(options.ordinal, static_cast<int>(gpus.size()));
  const GpuInfo& gpu = gpus[options.ordinal];
  const std::string name = "gpu" + std::to_string(gpu.ordinal);

  // distinct kernels, in first-seen order; `slot[i]`: kernels[i]'s distinct index
  std::map<KernelKey, size_t> seen;
  std::vector<const GpuKernel*> distinct;
  std::vector<size_t> slot(kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    const GpuKernel& k = kernels[i];
    const auto [it, fresh] = seen.emplace(keyOf(k), distinct.size());
    if (fresh) distinct.push_back(&k);
    slot[i] = it->second;
  }

  DeviceContext ctx(options.ordinal);
  const LaunchContext lc{ctx.stream, ctx.blas, ctx.dnn};
  KernelLauncher launcher(lc);
  KernelFootprint most;
  for (const GpuKernel* k : distinct) {
    launcher.prepare(*k);  // cuDNN's searches before the scratch is allocated, as cuDNN advises
    const KernelFootprint f = kernelFootprint(*k);
    most.input = std::max(most.input, f.input);
    most.output = std::max(most.output, f.output);
  }
  const ScratchSpace scratch(lc, options.ordinal, "the largest kernel", most.input, most.output,
                             static_cast<int64_t>(launcher.workspaceBytes()));
  launcher.setScratch(scratch.kernelScratch());

  const CuptiSession cupti(options.timer);  // after the set-up: its API calls are not traced
  if (!cupti.note().empty()) say("warning: " + cupti.note() + "; timing with CUDA events instead");
  BenchTimer timer(cupti.on());
  say("timing " + std::to_string(distinct.size()) + " distinct kernel(s) of " + std::to_string(kernels.size()) +
      " on " + name + " (" + gpu.name + "), " + std::to_string(options.repetitions) + " repetitions each");
  std::vector<double> seconds(distinct.size(), 0.0);
  for (size_t i = 0; i < distinct.size(); ++i) {
    checkCancel();
    const GpuKernel& k = *distinct[i];
    if (k.kind != GpuKernel::Kind::None) {
      const BatchTiming t = timer.time(ctx.stream, kWarmup, options.repetitions, [&] { launcher.launch(k); });
      seconds[i] = t.seconds;
    }
    if ((i + 1) % kProgressEvery == 0 || i + 1 == distinct.size())
      say("  " + name + ": timed " + std::to_string(i + 1) + "/" + std::to_string(distinct.size()) + " kernels");
  }
  if (!timer.note().empty()) say("note: " + timer.note());
  for (size_t i = 0; i < kernels.size(); ++i) out[i] = seconds[slot[i]];
}

}  // namespace gp::prof
