#include "optimize/rl_plugin.h"

#include <malloc.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "base/error.h"
#include "base/plugin_files.h"

namespace gp {
namespace {

#ifdef GP_RL_PLUGIN_BUILD_PATH
constexpr const char* kBuildPath = GP_RL_PLUGIN_BUILD_PATH;
#else
constexpr const char* kBuildPath = nullptr;
#endif

struct Loaded {
  RlOptimizeFn optimize = nullptr;
  RlPretrainFn pretrain = nullptr;
  RlParallelDqnFn parallelDqn = nullptr;
  RlParallelPretrainFn parallelPretrain = nullptr;
  RlCpuInfoFn cpuInfo = nullptr;
  RlCpuTimeFn cpuTime = nullptr;
  RlCostTrainFn costTrain = nullptr;
  RlCostPredictFn costPredict = nullptr;
  RlCostInfoFn costInfo = nullptr;
  std::string error;
};

Loaded loadFile(const std::string& file) {
  // LibTorch's OpenMP threads spin between parallel regions by default; on a machine shared
  // with other work (a desktop running the app, a build) the spinning thread steals the core
  // the other needs and an iteration takes 10-20x longer. libgomp reads this once, when it is
  // loaded, which is with the plugin (unless the user chose a policy).
  ::setenv("OMP_WAIT_POLICY", "PASSIVE", /*overwrite=*/0);
  // The policy's passes allocate tensors of tens of MB on helper threads; glibc gives threads
  // arenas of their own, each keeping what it freed, and the process grows with every
  // iteration (optimize zoo:gnmt, 5 iterations: 2.3 GB peak, 1.5 GB with one arena, the same
  // speed). Threads that exist keep their arenas; new ones share.
  ::mallopt(M_ARENA_MAX, 1);
  const OpenedPlugin o =
      openPlugin(file, "the optimizer plugin", kRlAbiSymbol, rlPluginAbi(), {kRlOptimizeSymbol, kRlPretrainSymbol, kRlParallelDqnSymbol, kRlParallelPretrainSymbol, kRlCpuInfoSymbol,
                  kRlCpuTimeSymbol, kRlCostTrainSymbol, kRlCostPredictSymbol, kRlCostInfoSymbol});
  Loaded p;
  p.error = o.error;
  if (o.error.empty()) {
    p.optimize = reinterpret_cast<RlOptimizeFn>(o.symbols[0]);
    p.pretrain = reinterpret_cast<RlPretrainFn>(o.symbols[1]);
    p.parallelDqn = reinterpret_cast<RlParallelDqnFn>(o.symbols[2]);
    p.parallelPretrain = reinterpret_cast<RlParallelPretrainFn>(o.symbols[3]);
    p.cpuInfo = reinterpret_cast<RlCpuInfoFn>(o.symbols[4]);
    p.cpuTime = reinterpret_cast<RlCpuTimeFn>(o.symbols[5]);
    p.costTrain = reinterpret_cast<RlCostTrainFn>(o.symbols[6]);
    p.costPredict = reinterpret_cast<RlCostPredictFn>(o.symbols[7]);
    p.costInfo = reinterpret_cast<RlCostInfoFn>(o.symbols[8]);
  }
  return p;
}

Loaded loadPlugin() {
  const PluginFiles c = pluginFiles("GP_RL_PLUGIN", kBuildPath, kRlPluginFile);
  std::string tried;
  if (const std::string file = firstExisting(c, tried); !file.empty()) {
    Loaded p = loadFile(file);
    if (!p.error.empty()) throw Error("optimize", p.error);
    return p;
  }
  if (c.explicitOnly)
    throw Error("optimize", "the optimizer plugin named by GP_RL_PLUGIN does not exist: " + tried);
  throw Error("optimize", "the RL optimizer is not available: the LibTorch plugin " + std::string(kRlPluginFile) +
                              " was not found (looked in " + tried +
                              "; build with GP_WITH_TORCH=ON or set GP_RL_PLUGIN)");
}

}  // namespace

RlOptimizeFn rlOptimizeEntry() { return loadPlugin().optimize; }
RlPretrainFn rlPretrainEntry() { return loadPlugin().pretrain; }
RlParallelDqnFn rlParallelDqnEntry() { return loadPlugin().parallelDqn; }
RlParallelPretrainFn rlParallelPretrainEntry() { return loadPlugin().parallelPretrain; }
RlCpuInfoFn rlCpuInfoEntry() { return loadPlugin().cpuInfo; }
RlCpuTimeFn rlCpuTimeEntry() { return loadPlugin().cpuTime; }
RlCostTrainFn rlCostTrainEntry() { return loadPlugin().costTrain; }
RlCostPredictFn rlCostPredictEntry() { return loadPlugin().costPredict; }
RlCostInfoFn rlCostInfoEntry() { return loadPlugin().costInfo; }

}  // namespace gp
