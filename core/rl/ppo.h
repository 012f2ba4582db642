// PPO training of the GDP policy against the simulator (placement, and the joint
// placement / scheduling / fusion tasks).
//
//   PpoTrainer t(cost, options, [](int64_t dim) { return makePolicy(dim, 1); });
//   OptimizeResult r = t.run(onIteration, &cancel);
//
// One iteration: one decision pass of the policy on the graph (rl/task_sampler.h; features built
// once, with the incumbent's devices as the "current device" feature): samplesPerIteration
// candidates, each a device per unit (Categorical(softmax(unit logits)) with a seeded generator)
// and, for the schedule and fusion tasks (options.tasks), a level per op drawn from heads that
// read the sampled devices (action residuals); PlanBuilder (rl/decisions.h) turns decisions into
// a Plan (tasks left out keep their defaults); each simulated (one Simulator reused, no
// timeline); reward = planReward against the unfused lower bound. The sampling logits of
// every task are the policy's plus a fixed bonus on the incumbent's decision (see
// PpoConfig::priorMoves). begin() picks the start among options.startCandidates (each with its
// own order), the schedule's base order (critical-path ranks, the start's priorities or the
// topological order, whichever simulates best) and the first fusion levels (1 on every op that
// may fuse, or none).
// Without a start plan, "every unit on device 0" is the first incumbent.
// After the samples, LocalSearch tries localMoves group moves of the incumbent drawn from the
// sampling distribution, then LevelSearch localMoves / 2 moves on each level task; on big graphs
// samples and moves are simulated in batches on options.threads threads
// (Incumbent::considerAll). Baseline:
// the mean reward of the *other* samples of the batch (leave-one-out; with one sample per
// iteration the value head's estimate instead); the value head is trained on the batch's mean
// reward either way, so a pre-trained policy carries an estimate. Advantages are normalised by
// the batch's standard deviation; a sample's advantage applies to all its decisions. Loss: per
// task, the PPO clipped surrogate averaged over its decisions (clip 0.2), summed over the
// tasks, over `epochs` passes (the first reuses the sampling forward pass), minus a
// decaying entropy bonus, plus the value loss; Adam, gradient norm clipped. The greedy
// (argmax) plan is simulated every `greedyEvery` iterations; the best feasible plan ever seen
// (the start plan included) is kept; an infeasible plan is never the best while a feasible one
// exists. Stops after options.iterations, options.budgetSeconds, on convergence (no 0.1% gain
// in options.patience iterations) or on cancel (polled between samples, simulations and
// passes; passes themselves are abandoned, rl/cancellable.h). Every run first places
// zero-shot (zeroShot: the policy's greedy plan for the start and its most confident changes,
// no update, no search); the best so far is then reported as iteration 0
// (IterationReport::zeroShot; not on a resumed session); iterations == 0 stops there.
// options.update == false skips the PPO update (the policy guides sampling and search as it
// is). On graphs above PpoConfig::gstOps ops the update uses Graph Segment Training: the
// sampling pass records the history table without autograd, and each epoch re-evaluates the
// taken actions with a pass that recomputes a random sample of segments only.
// Deterministic for a seed (same thread count).
//
// Policy and session files: rl/policy_file.h. Pre-training (one network, many trainers):
// rl/pretrain.h.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "optimize/optimize.h"
#include "rl/decisions.h"
#include "rl/gdp_policy.h"
#include "rl/gradient_sync.h"
#include "rl/policy_file.h"
#include "rl/training_ranks.h"

namespace gp {
class MoveRanker;  // sim/move_ranker.h
}  // namespace gp

namespace gp::rl {

struct PpoConfig {
  double clip = 0.2;
  // optimisation passes per iteration: 1 (the sampling pass's graph) beat 2 within a 60 s budget
  // on nmt, amoebanet, bert_base and inception_v3 (more iterations of search fit; performance.md)
  int epochs = 1;
  double learningRate = 1e-3;
  double entropyStart = 0.01;  // entropy bonus, decays linearly to entropyEnd over the run
  double entropyEnd = 0.001;
  double valueCoef = 0.5;
  double maxGradNorm = 1.0;
  int greedyEvery = 5;         // simulate the argmax plan every this many iterations (and the first)
  // Prior toward the incumbent (the best plan so far, the start plan at first): a fixed bonus on
  // each unit's incumbent-device logit, sized so that a sample from a uniform policy moves about
  // this many units; samples are local perturbations of a strong plan. 0: no prior.
  double priorMoves = 4;
  int localMoves = 128;        // policy-guided local-search moves per iteration (local_search.h)
  // Imitation (expert iteration): the loss weighs the units the best plan moves from the start as
  // much as all the others together (balanced), or each unit alike (false).
  bool balancedImitation = true;
  // Graph Segment Training (rl/segment_training.h) on graphs of more than gstOps ops: the sampling
  // pass runs without autograd and records the table; the update back-propagates through about
  // gstOps ops, in segments of gstSegment ops, the rest from the table; an unsampled segment
  // stays in the pooled means with probability gstKeep (stale-embedding dropout). 0: never.
  int64_t gstOps = 16384;
  int64_t gstSegment = 2048;
  double gstKeep = 0.5;
};

class PpoTrainer {
 public:
  // Builds the graph's features, then asks `policyFor` for a policy taking that many feature
  // columns (it may throw gp::Error). `cost` must outlive the trainer.
  using PolicyFactory = std::function<GdpPolicy(int64_t featureDim)>;
  PpoTrainer(const CostModel& cost, const OptimizeOptions& options, const PolicyFactory& policyFor,
             PpoConfig config = {});
  // Trains `policy` with `optimizer` (built over its parameters when null): pre-training runs
  // one trainer per graph and cluster on one shared network and optimizer.
  PpoTrainer(const CostModel& cost, const OptimizeOptions& options, GdpPolicy policy,
             std::shared_ptr<torch::optim::Adam> optimizer, PpoConfig config = {});
  ~PpoTrainer();
  PpoTrainer(const PpoTrainer&) = delete;
  PpoTrainer& operator=(const PpoTrainer&) = delete;

