// PpoTrainer's state, shared by the files that implement its steps (ppo.cpp: set-up, begin, the
// run; ppo_iteration.cpp: PPO iterations; zero_shot.cpp; imitation.cpp: expert iteration).
// Internal to core/rl.
#pragma once
#include <ATen/CPUGeneratorImpl.h>

#include <limits>
#include <memory>
#include <optional>

#include "rl/cancellable.h"
#include "rl/decisions.h"
#include "rl/gradient_sync.h"
#include "rl/graph_features.h"
#include "rl/incumbent.h"
#include "rl/level_search.h"
#include "rl/local_search.h"
#include "rl/policy_tensors.h"
#include "rl/ppo.h"
#include "rl/ppo_task.h"
#include "rl/task_sampler.h"

namespace gp::rl {

// tensor <-> vector helpers of the trainer's files
inline std::vector<int32_t> toVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kInt32).contiguous();
  return {c.data_ptr<int32_t>(), c.data_ptr<int32_t>() + c.numel()};
}

inline torch::Tensor toTensor(const std::vector<int32_t>& v) {
  return torch::tensor(std::vector<int64_t>(v.begin(), v.end()), torch::kInt64);
}

inline std::vector<float> toFloats(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kFloat32).contiguous();
  return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

// Mean of x [K, N] over the ops where mask [N] is 1 (every op when mask is undefined).
inline torch::Tensor maskedMean(const torch::Tensor& x, const torch::Tensor& mask) {
  if (!mask.defined()) return x.mean();
  return (x * mask.unsqueeze(0)).sum() / (mask.sum() * x.size(0)).clamp_min(1.0);
}

struct PpoTrainer::State {
  State(const CostModel& c, const OptimizeOptions& o, PpoConfig cfg)
      : cost(c), options(o), config(cfg), inc(c, o.threads), generator(at::detail::createCPUGenerator(o.seed)) {}

  const CostModel& cost;
  OptimizeOptions options;
  PpoConfig config;
  GraphFeatures features;
  PolicyInput input;
  int64_t numDevices = 0;
  GdpPolicy policy{nullptr};
  std::shared_ptr<torch::optim::Adam> optimizer;
  std::shared_ptr<GradientSync> sync;  // the update, across ranks when shared (made on first use)
  std::shared_ptr<TrainingRanks> ranks;  // a distributed optimize run (run())
  Incumbent inc;  // the best plan so far (and the simulator)
  at::Generator generator;
  std::unique_ptr<PlanBuilder> builder;
  PolicyHeads heads;
  std::vector<TaskState> active;  // the optimized tasks, in decision order (setUpTasks)
  torch::Tensor fusibleMask;  // [N] float, ops whose fusion level matters
  // the incumbent's decisions (units empty before a feasible plan), the ones in the features
  Decisions best;
  std::vector<int32_t> featureUnits;
  // the zero-shot input: features with the start's devices, and the start's decisions (begin())
  PolicyInput startInput;
  Decisions startDecisions;
  double startStep = std::numeric_limits<double>::infinity();

  const OptimizeTasks& tasks() const { return options.tasks; }

  // Simulates `d`'s plan (no timeline); keeps it when it is the best; returns its reward.
  double consider(const Decisions& d, bool& improved) {
    bool better = false;
    const double reward = inc.consider(builder->build(d), better);
    if (better) {
      improved = true;
      best = d;
    }
    return reward;
  }
  // consider() for each, simulated together (Incumbent::considerAll).
  std::vector<Incumbent::Scored> considerAll(const std::vector<Decisions>& ds, bool& improved) {
    std::vector<Plan> plans;
    plans.reserve(ds.size());
    for (const Decisions& d : ds) plans.push_back(builder->build(d));
    const double before = inc.bestStep;
    bool better = false;
    std::vector<Incumbent::Scored> scored = inc.considerAll(plans, better);
    if (better) {
      improved = true;
      for (size_t i = 0; i < ds.size(); ++i)  // the first plan that reached the new best
        if (scored[i].step == inc.bestStep && scored[i].step < before) {
          best = ds[i];
          break;
        }
    }
    return scored;
  }
  // A search's batch evaluation: each candidate put into `base` by `set`, simulated together.
  template <class SetFn>
  EvaluateBatch evaluator(const Decisions& base, bool& improved, SetFn set) {
    return [this, base, &improved, set](const std::vector<std::vector<int32_t>>& candidates) {
      std::vector<Decisions> ds(candidates.size(), base);
      for (size_t i = 0; i < candidates.size(); ++i) set(ds[i], candidates[i]);
      std::vector<double> steps;
      for (const auto& sc : considerAll(ds, improved)) steps.push_back(sc.step);
      return steps;
    };
  }
  double considerPlan(const Plan& plan, bool& improved) {
    bool better = false;
    const double reward = inc.consider(plan, better);
    if (better) {
      improved = true;
      best.units = builder->unitsOf(plan);  // its levels stay those of the last decisions
    }
    return reward;
  }
  double stepOf() const { return inc.m.feasible ? inc.m.stepTime : std::numeric_limits<double>::infinity(); }
  double stepOfBest() const { return inc.haveFeasible ? inc.bestStep : std::numeric_limits<double>::infinity(); }

