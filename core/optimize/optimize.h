// The RL optimizer of a plan (placement, schedule and fusion), as the CLI and the app call it
// (torch-free interface).
//
//   OptimizeOptions o; o.iterations = 100; o.seed = 7;
//   OptimizeResult r = optimizePlan(cost, o, [](const IterationReport& it) { ... }, &cancel);
//
// The implementation (core/rl: GDP policy + PPO, or ColocRL + REINFORCE) lives in the LibTorch
// plugin libgp_rl.so, loaded on first use (core/optimize/rl_plugin.cpp), so programs that never
// optimize never load LibTorch. Tests link it directly (gprl).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "optimize/dist_env.h"
#include "optimize/optimize_choices.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

// The decisions the optimizer makes (GO's tasks). A task left out keeps its default:
// placement -> the start plan's devices (every op on device 0 without one); schedule -> the start
// plan's priorities (FIFO without them); fusion -> OptimizeOptions::fuse.
struct OptimizeTasks {
  bool placement = true;
  bool schedule = true;   // a priority per op (the simulator's ready queues)
  bool fusion = false;    // a fusion priority per op, turned into groups by fuseByPriority
  bool operator==(const OptimizeTasks&) const = default;
  bool any() const { return placement || schedule || fusion; }
};

// "placement,schedule,fusion" (any non-empty subset, any order) -> tasks; throws
// std::invalid_argument naming the bad word. toString gives the canonical spelling.
OptimizeTasks parseTasks(const std::string& text);
std::string toString(const OptimizeTasks& tasks);

struct OptimizeOptions {
  PolicyChoice policy;             // the search without learning unless told otherwise
  int iterations = 100;           // search iterations (each ends in a PPO update when the policy
                                  // learns); 0 = zero-shot (one greedy plan, no update)
  double budgetSeconds = 0;       // > 0: stop after this wall time too
  uint64_t seed = 1;
  int samplesPerIteration = 8;    // plans sampled per iteration
  std::optional<Plan> startPlan;  // refine this plan (its devices are features; it is a candidate)
  // More candidate starts (e.g. every baseline's plan; placement task only): each is simulated as
  // it is and with the tasks' first decisions on its devices; the devices that simulate best
  // that way become the first incumbent's (with fusion or a schedule in play, the best start is
  // not always the baseline that is best without them). The features keep startPlan's devices.
  std::vector<Plan> startCandidates;
  std::string saveCheckpoint;     // write the fine-tuned policy here at the end (optional)
  int threads = 0;                // LibTorch threads; 0 = the machine's cores
  int patience = 0;               // > 0: stop when the best step time has not improved by 0.1%
                                  // for this many iterations (converged)
  // Session checkpoint (policy + optimizer state + best plan + iterations done): written every
  // checkpointEvery iterations and at the end when `checkpoint` is set; `resume` continues such
  // a session (its policy replaces `policy`, its best plan `startPlan`; `iterations` more, with
  // PPO updates unless `update` is false).
  std::string checkpoint;
  int checkpointEvery = 10;
  std::string resume;
  // false: the policy is used as it is (sampling and local search run, no PPO update) — the
  // ablation that tells how much the learning adds to the search. PolicyKind::Search sets it.
  bool update = true;
  OptimizeTasks tasks;
  FuseMode fuse = FuseMode::None;  // fusion when it is not a task
  // A distributed run (optimize --distributed, docs/distributed.md): every rank searches the
  // same graph with its own samples (seed + rank) from rank 0's weights; each update averages
  // the ranks' gradients, and after the zero-shot pass and every iteration the ranks agree on the
  // best plan (the lowest step time; every rank continues from it). Rank 0 writes the files. An
  // interrupt or the budget stops every rank between iterations; a collective waits at most
  // distTimeoutSeconds for a peer.
  std::optional<DistEnv> distributed;
  double distTimeoutSeconds = 60;
  // Polishing (sim/polish.h, GDP policies): the best plan, after the search, improved by the
  // moves the suggestions make (an op's family or a scope to another device, the same move in
  // every repeat, two kernels fused, a waiting kernel run first; the tasks' kinds only), the
  // best move of each round first. The search stops once this share of budgetSeconds is left
  // (or after its iterations, without a budget); polishing ends with the budget, after
  // polishMoves moves, or when no move shortens the step. 0: no polishing.
  double polishShare = 0.2;
  int polishMoves = 50;
  // Each polishing round simulates its candidates best ranked first, polishKeep at a time until
  // one shortens the step (SuggestOptions::keep; 0: all in the order drawn; < 0: 48), ranked by
  // the move ranker `moveRanker` (a file from train-moves; "": the shipped one when there is one,
  // else the path kernel's time; "none": the path kernel's time).
  int polishKeep = -1;
  std::string moveRanker;
};

