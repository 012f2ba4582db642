// A parallel plan as a short sequence of decisions, the environment Auto-MAP's DQN acts in:
// tensor-parallel degree, pipeline stages, micro-batch size, schedule, ZeRO stage, expert
// parallelism (a mixture of experts whose experts dp divides) — then the
// stage boundaries and recomputation by the exact dynamic programme (parallel_search.h).
//
// Each decision picks a slot of one action head: for degrees and the micro-batch size the slot
// of the value in kDecisionValues, for the schedule slots 0-1 (1F1B, GPipe), for ZeRO 0-3,
// for expert parallelism 0-1 (off, on).
// Task-specific pruning masks the slots that cannot lead to a valid plan that fits:
// - tp divides the devices, the heads, the key / value heads and the hidden size and stays inside a server;
// - pp divides the devices left, is at most the layers, and an average stage's parameter
//   state at ZeRO-3 over the data-parallel replicas fits a device (the heaviest holds more);
// - the micro-batch size divides the per-replica batch, and one micro-batch's layer inputs
//   (recomputation on) fit what the parameter state leaves;
// - GPipe only with pp > 1, ZeRO > 0 only with dp > 1, expert parallelism only for experts
//   that dp divides.
// The reward of a finished sequence is the plan's model FLOPs utilisation (0 when nothing fits).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "parallel/parallel_search.h"

namespace gp {

enum class DecisionStep : uint8_t { Tp, Pp, MicrobatchSize, Schedule, Zero, ExpertParallel, Done };
inline constexpr int kNumDecisionSteps = 6;
inline constexpr std::array<int, 18> kDecisionValues = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
inline constexpr int kNumActions = static_cast<int>(kDecisionValues.size());
inline constexpr int kNumDecisionFeatures = 34;

struct PartialPlan {
  DecisionStep step = DecisionStep::Tp;
  int tp = 0, pp = 0, dp = 0, mbs = 0, zero = 0;
  PipeSchedule schedule = PipeSchedule::OneFOneB;
  bool expertParallel = false;
};

// The environment for one (model, cluster, global batch).
class PlanDecisions {
 public:
  PlanDecisions(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed = {});

  // Valid slots at the partial plan's step (all false at Done).
  std::array<bool, kNumActions> mask(const PartialPlan& p) const;
  // Applies slot `a` (must be valid) and moves to the next step.
  PartialPlan apply(PartialPlan p, int a) const;
  // State features: the model, the cluster, the batch and the decisions so far.
  std::array<float, kNumDecisionFeatures> features(const PartialPlan& p) const;
  PlanShape shape(const PartialPlan& p) const;  // at Done

  const StageCostModel& model() const { return *model_; }
  int64_t globalBatch() const { return batch_; }
  int devices() const { return n_; }

 private:
  // The expert-parallel decision applies: a mixture of experts whose experts dp divides.
  bool expertChoice(const PartialPlan& p) const {
    const LayerStack& st = model_->stack();
    return st.experts > 0 && p.dp > 1 && st.experts % p.dp == 0;
  }
  const StageCostModel* model_;
  int64_t batch_;
  int n_, perServer_;
  FixedKnobs knobs_;
  int64_t capacity_;
  std::array<float, 20> fixed_{};  // features of the model, cluster and batch
};

// Partition + simulation of finished shapes, each simulated once.
class PlanEvaluator {
 public:
  explicit PlanEvaluator(const PlanDecisions& env) : env_(&env) {}
  struct Outcome {
    double reward = 0;  // MFU, 0 when no partition fits
    std::optional<ParallelPlan> plan;
    ParallelMeasurement measurement;
  };
  const Outcome& evaluate(const PlanShape& s);
  int64_t simulated() const { return simulated_; }
  size_t evaluatedShapes() const { return seen_.size(); }  // distinct shapes asked for
  // The best outcome so far (reward 0 and no plan if none fits): the best that fits with room
  // beyond the peak's error (memory_verdict.h), else the best at out-of-memory risk.
  const Outcome& best() const { return best_; }

 private:
  const PlanDecisions* env_;
  std::map<std::array<int, 7>, Outcome> seen_;
  Outcome best_;
  int64_t simulated_ = 0;
};

}  // namespace gp
