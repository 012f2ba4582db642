#include "rl/ppo.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "graph/error.h"
#include "rl/cancellable.h"
#include "rl/graph_features.h"
#include "rl/incumbent.h"
#include "rl/local_search.h"
#include "rl/policy_tensors.h"
#include "sim/simulator.h"

namespace gp::rl {
namespace {

std::vector<int32_t> toVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kInt32).contiguous();
  return {c.data_ptr<int32_t>(), c.data_ptr<int32_t>() + c.numel()};
}

}  // namespace

struct PpoTrainer::State {
  State(const CostModel& c, const OptimizeOptions& o, PpoConfig cfg)
      : cost(c), options(o), config(cfg), inc(c), generator(at::detail::createCPUGenerator(o.seed)) {}

  const CostModel& cost;
  OptimizeOptions options;
  PpoConfig config;
  GraphFeatures features;
  PolicyInput input;
  int64_t numDevices = 0;
  GdpPolicy policy{nullptr};
  std::shared_ptr<torch::optim::Adam> optimizer;
  Incumbent inc;  // the best plan so far (and the simulator)
  at::Generator generator;
  std::unique_ptr<LocalSearch> search;
  std::vector<int32_t> priority;  // given to every candidate plan
  // the incumbent's devices per unit (empty before a feasible plan)
  std::vector<int32_t> bestUnits, featureUnits;
  double startStep = std::numeric_limits<double>::infinity();

  // Simulates `plan` (no timeline); keeps it when it is the best; returns its reward.
  double consider(const Plan& plan, bool& improved, const std::vector<int32_t>* units = nullptr) {
    bool better = false;
    const double reward = inc.consider(plan, better);
    if (better) {
      improved = true;
      bestUnits = units ? *units : unitsOf(plan);
    }
    return reward;
  }
  double considerUnits(const std::vector<int32_t>& units, bool& improved) {
    Plan p = planFromUnits(features, units);
    p.priority = priority;
    return consider(p, improved, &units);
  }
  std::vector<int32_t> unitsOf(const Plan& plan) const {
    std::vector<int32_t> u(static_cast<size_t>(features.numUnits));
    for (int32_t i = 0; i < features.numUnits; ++i)
      u[static_cast<size_t>(i)] = std::clamp<int32_t>(plan.device[features.unitFirstOp[i]], 0,
                                                      static_cast<int32_t>(numDevices) - 1);
    return u;
  }
  // The incumbent's devices become the "current device" features (a new tensor: an abandoned
  // forward pass may still read the old one).
  void refreshCurrentDevices() {
    if (bestUnits.empty() || bestUnits == featureUnits) return;
    featureUnits = bestUnits;
    std::vector<int64_t> dev(static_cast<size_t>(features.numOps));
    for (int32_t op = 0; op < features.numOps; ++op) dev[op] = bestUnits[features.unitOf[op]];
    torch::Tensor oneHot = torch::one_hot(torch::tensor(dev, torch::kInt64), kMaxDevices).to(torch::kFloat32);
    torch::Tensor x = input.x.clone();
    x.slice(1, currentDeviceColumn(), currentDeviceColumn() + kMaxDevices).copy_(oneHot);
    input.x = x;
  }
  // [U, maxDevices] bonus on the incumbent's device (zeros without an incumbent).
  torch::Tensor priorBonus(int64_t maxDevices) const {
    torch::Tensor b = torch::zeros({features.numUnits, maxDevices});
    if (bestUnits.empty() || config.priorMoves <= 0) return b;
    const double units = features.numUnits, moves = std::min(config.priorMoves, units / 2);
    const double bonus = std::log(std::max(1.0, static_cast<double>(numDevices - 1) * (units - moves) / moves));
    std::vector<int64_t> dev(bestUnits.begin(), bestUnits.end());
    return torch::one_hot(torch::tensor(dev, torch::kInt64), maxDevices).to(torch::kFloat32) * bonus;
  }
  // The policy's output on the current features, unless `stop` fires first.
  std::optional<PolicyOutput> forward(const std::function<bool()>& stop, const std::atomic<bool>* cancel) {
    return runUnlessStopped([p = policy, in = input, d = numDevices]() mutable { return p->forward(in, d); },
                            cancel != nullptr, stop);
  }
};

