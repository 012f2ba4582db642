// PPO training of the GDP policy against the simulator (issue 5, items 2 and 5), and the policy
// files it reads and writes.
//
//   PpoTrainer t(cost, options, [](int64_t dim) { return makePolicy(dim, 1); });
//   OptimizeResult r = t.run(onIteration, &cancel);
//
// One iteration: one forward pass of the policy on the graph (features built once, with the
// start plan's devices as the "current device" feature when refining); samplesPerIteration
// unit -> device assignments drawn from Categorical(softmax(unit logits)) with a seeded
// generator; each simulated (one Simulator reused, no timeline); reward = placementReward.
// The sampling logits are the policy's plus a fixed bonus on the incumbent's device (see
// PpoConfig::priorMoves); the incumbent's devices are also the "current device" features, updated
// when it improves. Every candidate plan gets one priority per op: the start plan's when that
// simulates better on the start devices, else the upward-rank order (GraphFeatures::priority).
// Without a start plan, "every unit on device 0" is the first incumbent.
// After the samples, LocalSearch tries localMoves group moves of the incumbent drawn from the
// sampling distribution. Baseline: the mean reward of the *other* samples of the batch (leave-one-out; with one
// sample per iteration the value head's estimate instead); the value head is trained on the
// batch's mean reward either way, so a pre-trained policy carries an estimate. Advantages
// are normalised by the batch's standard deviation. Loss: PPO clipped surrogate per unit
// (clip 0.2) over `epochs` passes (the first reuses the sampling forward pass), minus a
// decaying entropy bonus, plus the value loss; Adam, gradient norm clipped. The greedy
// (argmax) plan is simulated every `greedyEvery` iterations; the best feasible plan ever seen
// (the start plan included) is kept; an infeasible plan is never the best while a feasible one
// exists. Stops after options.iterations, options.budgetSeconds or on cancel (polled between
// samples, simulations and epochs). iterations == 0: zero-shot, one greedy plan, no update.
// Deterministic for a seed (same thread count).
//
// Policy checkpoint (.pt, a torch::serialize archive):
//   "gp_policy_format"  int64 [1]     format version (1)
//   "config"            int64 [7]     hidden, typeEmbedding, sageLayers, segment, heads,
//                                     maxDevices, film (0/1)
//   "feature_dim"       int64 [1]     GdpPolicy::featureDim()
//   "policy"            archive       the module's parameters and buffers (Module::save)
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "optimize/optimize.h"
#include "rl/gdp_policy.h"

namespace gp::rl {

struct PpoConfig {
  double clip = 0.2;
  int epochs = 2;              // optimisation passes per iteration
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
};

class PpoTrainer {
 public:
  // Builds the graph's features, then asks `policyFor` for a policy taking that many feature
  // columns (it may throw gp::Error). `cost` must outlive the trainer.
  using PolicyFactory = std::function<GdpPolicy(int64_t featureDim)>;
  PpoTrainer(const CostModel& cost, const OptimizeOptions& options, const PolicyFactory& policyFor,
             PpoConfig config = {});
  ~PpoTrainer();
  PpoTrainer(const PpoTrainer&) = delete;
  PpoTrainer& operator=(const PpoTrainer&) = delete;

  OptimizeResult run(const IterationFn& onIteration, const std::atomic<bool>* cancel = nullptr);
  GdpPolicy policy() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// A new policy for graphs whose features have `featureDim` columns, initialised from `seed`.
GdpPolicy makePolicy(int64_t featureDim, uint64_t seed, PolicyConfig config = {});
void saveCheckpoint(GdpPolicy& policy, const std::string& path);  // throws gp::Error(path, ...)
GdpPolicy loadCheckpoint(const std::string& path);               // throws gp::Error(path, ...)
// resources/policies/gdp_default.pt beside the cluster presets; empty when there is none.
std::string defaultPolicyPath();

// The plugin's optimizer: resolves options.policy ("default", "scratch", "colocrl", or a
// checkpoint file), sets LibTorch's thread count, trains, and saves options.saveCheckpoint.
OptimizeResult runOptimizer(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                            const std::atomic<bool>* cancel);

}  // namespace gp::rl