  // The whole run: begin(), iterate() until the search's share of the budget, its iterations,
  // convergence or cancel, checkpoints as options ask, then the best plan polished
  // (OptimizeOptions::polishShare).
  OptimizeResult run(const IterationFn& onIteration, const std::atomic<bool>* cancel = nullptr);

  // Step-wise use. `stop` is polled between simulations and passes; `cancel` (may be null)
  // also abandons forward and backward passes.
  using StopFn = std::function<bool()>;
  // The start plan (or every unit on device 0) becomes the first incumbent. Once `stop` says so,
  // the other starts, base orders and fusion levels are not tried.
  void begin(const StopFn& stop = {});
  // One PPO iteration numbered `iteration`; `progress` in [0, 1] sets the entropy bonus.
  // Returns false when stopped before the update.
  bool iterate(int iteration, double progress, IterationReport& report, const StopFn& stop,
               const std::atomic<bool>* cancel);
  // The policy's own plans for the start, no update, no search: its greedy plan and, as up to
  // samplesPerIteration samples, the first 1, 2, 4, ... of the greedy plan's changes to the start,
  // most confident first (rl/zero_shot.cpp).
  void zeroShot(const StopFn& stop, const std::atomic<bool>* cancel);

  // Expert iteration (rl/imitation.cpp; pre-training): the policy's own plan for the start — its
  // greedy decisions on the zero-shot input (features with the start's devices, no incumbent
  // bonus) — is simulated as a candidate; then one update raises the log-probability, on that
  // input, of the best decisions found so far (the search's, or the policy's own): cross-entropy
  // per task, the decisions the best plan keeps from the start and those it changes weighted
  // half each, so that the few changes are learnt rather than drowned by the many kept ones.
  struct Imitation {
    bool done = false;        // false: stopped before the update
    double loss = 0;          // summed over the tasks
    double ownStepTime = 0;   // seconds, the policy's own plan (infinity when infeasible)
    double changed = 0;       // fraction of units the best plan moves off the start's devices
    double agreement = 0;     // fraction of units where the policy's own plan matches the best
  };
  Imitation imitate(const StopFn& stop, const std::atomic<bool>* cancel);
  // imitate's update alone, toward the best decisions so far (a replay pass: no simulation).
  // Returns the loss, or NaN when stopped (or nothing feasible is known yet).
  double fitBest(const StopFn& stop, const std::atomic<bool>* cancel);
  // The policy's own plan alone: its greedy decisions on the zero-shot input, simulated as a
  // candidate. Returns the step time (infinity when infeasible; NaN when stopped).
  double ownPlan(const StopFn& stop, const std::atomic<bool>* cancel);
  // The best decisions so far, and handing such decisions back after begin() (a resumed
  // pre-training session): simulated, kept when better; the zero-shot input stays the start's.
  // Decisions of another shape are ignored.
  Decisions bestDecisions() const;
  void adopt(const Decisions& d);
  // The best plan with its measurement and timeline (every unit on device 0 if none was seen).
  Plan bestPlan() const;
  double bestStepTime() const;  // seconds; infinity before a feasible plan
  double startStepTime() const;  // of the first incumbent; infinity when infeasible

  GdpPolicy policy() const;
  torch::optim::Adam& optimizer();
  // Every later update goes through `sync` (data-parallel training across ranks, pre-training).
  void shareUpdates(std::shared_ptr<GradientSync> sync);
  // run() as one rank of `ranks` (OptimizeOptions::distributed): rank 0's weights now, the
  // updates averaged, the best plan agreed after the zero-shot pass and every iteration.
  void joinRanks(std::shared_ptr<TrainingRanks> ranks);
  // A session checkpoint of this trainer (policy, optimizer state, best plan, iterations done,
  // best step time history) at `path` (written atomically).
  void saveSession(const std::string& path, int iterationsDone, const std::vector<double>& history) const;

 private:
  void setUpTasks();  // after the policy is known: heads, level searches, the first decisions
  // run()'s last phase: the best plan polished (sim/polish.h) with the tasks' kinds of move until
  // the whole budget is spent; each round that kept a move is reported as an iteration.
  // `ranker` (from `rankerFile`; null: the path kernel's time) orders each round's candidates.
  void polish(int iterationsDone, const std::function<double()>& elapsed, std::vector<double>& history,
              OptimizeResult& result, const IterationFn& onIteration, const std::atomic<bool>* cancel,
              const MoveRanker* ranker, const std::string& rankerFile);
  static constexpr int kPolishKeep = 48;  // OptimizeOptions::polishKeep's default
  struct State;
  std::unique_ptr<State> s_;
};

// A new policy for graphs whose features have `featureDim` columns, initialised from `seed`.
GdpPolicy makePolicy(int64_t featureDim, uint64_t seed, PolicyConfig config = {});

// The plugin's optimizer: resolves options.policy (the shipped default, scratch, ColocRL or a
// checkpoint file) and options.resume, sets LibTorch's thread count, trains, and saves
// options.saveCheckpoint (rl/run_optimizer.cpp).
OptimizeResult runOptimizer(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                            const std::atomic<bool>* cancel);

}  // namespace gp::rl