PpoTrainer::PpoTrainer(const CostModel& cost, const OptimizeOptions& options, const PolicyFactory& policyFor,
                       PpoConfig config)
    : PpoTrainer(cost, options, GdpPolicy{nullptr}, nullptr, config) {
  s_->policy = policyFor(s_->features.featureDim);
  if (s_->policy->featureDim() != s_->features.featureDim)
    throw Error("optimize", "the policy takes " + std::to_string(s_->policy->featureDim()) +
                                " features per op, this graph has " + std::to_string(s_->features.featureDim));
  if (cost.cluster().numDevices() > s_->policy->config().maxDevices)
    throw Error("optimize", "the policy places on at most " + std::to_string(s_->policy->config().maxDevices) +
                                " devices, the cluster has " + std::to_string(cost.cluster().numDevices()));
  s_->optimizer = std::make_shared<torch::optim::Adam>(s_->policy->parameters(),
                                                       torch::optim::AdamOptions(config.learningRate));
}

PpoTrainer::PpoTrainer(const CostModel& cost, const OptimizeOptions& options, GdpPolicy policy,
                       std::shared_ptr<torch::optim::Adam> optimizer, PpoConfig config)
    : s_(std::make_unique<State>(cost, options, config)) {
  const Plan* current = options.startPlan ? &*options.startPlan : nullptr;
  if (current && current->device.size() != static_cast<size_t>(cost.graph().numOps()))
    throw Error("optimize", "the start plan has " + std::to_string(current->device.size()) + " ops, the graph " +
                                std::to_string(cost.graph().numOps()));
  s_->features = buildGraphFeatures(cost.graph(), cost, current);
  s_->input = toPolicyInput(s_->features);
  s_->numDevices = std::min<int64_t>(cost.cluster().numDevices(), kMaxDevices);
  s_->search = std::make_unique<LocalSearch>(s_->features, static_cast<int32_t>(s_->numDevices), options.seed);
  s_->priority = s_->features.priority;
  if (!policy) return;  // the factory constructor sets policy and optimizer
  if (policy->featureDim() != s_->features.featureDim || cost.cluster().numDevices() > policy->config().maxDevices)
    throw Error("optimize", "the policy does not fit this graph and cluster");
  s_->policy = policy;
  s_->optimizer = optimizer ? std::move(optimizer)
                            : std::make_shared<torch::optim::Adam>(policy->parameters(),
                                                                   torch::optim::AdamOptions(config.learningRate));
}

PpoTrainer::~PpoTrainer() = default;

GdpPolicy PpoTrainer::policy() const { return s_->policy; }
torch::optim::Adam& PpoTrainer::optimizer() { return *s_->optimizer; }
double PpoTrainer::bestStepTime() const { return s_->inc.bestStep; }
double PpoTrainer::startStepTime() const { return s_->startStep; }

Plan PpoTrainer::bestPlan() const { return s_->inc.bestOr(s_->features); }

void PpoTrainer::saveSession(const std::string& path, int iterationsDone, const std::vector<double>& history) const {
  Session session{iterationsDone, bestPlan(), history};
  GdpPolicy p = s_->policy;
  rl::saveSession(p, *s_->optimizer, session, path);
}

void PpoTrainer::begin() {
  State& s = *s_;
  const OptimizeOptions& o = s.options;
  bool unused = false;
  if (o.startPlan) {
    s.consider(*o.startPlan, unused);
    // candidates get the start plan's priorities when they beat the upward-rank order on its devices
    const std::vector<int32_t> units = s.unitsOf(*o.startPlan);
    const double ranked = (s.considerUnits(units, unused), s.inc.m.feasible ? s.inc.m.stepTime : 1e300);
    if (!o.startPlan->priority.empty()) {
      s.priority = o.startPlan->priority;
      const double own = (s.considerUnits(units, unused), s.inc.m.feasible ? s.inc.m.stepTime : 1e300);
      if (ranked < own) s.priority = s.features.priority;
    }
  } else {
    // from nothing: everything on one device is the first incumbent, so local search starts from
    // a feasible, contention-free plan rather than from a random sample's scatter
    s.considerUnits(std::vector<int32_t>(static_cast<size_t>(s.features.numUnits), 0), unused);
  }
  s.startStep = s.inc.bestStep;
}

