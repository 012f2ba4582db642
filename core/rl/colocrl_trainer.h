// ColocRL training (Mirhoseini et al. 2017): REINFORCE of the seq2seq policy of
// core/rl/colocrl_policy.h against the simulator — `graphplace-cli optimize --policy colocrl`.
//
//   OptimizeResult r = runColocRl(cost, options, onIteration, &cancel);
//
// Setup: the graph's features and co-location chunks (at most maxGroups, see
// colocrl_policy.h); torch::manual_seed(options.seed), then the network; Adam. One iteration:
// one sequential decode of options.samplesPerIteration device sequences (sampled with an
// at::Generator seeded from options.seed), each turned into a plan (every unit gets its chunk's
// device) and simulated (one Simulator reused, no timeline); reward = planReward
// (-sqrt(step / lower bound): the paper's -sqrt(run time), normalised; kInfeasibleReward for a
// plan that does not fit, the paper's "large fixed run time" for OOM). Baseline: an exponential
// moving average of the batch mean reward (decay baselineDecay, started at the first batch's
// mean); advantage = (reward - baseline) / the moving standard deviation of the rewards (same
// decay; our addition, so that one learning rate suits graphs whose rewards spread by 0.001 or
// by 5). Loss: -mean_k(advantage_k * mean over chunks of log pi) - entropyCoef * mean entropy;
// Adam, gradient norm clipped. The greedy (argmax) plan is simulated on the first iteration and
// every greedyEvery iterations. Candidate plans carry no priorities (FIFO ready queues, as the
// paper's TensorFlow runtime) unless `priorities` is set (GraphFeatures::priority, as GDP).
//
// The best feasible plan ever simulated is the result (an infeasible one only while nothing fits).
// options.startPlan, when given, is simulated first, as it is, and is a candidate for the best
// (so the result is never worse than it); it is not an input of the policy (the paper's policy
// starts from scratch). iterations == 0: one greedy plan, no update. Stops after
// options.iterations, options.budgetSeconds (from the call) or on *cancel, polled between decoder
// steps, simulations and backward steps (latency well under 100 ms). Deterministic for a seed
// (same thread count). Does not set LibTorch's thread count (the caller does).
#pragma once
#include <atomic>
#include <cstdint>

#include "optimize/optimize.h"
#include "rl/colocrl_policy.h"

namespace gp::rl {

struct ColocRlTrainConfig {
  int32_t maxGroups = kColocMaxGroups;
  ColocRlConfig net;
  double learningRate = 3e-3;
  double baselineDecay = 0.95;
  double entropyCoef = 0.01;
  double maxGradNorm = 1.0;
  int greedyEvery = 5;
  bool priorities = false;  // see above
};

// The plugin's entry for PolicyKind::ColocRL. Throws gp::Error for a start plan of the
// wrong size, a cluster of more than kMaxDevices devices, or options.saveCheckpoint (ColocRL
// policies are not saved).
OptimizeResult runColocRl(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                          const std::atomic<bool>* cancel);
// The same with a non-default configuration (tests, experiments).
OptimizeResult trainColocRl(const CostModel& cost, const OptimizeOptions& options, const ColocRlTrainConfig& config,
                            const IterationFn& onIteration, const std::atomic<bool>* cancel);

}  // namespace gp::rl
