// Auto-MAP's DQN over parallel plans (torch-free interface; the network and its training live
// in the LibTorch plugin libgp_rl.so, core/rl/parallel_dqn).
//
// An episode makes the decisions of parallel/plan_decisions.h one by one (tensor-parallel
// degree, stages, micro-batch size, schedule, ZeRO stage, expert parallelism) with
// epsilon-greedy actions from a
// Q-network over the pruned actions; the plan's stage boundaries come from the exact dynamic
// programme; the reward is the plan's simulated model FLOPs utilisation. Q-learning with a
// replay buffer and a target network; every finished shape is simulated once (a cache), and
// the best plan seen is the answer.
//
//   DqnOptions o; o.budgetSeconds = 20;
//   ParallelResult r = parallelizeDqn(task.model, task.globalBatch, o, onEpisode, &cancel);
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parallel/parallel_search.h"
#include "parallel/parallel_task.h"

namespace gp {

struct DqnOptions {
  double budgetSeconds = 20;  // wall time of the search (the first episode always runs)
  int maxEpisodes = 0;        // > 0: stop after this many episodes too
  uint64_t seed = 1;
  std::string policy;         // a pre-trained Q-network file; "" = the shipped one when present
  bool fromScratch = false;   // ignore any pre-trained network
  // Exploration, decayed over the episodes; both 1 = uniformly random actions over the pruned
  // space (method "random": the same search without learning).
  double epsilonStart = 0.3, epsilonEnd = 0.02;
  int patience = 0;           // > 0: stop when the best plan has not improved for this many episodes
  FixedKnobs fixed;  // attention and FP8 as the plans searched run them
};

struct DqnEpisodeReport {
  int episode = 0;
  double reward = 0;      // this episode's plan's MFU (0 when it does not fit)
  double bestReward = 0;  // the best so far
  int64_t simulated = 0;  // distinct plans simulated so far
  double epsilon = 0;
  double seconds = 0;
  double loss = 0;        // mean TD loss of the episode's updates
};
using DqnEpisodeFn = std::function<void(const DqnEpisodeReport&)>;

// Fine-tunes (or trains from scratch) on the model and returns the best plan found, method
// "dqn". Throws gp::Error when the plugin or a policy file cannot be loaded.
ParallelResult parallelizeDqn(const StageCostModel& model, int64_t globalBatch, const DqnOptions& options,
                              const DqnEpisodeFn& onEpisode = {}, const std::atomic<bool>* cancel = nullptr);

struct DqnPretrainOptions {
  std::string out;            // the Q-network file to write (required)
  double budgetSeconds = 120;
  int maxEpisodes = 0;
  uint64_t seed = 1;
};
struct DqnPretrainResult {
  int episodes = 0;
  double meanReward = 0;  // over the last 10 % of episodes
  std::string out;
};
// One Q-network over many (model, cluster, batch) tasks, episodes drawn round-robin.
DqnPretrainResult pretrainParallelDqn(const std::vector<std::unique_ptr<ParallelTask>>& tasks, const DqnPretrainOptions& options,
                                      const DqnEpisodeFn& onEpisode = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace gp