void PpoTrainer::zeroShot(const StopFn& stop, const std::atomic<bool>* cancel) {
  State& s = *s_;
  torch::NoGradGuard noGrad;
  s.policy->eval();
  s.refreshCurrentDevices();
  const int64_t D = s.numDevices;
  const torch::Tensor bonus = s.priorBonus(s.policy->config().maxDevices).slice(1, 0, D);
  std::optional<PolicyOutput> out = s.forward(stop, cancel);
  if (!out) return;
  const torch::Tensor logits = out->unitLogits.slice(1, 0, D);
  bool unused = false;
  s.considerUnits(toVector(logits.argmax(1)), unused);
  const int64_t K = std::max(1, s.options.samplesPerIteration);
  const torch::Tensor actions =
      torch::multinomial(torch::softmax(logits + bonus, 1), K, /*replacement=*/true, s.generator).t().contiguous();
  for (int64_t k = 0; k < K && !stop(); ++k) s.considerUnits(toVector(actions[k]), unused);
}

bool PpoTrainer::iterate(int iteration, double progress, IterationReport& rep, const StopFn& stop,
                         const std::atomic<bool>* cancel) {
  State& s = *s_;
  const PpoConfig& cfg = s.config;
  const int64_t K = std::max(1, s.options.samplesPerIteration);
  const int64_t D = s.numDevices;
  s.policy->train();
  rep.iteration = iteration;
  s.refreshCurrentDevices();
  const torch::Tensor bonus = s.priorBonus(s.policy->config().maxDevices).slice(1, 0, D);
  std::optional<PolicyOutput> first;
  {
    std::optional<torch::NoGradGuard> noGrad;  // no update: no autograd graph either
    if (!s.options.update) noGrad.emplace();
    first = s.forward(stop, cancel);
  }
  if (!first) return false;
  PolicyOutput out = std::move(*first);
  torch::Tensor logp = torch::log_softmax(out.unitLogits.slice(1, 0, D) + bonus, 1);  // [U, D]
  torch::Tensor actions;                                                               // [U, K]
  {
    torch::NoGradGuard noGrad;
    actions = torch::multinomial(logp.detach().exp(), K, /*replacement=*/true, s.generator);
  }
  const torch::Tensor oldLogp = logp.gather(1, actions).detach();
  torch::Tensor byPlan = actions.t().contiguous();  // [K, U]
  std::vector<double> rewards;
  for (int64_t k = 0; k < K && !stop(); ++k) rewards.push_back(s.considerUnits(toVector(byPlan[k]), rep.improved));
  if (stop() || rewards.empty()) return false;
  if (iteration == 1 || (cfg.greedyEvery > 0 && iteration % cfg.greedyEvery == 0)) {
    std::vector<int32_t> greedy = toVector(logp.detach().argmax(1));
    if (greedy != s.bestUnits) s.considerUnits(greedy, rep.improved);
  }
  if (cfg.localMoves > 0 && !s.bestUnits.empty()) {
    torch::Tensor probs = logp.detach().exp().contiguous();
    std::vector<float> pv(probs.data_ptr<float>(), probs.data_ptr<float>() + probs.numel());
    std::vector<int32_t> units = s.bestUnits;
    s.search->run(units, pv, cfg.localMoves, s.inc.bestStep, [&](const std::vector<int32_t>& cand) {
      s.considerUnits(cand, rep.improved);
      return s.inc.m.feasible ? s.inc.m.stepTime : std::numeric_limits<double>::infinity();
    }, stop);
  }

  // advantages: leave-one-out mean of the batch (value head with one sample), normalised
  const int64_t n = static_cast<int64_t>(rewards.size());
  double sum = 0;
  for (double r : rewards) sum += r;
  const double meanReward = sum / static_cast<double>(n);
  std::vector<float> adv(static_cast<size_t>(n));
  const double valueEstimate = out.value.item<double>();
  double sq = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double baseline = n > 1 ? (sum - rewards[k]) / static_cast<double>(n - 1) : valueEstimate;
    adv[k] = static_cast<float>(rewards[k] - baseline);
    sq += adv[k] * adv[k];
  }
  const double stdev = std::sqrt(sq / static_cast<double>(n));
  if (stdev > 1e-8)
    for (float& a : adv) a = static_cast<float>(a / stdev);
  const torch::Tensor advT = torch::tensor(adv).unsqueeze(0);  // [1, n]
  const torch::Tensor taken = actions.slice(1, 0, n);
  const torch::Tensor old = oldLogp.slice(1, 0, n);
  const double entCoef = cfg.entropyStart + (cfg.entropyEnd - cfg.entropyStart) * std::clamp(progress, 0.0, 1.0);

  const int epochs = s.options.update ? cfg.epochs : 0;
  if (!s.options.update) rep.entropy = -(logp.exp() * logp).sum(1).mean().item<double>();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if (epoch > 0) {
      std::optional<PolicyOutput> again = s.forward(stop, cancel);
      if (!again) return false;
      out = std::move(*again);
      logp = torch::log_softmax(out.unitLogits.slice(1, 0, D) + bonus, 1);
    }
    const torch::Tensor ratio = torch::exp(logp.gather(1, taken) - old);
    const torch::Tensor surrogate =
        torch::min(ratio * advT, torch::clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * advT).mean();
    const torch::Tensor entropy = -(logp.exp() * logp).sum(1).mean();
    if (epoch == 0) rep.entropy = entropy.item<double>();
    const torch::Tensor valueLoss = (out.value - meanReward).pow(2);
    const torch::Tensor loss = -surrogate - entCoef * entropy + cfg.valueCoef * valueLoss;
    s.optimizer->zero_grad();
    try {
      loss.backward();
    } catch (...) {  // a gradient hook abandoned the pass on cancel
      if (stop()) return false;
      throw;
    }
    torch::nn::utils::clip_grad_norm_(s.policy->parameters(), cfg.maxGradNorm);
    s.optimizer->step();
  }

  rep.meanReward = meanReward;
  rep.bestReward = *std::max_element(rewards.begin(), rewards.end());
  rep.bestStepTime = s.inc.haveFeasible ? s.inc.bestStep : 0;
  rep.best = s.inc.haveAny ? &s.inc.best : nullptr;
  return true;
}

