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

// One learned product of the plugin: its ABI symbol and value and its entry points.
struct Product {
  const char* abiSymbol;
  uint64_t abi;
  std::vector<const char*> names;
};

// The product's entry points, in the order of `names`, loading the plugin on first use;
// gp::Error("optimize", ...) when it cannot be found, loaded or was built for other headers.
std::vector<void*> entries(const Product& product) {
  const PluginFiles c = pluginFiles("GP_RL_PLUGIN", kBuildPath, kRlPluginFile);
  std::string tried;
  const std::string file = firstExisting(c, tried);
  if (file.empty()) {
    if (c.explicitOnly) throw Error("optimize", "the optimizer plugin named by GP_RL_PLUGIN does not exist: " + tried);
    throw Error("optimize", "the RL optimizer is not available: the LibTorch plugin " + std::string(kRlPluginFile) +
                                " was not found (looked in " + tried + "; build with GP_WITH_TORCH=ON or set GP_RL_PLUGIN)");
  }
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
  const OpenedPlugin o = openPlugin(file, "the optimizer plugin", product.abiSymbol, product.abi, product.names);
  if (!o.error.empty()) throw Error("optimize", o.error);
  return o.symbols;
}

const Product& placement() {
  static const Product p{kPlacementAbiSymbol, placementPluginAbi(), {kRlOptimizeSymbol, kRlPretrainSymbol}};
  return p;
}

const Product& parallelDqn() {
  static const Product p{kParallelDqnAbiSymbol, parallelDqnPluginAbi(), {kRlParallelDqnSymbol, kRlParallelPretrainSymbol}};
  return p;
}

const Product& costModel() {
  static const Product p{kCostModelAbiSymbol,
                         costModelPluginAbi(),
                         {kRlCpuInfoSymbol, kRlCpuTimeSymbol, kRlCostTrainSymbol, kRlCostPredictSymbol, kRlCostInfoSymbol}};
  return p;
}

template <typename Fn>
Fn entry(const Product& product, size_t index) {
  return reinterpret_cast<Fn>(entries(product)[index]);
}

}  // namespace

RlOptimizeFn rlOptimizeEntry() { return entry<RlOptimizeFn>(placement(), 0); }
RlPretrainFn rlPretrainEntry() { return entry<RlPretrainFn>(placement(), 1); }
RlParallelDqnFn rlParallelDqnEntry() { return entry<RlParallelDqnFn>(parallelDqn(), 0); }
RlParallelPretrainFn rlParallelPretrainEntry() { return entry<RlParallelPretrainFn>(parallelDqn(), 1); }
RlCpuInfoFn rlCpuInfoEntry() { return entry<RlCpuInfoFn>(costModel(), 0); }
RlCpuTimeFn rlCpuTimeEntry() { return entry<RlCpuTimeFn>(costModel(), 1); }
RlCostTrainFn rlCostTrainEntry() { return entry<RlCostTrainFn>(costModel(), 2); }
RlCostPredictFn rlCostPredictEntry() { return entry<RlCostPredictFn>(costModel(), 3); }
RlCostInfoFn rlCostInfoEntry() { return entry<RlCostInfoFn>(costModel(), 4); }

}  // namespace gp
