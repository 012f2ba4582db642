// Entry points of the RL optimizer plugin (libgp_rl.so). core/optimize/rl_plugin.cpp dlopen()s it
// the first time optimizePlan or pretrainPolicy runs, so programs that never optimize never
// load LibTorch.
#include "optimize/rl_plugin.h"
#include "rl/cost_training.h"
#include "rl/cpu_measure.h"
#include "rl/parallel_dqn.h"
#include "rl/ppo.h"
#include "rl/pretrain.h"

extern "C" void gp_rl_optimize(const gp::CostModel& cost, const gp::OptimizeOptions& options,
                               const gp::IterationFn& onIteration, const std::atomic<bool>* cancel,
                               gp::OptimizeResult& out) {
  out = gp::rl::runOptimizer(cost, options, onIteration, cancel);
}

extern "C" void gp_rl_pretrain(const std::vector<gp::PretrainTask>& tasks, const gp::PretrainOptions& options,
                               const gp::PretrainFn& onReport, const std::atomic<bool>* cancel,
                               gp::PretrainResult& out) {
  out = gp::rl::runPretrain(tasks, options, onReport, cancel);
}

extern "C" void gp_rl_parallel_dqn(const gp::StageCostModel& model, int64_t globalBatch, const gp::DqnOptions& options,
                                   const gp::DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel,
                                   gp::ParallelResult& out) {
  out = gp::rl::runParallelDqn(model, globalBatch, options, onEpisode, cancel);
}

extern "C" void gp_rl_parallel_pretrain(const std::vector<std::unique_ptr<gp::ParallelTask>>& tasks,
                                        const gp::DqnPretrainOptions& options, const gp::DqnEpisodeFn& onEpisode,
                                        const std::atomic<bool>* cancel, gp::DqnPretrainResult& out) {
  out = gp::rl::runParallelPretrain(tasks, options, onEpisode, cancel);
}

extern "C" void gp_rl_cpu_info(std::string& deviceKind, std::vector<int32_t>& threadChoices) {
  const gp::rl::CpuMeasurementSource source;
  deviceKind = source.deviceKind();
  threadChoices = source.threadChoices();
}

extern "C" void gp_rl_cpu_time(const std::vector<gp::KernelRun>& runs, int repeats, const std::atomic<bool>* cancel,
                               std::vector<gp::RunTiming>& out) {
  gp::rl::CpuMeasurementSource source(cancel);
  out = source.time(runs, repeats);
}

extern "C" void gp_rl_cost_train(const gp::CostDataset& train, const gp::CostTrainOptions& options,
                                 const std::string& outPath, const gp::CostTrainFn& onEpoch,
                                 const std::atomic<bool>* cancel, gp::CostTrainResult& out) {
  const gp::rl::LearnedCostModel m = gp::rl::trainCostModel(train, options, onEpoch, cancel, out);
  gp::rl::saveLearnedCostModel(m, outPath);
}

extern "C" void gp_rl_cost_predict(const std::string& modelPath, const gp::CostDataset& data,
                                   std::vector<std::vector<double>>& out) {
  out = gp::rl::predictCosts(gp::rl::loadLearnedCostModel(modelPath), data);
}

extern "C" void gp_rl_cost_info(const std::string& modelPath, gp::CostTask& task, std::string& deviceKind) {
  const gp::rl::LearnedCostModel m = gp::rl::loadLearnedCostModel(modelPath);
  task = m.task;
  deviceKind = m.deviceKind;
}

extern "C" uint64_t gp_rl_placement_abi() { return gp::placementPluginAbi(); }
extern "C" uint64_t gp_rl_parallel_dqn_abi() { return gp::parallelDqnPluginAbi(); }
extern "C" uint64_t gp_rl_cost_model_abi() { return gp::costModelPluginAbi(); }