struct IterationReport {
  int iteration = 0;              // 1-based; 0 for the zero-shot report
  bool zeroShot = false;          // the policy's own plan before any update (reported first)
  double meanReward = 0, bestReward = 0;  // of this iteration's samples
  double bestStepTime = 0;        // seconds, best feasible so far (0 if none yet)
  double entropy = 0;             // mean per-unit policy entropy (nats)
  double elapsed = 0;             // seconds since start
  bool improved = false;          // a new best plan this iteration
  bool polish = false;            // a round of polishing (after the search), not a search iteration
  const Plan* best = nullptr;     // the best plan so far (valid during the callback only)
};

struct OptimizeResult {
  Plan best;
  Measurement measurement;        // of `best`, with the timeline
  int iterations = 0;             // search iterations
  int polishMoves = 0;            // moves that polishing kept
  std::string polishRanking;      // how polishing ranked its candidates: a ranker file, "path time" or "all"
  double seconds = 0;
  std::vector<double> bestStepTimeHistory;  // per iteration and polishing round, seconds (0 before a feasible plan)
  std::string note;               // e.g. "no pre-trained policy found: trained from scratch"
  bool cancelled = false;
  StopReason stopReason = StopReason::Iterations;  // why it stopped
  int firstIteration = 1;         // > 1 when resumed: number of the first iteration of this run
};

using IterationFn = std::function<void(const IterationReport&)>;

// Runs the optimizer on the calling thread; `cancel` is polled at least every 100 ms.
// Throws gp::Error for a bad policy file or when the plugin cannot be loaded.
OptimizeResult optimizePlan(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                            const std::atomic<bool>* cancel = nullptr);

// Pre-training one policy over many graphs and clusters (graphplace-cli pretrain): every round
// runs one step on each training task in turn, all tasks sharing the network and its optimizer,
// and every evalEvery rounds the held-out tasks are placed zero-shot (the learning curve).
struct PretrainTask {
  std::string name;               // e.g. "zoo:resnet50 on 4xP100-PCIe", for reports
  const CostModel* cost = nullptr;
  std::optional<Plan> startPlan;  // e.g. the best baseline's plan, as optimize starts by default
  bool heldOut = false;           // never trained on: evaluated zero-shot
};

