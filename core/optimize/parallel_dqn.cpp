#include "optimize/parallel_dqn.h"

#include "optimize/rl_plugin.h"

namespace gp {

ParallelResult parallelizeDqn(const StageCostModel& model, int64_t globalBatch, const DqnOptions& options,
                              const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel) {
  RlParallelDqnFn fn = rlParallelDqnEntry();
  ParallelResult result;
  fn(model, globalBatch, options, onEpisode, cancel, result);
  return result;
}

DqnPretrainResult pretrainParallelDqn(const std::vector<std::unique_ptr<ParallelTask>>& tasks, const DqnPretrainOptions& options,
                                      const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel) {
  RlParallelPretrainFn fn = rlParallelPretrainEntry();
  DqnPretrainResult result;
  fn(tasks, options, onEpisode, cancel, result);
  return result;
}

}  // namespace gp
