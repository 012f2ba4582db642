// Pre-training one GDP policy over many graphs and clusters: one network and one Adam optimizer
// shared by a PpoTrainer per (graph, cluster) training task; every round runs one step on each
// task in turn (graphs of very different sizes each take their own pass, so no padding). Each
// task keeps its own best plan, starting from its start plan (the best baseline's, as optimize
// starts). A step, by options.method:
//   expert (expert iteration): the search (samples and policy-guided local search, no PPO update)
//     improves the task's best plan; the policy's own greedy plan from the start is a candidate
//     too; then the policy learns to produce the best plan from the start alone
//     (PpoTrainer::imitate) — what zero-shot use asks of it;
//   ppo: a PPO iteration on the search's samples (perturbations of the best plan).
// Held-out tasks are never trained on: every evalEvery rounds (and at round 0 and the end) each is
// placed zero-shot by a fresh trainer, as optimize --iterations 0 does, giving a point of the
// learning curve. The policy file is written every 5 rounds and at the end (options.out), with a
// session file when options.checkpoint is set; options.resume continues a session (its rounds,
// time, curve and each task's best plan). The policy starts from options.from, or new from
// options.seed. Deterministic for a seed (same thread count, no time budget).
// Distributed (options.distributed): the ranks share the tasks and average every update's
// gradients (rl/training_ranks.h, rl/gradient_sync.h); under expert iteration a rank searches
// all its tasks of the round before the ranks learn slot by slot. Deterministic for a seed, a
// world size and a thread count.
#pragma once
#include "optimize/optimize.h"

namespace gp::rl {

PretrainResult runPretrain(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                           const PretrainFn& onReport, const std::atomic<bool>* cancel);

void setTorchThreads(int threads);  // 0: the machine's cores (rl/run_optimizer.cpp)

}  // namespace gp::rl
