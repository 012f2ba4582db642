// Pre-training one GDP policy over many graphs and clusters, as GDP does:
// one network and one Adam optimizer shared by a PpoTrainer per (graph, cluster) task; every
// round runs one PPO iteration on each task in turn (graphs of very different sizes each take
// their own pass, so no padding: the batch is the round). Each task keeps its own incumbent
// (its start plan at first), so the policy learns to improve plans of the kind optimize gets.
// The entropy bonus decays over the rounds; the policy file is written every 5 rounds and at the
// end (options.out). The policy starts from options.from, or new from options.seed.
// Deterministic for a seed (same thread count, no time budget).
#pragma once
#include "optimize/optimize.h"

namespace gp::rl {

PretrainResult runPretrain(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                           const PretrainFn& onReport, const std::atomic<bool>* cancel);

void setTorchThreads(int threads);  // 0: the machine's cores (rl/run_optimizer.cpp)

}  // namespace gp::rl
