// One optimized task's part of a PPO iteration (PpoTrainer, ppo.h): its share of the clipped
// surrogate and of the entropy, the log-probs of the actions a pass took, and its policy-guided
// local search on the incumbent. Internal to core/rl.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "rl/decisions.h"
#include "rl/level_search.h"
#include "rl/local_search.h"
#include "rl/task_sampler.h"

namespace gp::rl {

// Task t's decisions in `d` (units, schedule or fusion levels).
std::vector<int32_t>& taskDecisions(Task t, Decisions& d);
const std::vector<int32_t>& taskDecisions(Task t, const Decisions& d);

struct TaskState {
  Task task = Task::Placement;
  int64_t levels = 0;  // choices per decision: devices, schedule or fusion levels
  double count = 0;    // decisions whose choice matters (units, ops, fusible ops)
  torch::Tensor mask;  // fusion: [N] float, the ops whose level matters; undefined: every decision
  std::vector<uint8_t> eligible;          // the same as bytes for LevelSearch (empty: every op)
  std::unique_ptr<LocalSearch> units;     // placement
  std::unique_ptr<LevelSearch> levelSearch;  // schedule, fusion

  // The incumbent bonus toward `best` (DecideJob::best) sized for `moves` moved decisions.
  torch::Tensor bonus(const torch::Tensor& best, double moves) const;
  // The log-probs under `logp` of the actions `act` ([U, K] or [K, N]).
  torch::Tensor taken(const torch::Tensor& logp, const torch::Tensor& act) const;
  // The mean entropy of `logp` over the decisions that matter.
  torch::Tensor entropy(const torch::Tensor& logp) const;
  // The PPO clipped surrogate of the log-probs `now` against `old` ([U, K] or [K, N]) with the
  // samples' advantages `adv` [K], averaged over the decisions that matter.
  torch::Tensor surrogate(const torch::Tensor& now, const torch::Tensor& old, const torch::Tensor& adv,
                          double clip) const;
  // The local search's moves on `decisions` with the sampling log-probs `logp` of one sample.
  void search(std::vector<int32_t> decisions, const torch::Tensor& logp, int moves, double step,
              const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch);
};

}  // namespace gp::rl