OptimizeResult PpoTrainer::run(const IterationFn& onIteration, const std::atomic<bool>* cancel) {
  State& s = *s_;
  const OptimizeOptions& o = s.options;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  OptimizeResult result;
  auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (o.budgetSeconds > 0 && elapsed() >= o.budgetSeconds);
  };
  CancelHooks hooks(s.policy->parameters(), cancel);
  std::vector<double> history;  // of the resumed session and this run
  int done = 0;
  if (!o.resume.empty()) {
    LoadedSession session = loadSession(o.resume, s.features.numOps, s.numDevices);
    s.optimizer->load(session.optimizerState);
    done = session.session.iterations;
    history = session.session.history;
  }
  result.firstIteration = done + 1;
  begin();
  if (o.iterations <= 0 && !stop()) {
    zeroShot(stop, cancel);
    result.stopReason = "zero-shot";
  }
  double lastGain = s.inc.bestStep;  // best step time when it last improved by 0.1%
  int sinceGain = 0;
  for (int it = 1; it <= o.iterations && !stop(); ++it) {
    // entropy bonus decays linearly over the run (iterations or time budget, whichever is nearer)
    double progress = o.iterations > 1 ? static_cast<double>(it - 1) / (o.iterations - 1) : 0.0;
    if (o.budgetSeconds > 0) progress = std::max(progress, elapsed() / o.budgetSeconds);
    IterationReport rep;
    if (!iterate(done + it, progress, rep, stop, cancel)) break;
    rep.elapsed = elapsed();
    result.iterations = it;
    history.push_back(rep.bestStepTime);
    result.bestStepTimeHistory.push_back(rep.bestStepTime);
    if (onIteration) onIteration(rep);
    if (!o.checkpoint.empty() && o.checkpointEvery > 0 && it % o.checkpointEvery == 0)
      saveSession(o.checkpoint, done + it, history);
    if (s.inc.bestStep < lastGain * (1 - 1e-3)) {
      lastGain = s.inc.bestStep;
      sinceGain = 0;
    } else if (o.patience > 0 && ++sinceGain >= o.patience) {
      result.stopReason = "converged";
      break;
    }
  }
  if (result.stopReason.empty())
    result.stopReason = result.cancelled ? "cancelled" : result.iterations >= o.iterations ? "iterations" : "budget";
  if (!o.checkpoint.empty()) saveSession(o.checkpoint, done + result.iterations, history);
  result.best = bestPlan();
  result.measurement = s.inc.sim.run(result.best, /*recordTimeline=*/true);
  result.seconds = elapsed();
  return result;
}

GdpPolicy makePolicy(int64_t featureDim, uint64_t seed, PolicyConfig config) {
  torch::manual_seed(seed);
  return GdpPolicy(featureDim, config);
}

}  // namespace gp::rl
