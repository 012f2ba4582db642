#include "profile/profile_plugin.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "base/error.h"
#include "base/plugin_files.h"

namespace gp {
namespace {

#ifdef GP_PROFILE_PLUGIN_BUILD_PATH
constexpr const char* kBuildPath = GP_PROFILE_PLUGIN_BUILD_PATH;
#else
constexpr const char* kBuildPath = nullptr;
#endif

struct Loaded {
  ProfileRunFn run = nullptr;
  ProfileListFn list = nullptr;
  ProfileTraceFn trace = nullptr;
  ProfileExecuteFn execute = nullptr;
  ProfileTimeKernelsFn timeKernels = nullptr;
  std::string error;
};

Loaded loadFile(const std::string& file) {
  const OpenedPlugin o = openPlugin(
      file, "the GPU profiler plugin", kProfileAbiSymbol, profilePluginAbi(),
      {kProfileRunSymbol, kProfileListSymbol, kProfileTraceSymbol, kProfileExecuteSymbol, kProfileTimeKernelsSymbol},
      "(are the CUDA libraries, cuDNN included, on the library path? add the toolkit's library folder to "
      "/etc/ld.so.conf.d and run ldconfig, or to LD_LIBRARY_PATH)");
  Loaded p;
  p.error = o.error;
  if (o.error.empty()) {
    p.run = reinterpret_cast<ProfileRunFn>(o.symbols[0]);
    p.list = reinterpret_cast<ProfileListFn>(o.symbols[1]);
    p.trace = reinterpret_cast<ProfileTraceFn>(o.symbols[2]);
    p.execute = reinterpret_cast<ProfileExecuteFn>(o.symbols[3]);
    p.timeKernels = reinterpret_cast<ProfileTimeKernelsFn>(o.symbols[4]);
  }
  return p;
}

Loaded loadPlugin() {
  const PluginFiles c = pluginFiles("GP_PROFILE_PLUGIN", kBuildPath, kProfilePluginFile);
  std::string tried;
  if (const std::string file = firstExisting(c, tried); !file.empty()) {
    Loaded p = loadFile(file);
    if (!p.error.empty()) throw Error("profile", p.error);
    return p;
  }
  if (c.explicitOnly)
    throw Error("profile", "the GPU profiler plugin named by GP_PROFILE_PLUGIN does not exist: " + tried);
  if (!profilerBuilt()) throw Error("profile", kBuiltWithoutCuda);
  throw Error("profile", "the GPU profiler plugin " + std::string(kProfilePluginFile) + " was not found (looked in " +
                             tried + "; set GP_PROFILE_PLUGIN)");
}

// The plugin's runs share process-wide state (the CUPTI collector, the GPUs' timing): one at a
// time. A second one while another runs (the app's profile dialog and Measure on GPUs) fails
// at once rather than corrupting both.
class GpuRunLock {
 public:
  GpuRunLock() : lock_(mutex(), std::try_to_lock) {
    if (!lock_.owns_lock())
      throw Error("profile",
                  "the GPUs are busy with another profile or measurement of this program; try again when it ends");
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::unique_lock<std::mutex> lock_;
};

}  // namespace

bool profilerBuilt() {
#ifdef GP_PROFILE_PLUGIN_BUILD_PATH
  return true;
#else
  return false;
#endif
}

ProfileResult runProfile(const ProfileOptions& options, const ProfileProgressFn& progress,
                         const std::atomic<bool>* cancel) {
  if (options.maxPeerExponent > 40) throw Error("profile", "peer-copy sizes go up to 2^40 bytes at most");
  for (int d : options.devices)
    if (d < 0) throw Error("profile", "device ordinals are >= 0, got " + std::to_string(d));
  const Loaded p = loadPlugin();
  const GpuRunLock busy;
  ProfileResult r;
  p.run(options, progress, cancel, r);
  return r;
}

std::vector<GpuInfo> listGpus() {
  const Loaded p = loadPlugin();
  std::vector<GpuInfo> out;
  p.list(out);
  return out;
}

std::vector<ActivityRecord> traceSample(int device) {
  if (device < 0) throw Error("profile", "device ordinals are >= 0, got " + std::to_string(device));
  const Loaded p = loadPlugin();
  const GpuRunLock busy;
  std::vector<ActivityRecord> out;
  p.trace(device, out);
  return out;
}

GpuRunResult executeOnGpus(const GpuProgram& program, const GpuRunOptions& options, const ProfileProgressFn& progress,
                           const std::atomic<bool>* cancel) {
  if (options.warmupSteps < 0 || options.steps < 1)
    throw Error("measure", "needs at least 1 measured step and no negative warm-up");
  for (int d : options.ordinals)
    if (d < 0) throw Error("measure", "device ordinals are >= 0, got " + std::to_string(d));
  const Loaded p = loadPlugin();
  const GpuRunLock busy;
  GpuRunResult r;
  p.execute(program, options, progress, cancel, r);
  return r;
}

std::vector<double> timeKernels(const std::vector<GpuKernel>& kernels, const KernelTimingOptions& options,
                                const ProfileProgressFn& progress, const std::atomic<bool>* cancel) {
  if (options.ordinal < 0) throw Error("profile", "device ordinals are >= 0, got " + std::to_string(options.ordinal));
  if (options.repetitions < 1) throw Error("profile", "needs at least 1 repetition per kernel");
  const Loaded p = loadPlugin();
  const GpuRunLock busy;
  std::vector<double> out;
  p.timeKernels(kernels, options, progress, cancel, out);
  if (out.size() != kernels.size()) throw Error("profile", "the GPU profiler plugin timed a different number of kernels");
  return out;
}

}  // namespace gp
