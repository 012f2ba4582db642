// One decision pass of the multi-task GDP policy: the forward pass, then per task in
// order placement -> scheduling -> fusion, the log-probabilities and the actions, each task's
// logits conditioned on the actions of the tasks before it (action residuals, gdp_policy.h).
//
// A DecideJob owns everything it reads (handles and tensors by value), so it can run on a helper
// thread that is abandoned on cancel (rl/cancellable.h). Actions are sampled (K per task, with
// `generator`), taken as the argmax (`greedy`, K = 1), or given (re-evaluating the log-probs of
// actions taken earlier, as PPO's later epochs do). A task that is not optimized uses the
// incumbent's values for all K. The incumbent bonuses (`bonus`) are added to the logits.
// The scheduling and fusion heads read the incumbent's decisions as the reference (computed once,
// again only where a sample differs: GdpPolicy::scheduleLogits). Graph Segment Training: a pass
// may record its states (`record`), and a later pass with `table` and `sample` recomputes only
// the sampled segments (GdpPolicy::forwardSegments).
#pragma once
#include <torch/torch.h>

#include <array>
#include <memory>
#include <optional>

#include "rl/gdp_policy.h"
#include "rl/policy_tensors.h"

namespace gp::rl {

// The decision tasks, in decision order (each task's logits read the actions of those before it).
enum class Task { Placement, Schedule, Fusion };
inline constexpr std::array<Task, 3> kTasks = {Task::Placement, Task::Schedule, Task::Fusion};

// One tensor per task, indexed by Task.
struct PerTask {
  std::array<torch::Tensor, kTasks.size()> tensors;
  torch::Tensor& operator[](Task t) { return tensors[static_cast<size_t>(t)]; }
  const torch::Tensor& operator[](Task t) const { return tensors[static_cast<size_t>(t)]; }
};

// A task's log-probs of one sample: placement [U, D] as it is, a level task's [K, N, L] -> [N, L].
torch::Tensor firstSample(Task t, const torch::Tensor& logp);
// A task's decisions ([U] or [N]) as the actions of one sample: [U, 1] or [1, N].
torch::Tensor asOneSample(Task t, const torch::Tensor& decisions);

struct Decided {
  PolicyOutput out;
  // placement [U, D]; schedule [K, N, Ls]; fusion [K, N, Lf] (only the optimized tasks')
  PerTask logp;
  PerTask act;  // placement [U, K]; schedule, fusion [K, N] int64
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
  PerTask bonus;  // [U, D], [N, Ls], [N, Lf]
  PerTask best;   // incumbent: [U], [N], [N] int64
  PerTask given;  // optional actions: [U, K], [K, N], [K, N]
  int64_t samples = 1;
  bool greedy = false;
  std::optional<at::Generator> generator;  // required when sampling

  Decided operator()();

 private:
  // A level task's logits [K, N, L] given the sampled devices (and, for fusion, levels) in `d`.
  torch::Tensor levelLogits(Task t, const Decided& d, const torch::Tensor& opDevice,
                            const torch::Tensor& refDevice);
};

// The incumbent bonus: one-hot(best, levels) * log((levels - 1) * (count - moves) / moves),
// moves = min(priorMoves, count / 2); zeros when priorMoves <= 0.
torch::Tensor incumbentBonus(const torch::Tensor& best, int64_t levels, double count, double priorMoves);

}  // namespace gp::rl