struct PretrainOptions {
  std::string from;               // continue from this policy file (empty: a new policy)
  std::string out;                // the policy file to write (required); also every 5 rounds
  int rounds = 50;
  double budgetSeconds = 0;       // > 0: stop after this wall time too (of this run)
  uint64_t seed = 1;
  int samplesPerIteration = 8;
  int threads = 0;
  OptimizeTasks tasks{true, true, true};  // the heads trained (every one, so the policy serves any subset)
  FuseMode fuse = FuseMode::None;         // as OptimizeOptions::fuse, when fusion is not a task
  // Expert: expert iteration (each round the search improves each task's best plan, then the
  // policy learns to produce that plan from the start alone); Ppo: PPO on the search's samples.
  PretrainMethod method = PretrainMethod::Expert;
  // expert: passes over every task's best decisions per round (the first right after the task's
  // search, the others after all searches: a replay of the round's best plans, no simulation)
  int fitEpochs = 1;
  int evalEvery = 10;             // rounds between zero-shot evaluations of the held-out tasks
  bool keepPrior = false;         // a new policy starts from the current plan's devices (rl/gdp_policy.h)
  bool relativeDevices = false;   // a new policy reads devices only through features (rl/gdp_policy.h)
  bool balancedFit = true;        // expert: the imitation loss weighs moved units as much as kept ones (rl/ppo.h)
  // A pre-training session (policy, optimizer state, rounds, time, learning curve and each task's
  // best decisions): written with the policy when set; `resume` continues one (same tasks).
  std::string checkpoint;
  std::string resume;
  // A distributed run (pretrain --distributed, docs/distributed.md): this process is one rank of
  // several, meeting the others at distributed->masterAddr. Each rank trains on its share of the
  // training tasks (and evaluates its share of the held-out ones); every update averages the
  // gradients over the ranks, so the weights stay identical; rank 0 writes the files. An
  // interrupt or the time budget stops every rank at the end of a round. A collective waits at
  // most distTimeoutSeconds for a peer: a rank that died or hangs fails the others with one line.
  std::optional<DistEnv> distributed;
  double distTimeoutSeconds = 60;
  // Polishing (sim/polish.h, GDP policies): the best plan, after the search, improved by the
  // moves the suggestions make (an op's family or a scope to another device, the same move in
  // every repeat, two kernels fused, a waiting kernel run first; the tasks' kinds only), the
  // best move of each round first. The search stops once this share of budgetSeconds is left
  // (or after its iterations, without a budget); polishing ends with the budget, after
  // polishMoves moves, or when no move shortens the step. 0: no polishing.
  double polishShare = 0.2;
  int polishMoves = 50;
  // Each polishing round simulates its candidates best ranked first, polishKeep at a time until
  // one shortens the step (SuggestOptions::keep; 0: all in the order drawn; < 0: 48), ranked by
  // the move ranker `moveRanker` (a file from train-moves; "": the shipped one when there is one,
  // else the path kernel's time; "none": the path kernel's time).
  int polishKeep = -1;
  std::string moveRanker;
};

struct PretrainReport {
  int round = 0, task = 0;        // 1-based round, 0-based task index
  bool evaluation = false;        // a zero-shot evaluation of a held-out task after `round`
  double meanReward = 0;          // of this iteration's samples (training)
  double startStepTime = 0;       // seconds: the task's start plan (or everything on device 0)
  double bestStepTime = 0;        // seconds: best feasible plan of this task so far (evaluation:
                                  // the zero-shot result, never worse than the start)
  double ownStepTime = 0;         // seconds: the policy's own greedy plan (infinity: infeasible)
  double loss = 0;                // the imitation loss (expert)
  double entropy = 0, elapsed = 0;
  int rank = 0;                   // the rank that ran it (distributed)
  // A distributed run reports on rank 0 only, every rank's reports at the end of each round,
  // then one rank-health report (rankHealth, task -1): per rank, the seconds of that round it
  // worked and the seconds it waited for the others (in collectives).
  bool rankHealth = false;
  std::vector<double> rankBusy, rankWaiting;
};

// One point of the learning curve: after `round` rounds and `seconds` of training (resumed
// sessions included), the held-out tasks' mean zero-shot gain over their start, and the mean gain
// of the policy's own greedy plans alone (no samples).
struct PretrainCurvePoint {
  int round = 0;
  double seconds = 0, zeroShotGain = 0, greedyGain = 0;
};

struct PretrainResult {
  int rounds = 0;                 // rounds done, resumed sessions included
  double seconds = 0;             // of this run
  bool cancelled = false;
  std::vector<double> startStepTime, bestStepTime;  // per task (held-out: the last zero-shot), seconds
  std::vector<PretrainCurvePoint> curve;
  int64_t samples = 0;            // training samples simulated in this run, every rank's
  int rank = 0, worldSize = 1;    // of a distributed run
};

using PretrainFn = std::function<void(const PretrainReport&)>;

// Runs on the calling thread; writes options.out. Throws gp::Error for a bad policy file, an
// unwritable output, or when the plugin cannot be loaded.
PretrainResult pretrainPolicy(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                              const PretrainFn& onReport, const std::atomic<bool>* cancel = nullptr);

// Reward of a measurement for the optimizer: -sqrt(step / lower bound); kInfeasibleReward when
// the plan does not fit. Shared by every policy so their rewards compare.
inline constexpr double kInfeasibleReward = -10.0;
double planReward(const Measurement& m);
// The same against a fixed bound (fusion lowers a plan's own bound, so a search over fusion
// groups scores every plan against the unfused bound: the reward then orders plans by step time).
double planReward(const Measurement& m, double lowerBound);

}  // namespace gp
