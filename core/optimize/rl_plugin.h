// Loading the RL optimizer plugin (libgp_rl.so, core/rl/rl_module.cpp) on demand, the way
// io/torchscript_plugin.h loads the TorchScript importer: programs that never optimize never
// load LibTorch.
#pragma once
#include <atomic>
#include <cstdint>
#include <initializer_list>

#include "costmodel/cost_dataset.h"
#include "costmodel/kernel_run.h"
#include "costmodel/learned_cost.h"
#include "optimize/optimize.h"
#include "optimize/parallel_dqn.h"

namespace gp {

// The symbol the plugin exports: optimizePlan's signature with the result as an out
// parameter (so the extern "C" function returns nothing C-incompatible). Exceptions (gp::Error)
// propagate through it.
using RlOptimizeFn = void (*)(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                              const std::atomic<bool>* cancel, OptimizeResult& out);
inline constexpr const char* kRlOptimizeSymbol = "gp_rl_optimize";
using RlPretrainFn = void (*)(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                              const PretrainFn& onReport, const std::atomic<bool>* cancel, PretrainResult& out);
inline constexpr const char* kRlPretrainSymbol = "gp_rl_pretrain";
using RlParallelDqnFn = void (*)(const StageCostModel& model, int64_t globalBatch, const DqnOptions& options,
                                 const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel, ParallelResult& out);
inline constexpr const char* kRlParallelDqnSymbol = "gp_rl_parallel_dqn";
using RlParallelPretrainFn = void (*)(const std::vector<std::unique_ptr<ParallelTask>>& tasks, const DqnPretrainOptions& options,
                                      const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel, DqnPretrainResult& out);
inline constexpr const char* kRlParallelPretrainSymbol = "gp_rl_parallel_pretrain";
// The learned cost model: this CPU as a measurement source, training, prediction.
using RlCpuInfoFn = void (*)(std::string& deviceKind, std::vector<int32_t>& threadChoices);
inline constexpr const char* kRlCpuInfoSymbol = "gp_rl_cpu_info";
using RlCpuTimeFn = void (*)(const std::vector<KernelRun>& runs, int repeats, const std::atomic<bool>* cancel,
                             std::vector<RunTiming>& out);
inline constexpr const char* kRlCpuTimeSymbol = "gp_rl_cpu_time";
using RlCostTrainFn = void (*)(const CostDataset& train, const CostTrainOptions& options, const std::string& outPath,
                               const CostTrainFn& onEpoch, const std::atomic<bool>* cancel, CostTrainResult& out);
inline constexpr const char* kRlCostTrainSymbol = "gp_rl_cost_train";
using RlCostPredictFn = void (*)(const std::string& modelPath, const CostDataset& data, std::vector<std::vector<double>>& out);
inline constexpr const char* kRlCostPredictSymbol = "gp_rl_cost_predict";
using RlCostInfoFn = void (*)(const std::string& modelPath, CostTask& task, std::string& deviceKind);
inline constexpr const char* kRlCostInfoSymbol = "gp_rl_cost_info";
inline constexpr const char* kRlPluginFile = "libgp_rl.so";
// The plugin holds three learned products, each with its entries above and an ABI of the types
// it passes: the placement policy (optimize, pretrain), the parallel-plan DQN, and the learned
// cost model with this CPU as its measurement source. A product built from other headers must
// not be called: both sides compute its ABI from the headers they were built with, and the
// loader refuses a mismatch when the product is first used.
inline constexpr uint64_t pluginAbi(uint64_t version, std::initializer_list<uint64_t> sizes) {
  uint64_t h = version << 56;
  int shift = 0;
  for (uint64_t s : sizes) {
    h ^= s << shift;
    shift = (shift + 9) % 48;
  }
  return h;
}
inline constexpr const char* kPlacementAbiSymbol = "gp_rl_placement_abi";
inline constexpr uint64_t placementPluginAbi() {
  return pluginAbi(1, {sizeof(OptimizeOptions), sizeof(OptimizeResult), sizeof(IterationReport), sizeof(Measurement),
                       sizeof(CostModel), sizeof(DeviceSpec), sizeof(PretrainOptions), sizeof(PretrainTask),
                       sizeof(PretrainReport)});
}
inline constexpr const char* kParallelDqnAbiSymbol = "gp_rl_parallel_dqn_abi";
inline constexpr uint64_t parallelDqnPluginAbi() {
  return pluginAbi(1, {sizeof(DqnOptions), sizeof(ParallelResult), sizeof(StageCostModel), sizeof(ParallelTask),
                       sizeof(DqnEpisodeReport), sizeof(DqnPretrainOptions), sizeof(DqnPretrainResult)});
}
inline constexpr const char* kCostModelAbiSymbol = "gp_rl_cost_model_abi";
inline constexpr uint64_t costModelPluginAbi() {
  return pluginAbi(1, {sizeof(KernelSpec), sizeof(KernelRun), sizeof(RunTiming), sizeof(CostTrainOptions),
                       sizeof(CostDataset), sizeof(CostGraph), sizeof(CostTrainResult)});
}
using RlAbiFn = uint64_t (*)();

// The optimizer entry of the plugin, loading it on first use. Looks in $GP_RL_PLUGIN (when set,
// only there: a missing file is an error), the build tree, next to the executable and in
// <exe>/../lib/graphplace. Throws gp::Error("optimize", ...) when it cannot be found or loaded.
RlOptimizeFn rlOptimizeEntry();
RlPretrainFn rlPretrainEntry();
RlParallelDqnFn rlParallelDqnEntry();
RlParallelPretrainFn rlParallelPretrainEntry();
RlCpuInfoFn rlCpuInfoEntry();
RlCpuTimeFn rlCpuTimeEntry();
RlCostTrainFn rlCostTrainEntry();
RlCostPredictFn rlCostPredictEntry();
RlCostInfoFn rlCostInfoEntry();

}  // namespace gp
