// How the ranks of a distributed training run share the work and stay in step: pre-training
// (rl/pretrain.h) and optimize (PpoTrainer::run). One process without a DistEnv is a world of
// one: no group, no collectives.
//
// Pre-training's work: a round has slots; in each slot every rank steps one training task (or
// none, when the tasks do not divide evenly), and every rank meets the same number of update
// points per slot (rl/gradient_sync.h), so the ranks' updates pair up. With several ranks the
// tasks are dealt by size (ops), largest first, each to the rank with the least work so far
// among those with a slot free, so that every rank's round adds up to about the same work; a
// rank steps its tasks largest first, so the tasks learnt side by side are about as big. One
// rank takes them in corpus order. Held-out task h is evaluated by rank h % world.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "optimize/optimize.h"
#include "rl/decisions.h"
#include "rl/gdp_policy.h"
#include "rl/gradient_sync.h"

namespace gp::rl {

class DistGroup;

class TrainingRanks {
 public:
  // Joins the group of `env` when set, each collective waiting at most timeoutSeconds (throws
  // gp::Error("distributed", ...) as DistGroup).
  TrainingRanks(const std::optional<DistEnv>& env, double timeoutSeconds);
  ~TrainingRanks();

  // LibTorch (and simulation) threads for a rank: `threads` when set, else this machine's cores
  // shared among its ranks (env->localWorldSize).
  static int threadsFor(const std::optional<DistEnv>& env, int threads);

  int rank() const { return rank_; }
  int world() const { return world_; }
  bool distributed() const { return group_ != nullptr; }

  // The training tasks this rank steps, slot by slot: indices into `train` (the training tasks'
  // indices into `tasks`), -1 for a slot without a task here.
  std::vector<int> slots(const std::vector<size_t>& train, const std::vector<PretrainTask>& tasks) const;
  bool evaluates(size_t heldOutIndex) const { return static_cast<int>(heldOutIndex % world_) == rank_; }

  // Every rank takes rank 0's weights and buffers.
  void shareWeights(GdpPolicy& policy);
  // The update of `policy` across the ranks.
  std::shared_ptr<GradientSync> sync(GdpPolicy& policy, double maxGradNorm);
  // Between rounds: whether every rank stops, because one was interrupted (then `cancelled` is
  // set) or one's budget is spent. Without a group, just this rank's own answer.
  bool stopTogether(bool interrupted, bool budgetSpent, bool& cancelled);
  // Element-wise sums over the ranks (each rank fills what it owns, zeros elsewhere).
  std::vector<double> sum(std::vector<double> values);
  // Every rank's `mine`, in rank order.
  std::vector<std::vector<double>> gather(const std::vector<double>& mine);
  // Seconds this rank has spent in collectives (0 in a world of one).
  double collectiveSeconds() const;
  // Every rank's training-task decisions (`mine`: index into the training tasks, decisions),
  // placed by index into `count` entries.
  std::vector<Decisions> gather(const std::vector<std::pair<int, Decisions>>& mine, size_t count);
  // Throws gp::Error("distributed", ...) unless every rank holds the same weights bit for bit.
  void checkSameWeights(GdpPolicy& policy, int round);
  // The rank holding the lowest step time (the lowest rank among equals), and its decisions.
  struct Best {
    int rank = 0;
    double step = 0;
    Decisions decisions;
  };
  Best best(double myStep, const Decisions& mine);

 private:
  std::unique_ptr<DistGroup> group_;
  int rank_ = 0, world_ = 1;
};

}  // namespace gp::rl
