// Loading the GPU profiler plugin (libgp_profile.so, core/profile/cuda) on demand, the way
// optimize/rl_plugin.h loads the optimizer: graphplace-cli and the app never link libcudart,
// CUPTI, cuBLAS or cuDNN; only profiling loads them.
//
//   ProfileResult r = runProfile(options, [](const std::string& line) { std::cout << line << "\n"; });
//
// Errors are gp::Error("profile", one line): built without CUDA, plugin missing or unloadable,
// no NVIDIA driver, no GPU, CUPTI unavailable or without permission, cancelled.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "profile/activity.h"
#include "profile/gpu_program.h"
#include "profile/gpu_run.h"
#include "profile/profile_result.h"

namespace gp {

// The plugin's entries. Exceptions (gp::Error) propagate through them.
using ProfileRunFn = void (*)(const ProfileOptions& options, const ProfileProgressFn& progress,
                              const std::atomic<bool>* cancel, ProfileResult& out);
using ProfileListFn = void (*)(std::vector<GpuInfo>& out);
using ProfileTraceFn = void (*)(int device, std::vector<ActivityRecord>& out);
// The executor (profile/cuda/executor): runs `program` warmupSteps + steps times.
using ProfileExecuteFn = void (*)(const GpuProgram& program, const GpuRunOptions& options,
                                  const ProfileProgressFn& progress, const std::atomic<bool>* cancel,
                                  GpuRunResult& out);
// Times each kernel alone on one GPU (profile --model): out[i] = seconds of kernels[i].
using ProfileTimeKernelsFn = void (*)(const std::vector<GpuKernel>& kernels, const KernelTimingOptions& options,
                                      const ProfileProgressFn& progress, const std::atomic<bool>* cancel,
                                      std::vector<double>& out);
inline constexpr const char* kProfileExecuteSymbol = "gp_profile_execute";
inline constexpr const char* kProfileTimeKernelsSymbol = "gp_profile_time_kernels";
inline constexpr const char* kProfileRunSymbol = "gp_profile_run";
inline constexpr const char* kProfileListSymbol = "gp_profile_list_gpus";
inline constexpr const char* kProfileTraceSymbol = "gp_profile_trace_sample";
inline constexpr const char* kProfilePluginFile = "libgp_profile.so";
// A plugin built from other headers must not be called: both sides compute this from the
// headers they were built with, and the loader refuses a mismatch.
inline constexpr const char* kProfileAbiSymbol = "gp_profile_abi";
using ProfileAbiFn = uint64_t (*)();
inline constexpr uint64_t profilePluginAbi() {
  constexpr uint64_t kVersion = 2;
  return (kVersion << 56) ^ (uint64_t{sizeof(ProfileOptions)} << 44) ^ (uint64_t{sizeof(ProfileResult)} << 32) ^
         (uint64_t{sizeof(DeviceProfile)} << 24) ^ (uint64_t{sizeof(KernelBench)} << 16) ^
         (uint64_t{sizeof(GpuInfo)} << 8) ^ uint64_t { sizeof(PeerProfile) } ^ (uint64_t{sizeof(ActivityRecord)} << 40) ^
         (uint64_t{sizeof(GpuProgram)} << 48) ^ (uint64_t{sizeof(GpuKernel)} << 36) ^ (uint64_t{sizeof(GpuLaunch)} << 28) ^
         (uint64_t{sizeof(GpuRunOptions)} << 20) ^ (uint64_t{sizeof(GpuRunResult)} << 12) ^
         (uint64_t{sizeof(KernelTimingOptions)} << 4);
}

// The message when this build has no plugin.
inline constexpr const char* kBuiltWithoutCuda =
    "graphplace was built without CUDA: profiling needs the CUDA toolkit (CUPTI, cuBLAS, cuDNN) at build time";

// Whether this build made the plugin (it may still fail to load, e.g. without cuDNN at run time).
bool profilerBuilt();

// Measures the GPUs (profile/cuda/profile_module.cpp). Looks for the plugin in
// $GP_PROFILE_PLUGIN (when set, only there), the build tree, next to the executable and in
// <exe>/../lib/graphplace. `progress` gets one line per step; `cancel` is polled between
// benchmarks.
ProfileResult runProfile(const ProfileOptions& options, const ProfileProgressFn& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

// Device discovery only (fast): the GPUs present, or the same errors runProfile gives when
// there is no driver or no device.
std::vector<GpuInfo> listGpus();

// The CUPTI records of a small piece of tagged work on `device` (a check of the collector):
// external id 1: a data fill and a 512^3 f32 GEMM; 2: a 1 MiB memset; 3: a 1 MiB device copy;
// 4 (when there is a second GPU): a 1 MiB peer copy to the next GPU. Needs CUPTI (no fallback).
std::vector<ActivityRecord> traceSample(int device);

// The executor and the kernel timer (see the Fn types above). Errors as runProfile's.
GpuRunResult executeOnGpus(const GpuProgram& program, const GpuRunOptions& options,
                           const ProfileProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);
std::vector<double> timeKernels(const std::vector<GpuKernel>& kernels, const KernelTimingOptions& options,
                                const ProfileProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace gp