  // The incumbent's devices become the current-plan features (new tensors: an abandoned forward
  // pass may still read the old ones).
  void refreshCurrentDevices() {
    if (best.units.empty() || best.units == featureUnits) return;
    featureUnits = best.units;
    std::vector<int32_t> dev(static_cast<size_t>(features.numOps));
    for (int32_t op = 0; op < features.numOps; ++op)  // placement fixed: the devices op by op
      dev[op] = tasks().placement ? best.units[features.unitOf[op]] : builder->fixedDevices()[op];
    setCurrentDevices(features, dev);
    refreshCurrentPlan(input, features);
  }

  // A decision pass on `in` (forward unless `out` is given) with bonuses toward `around`'s
  // decisions sized for `moves` moved units (0: none).
  DecideJob jobFor(const PolicyInput& in, const Decisions& around, double moves) const {
    DecideJob j;
    j.policy = policy;
    j.input = in;
    j.numDevices = numDevices;
    j.placement = tasks().placement;
    j.heads = heads;
    for (Task t : kTasks) j.best[t] = toTensor(taskDecisions(t, around));
    for (const TaskState& t : active) j.bonus[t.task] = t.bonus(j.best[t.task], moves);
    j.generator = generator;
    return j;
  }
  // With the incumbent's bonuses (none toward a plan that does not fit).
  DecideJob job() const { return jobFor(input, best, inc.haveFeasible ? config.priorMoves : 0); }
  std::optional<Decided> decide(DecideJob j, const std::function<bool()>& stop, const std::atomic<bool>* cancel) {
    return runUnlessStopped(std::move(j), cancel != nullptr, stop);
  }
  Decisions decisionsOf(const Decided& d, int64_t k) const {
    return {toVector(d.act[Task::Placement].select(1, k)), toVector(d.act[Task::Schedule][k]),
            toVector(d.act[Task::Fusion][k])};
  }

  // loss.backward(), the gradient norm clipped, one Adam step (through `sync`); false
  // when a cancel abandoned the backward pass (a gradient hook throws, rl/cancellable.h).
  bool applyGradient(const torch::Tensor& loss, const std::function<bool()>& stop) {
    optimizer->zero_grad();
    try {
      loss.backward();
    } catch (...) {
      if (stop()) return false;
      throw;
    }
    if (!sync) sync = std::make_shared<GradientSync>(nullptr, policy->parameters(), config.maxGradNorm);
    sync->step(*optimizer, true);
    return true;
  }

  // The zero-shot decision pass: the start input, no incumbent bonus (rl/imitation.cpp).
  DecideJob zeroShotJob() const;
  // The policy's greedy decisions on it (nullopt when stopped).
  std::optional<Decisions> ownDecisions(const std::function<bool()>& stop, const std::atomic<bool>* cancel);

  // The greedy (argmax) decisions on `out`, considered unless they are the incumbent's; with
  // `bonus` false, of the policy's own logits (zero-shot: the policy's plan, not the start's).
  void considerGreedy(const PolicyOutput& out, bool& improved, bool bonus = true) {
    torch::NoGradGuard noGrad;
    DecideJob j = job();
    j.out = out;
    j.greedy = true;
    if (!bonus)
      for (torch::Tensor& b : j.bonus.tensors)
        if (b.defined()) b = torch::zeros_like(b);
    Decisions g = decisionsOf(j(), 0);
    if (g != best) consider(g, improved);
  }

  // One PPO iteration's steps (rl/ppo_iteration.cpp).
  struct Samples {
    DecideJob job;    // the sampling pass's job: its bonuses, and its table under GST
    Decided decided;  // the sampled actions; later epochs replace the output and the log-probs
    std::vector<double> rewards;
    bool segments = false;  // Graph Segment Training updates
  };
  // The sampling pass, its samples simulated, the greedy plan (every greedyEvery iterations)
  // and the local search; nullopt when stopped.
  std::optional<Samples> sample(int iteration, bool& improved, const std::function<bool()>& stop,
                                const std::atomic<bool>* cancel);
  // The PPO update over `epochs` passes with the samples' advantages `adv` [K]; false when stopped.
  bool update(Samples& x, const torch::Tensor& adv, double meanReward, double progress, IterationReport& rep,
              const std::function<bool()>& stop, const std::atomic<bool>* cancel);
  // An epoch's pass re-evaluating the sampled actions (a GST pass over sampled segments when
  // x.segments); false when stopped.
  bool reevaluate(Samples& x, const std::function<bool()>& stop, const std::atomic<bool>* cancel);
  // Per optimized task: the log-probs of d's actions (d.act under d.logp); the summed entropy.
  std::vector<torch::Tensor> taken(const Decided& d) const;
  torch::Tensor entropy(const Decided& d) const;
  // Policy-guided local search on each optimized task, in turn, from the incumbent: devices
  // with the sampling pass's probabilities, levels with those given the incumbent's devices.
  void localSearch(const Decided& sampled, bool& improved, const std::function<bool()>& stop);
};

}  // namespace gp::rl
