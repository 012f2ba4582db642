// One decision pass of the multi-task GDP policy: the forward pass, then per task in
// order placement -> scheduling -> fusion, the log-probabilities and the actions, each task's
// logits conditioned on the actions of the tasks before it (action residuals, gdp_policy.h).
//
// A DecideJob owns everything it reads (handles and tensors by value), so it can run on a helper
// thread that is abandoned on cancel (rl/cancellable.h). Actions are sampled (K per task, with
// `generator`), taken as the argmax (`greedy`, K = 1), or given (re-evaluating the log-probs of
// actions taken earlier, as PPO's later epochs do). A task that is not optimized uses the
// incumbent's values for all K. The incumbent bonuses (`bonus*`) are added to the logits.
// The scheduling and fusion heads read the incumbent's decisions as the reference (computed once,
// again only where a sample differs: GdpPolicy::scheduleLogits). Graph Segment Training: a pass
// may record its states (`record`), and a later pass with `table` and `sample` recomputes only
// the sampled segments (GdpPolicy::forwardSegments).
#pragma once
#include <torch/torch.h>

#include <memory>
#include <optional>

#include "rl/gdp_policy.h"
#include "rl/policy_tensors.h"

namespace gp::rl {

struct Decided {
  PolicyOutput out;
  torch::Tensor logpU;  // [U, D] when placement is a task
  torch::Tensor logpS;  // [K, N, Ls] when schedule is a task
  torch::Tensor logpF;  // [K, N, Lf] when fusion is a task
  torch::Tensor actU;   // [U, K] int64
  torch::Tensor actS;   // [K, N] int64
  torch::Tensor actF;   // [K, N] int64
};

struct DecideJob {
  GdpPolicy policy{nullptr};
  PolicyInput input;
  int64_t numDevices = 1;
  bool placement = true;
  PolicyHeads heads;            // schedule / fusion tasks
  std::optional<PolicyOutput> out;  // reuse this forward pass instead of running one
  std::shared_ptr<HistoryTable> record;       // the full pass stores its states here
  std::shared_ptr<const HistoryTable> table;  // set: a GST pass over `sample` on this table
  SegmentSample sample;
  torch::Tensor bonusU, bonusS, bonusF;  // [U, D], [N, Ls], [N, Lf]
  torch::Tensor bestU, bestS, bestF;     // incumbent: [U], [N], [N] int64
  torch::Tensor givenU, givenS, givenF;  // optional actions: [U, K], [K, N], [K, N]
  int64_t samples = 1;
  bool greedy = false;
  std::optional<at::Generator> generator;  // required when sampling

  Decided operator()();
};

// The incumbent bonus: one-hot(best, levels) * log((levels - 1) * (count - moves) / moves),
// moves = min(priorMoves, count / 2); zeros when priorMoves <= 0.
torch::Tensor incumbentBonus(const torch::Tensor& best, int64_t levels, double count, double priorMoves);

}  // namespace gp::rl
