#include "rl/ppo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "base/error.h"
#include "rl/ppo_state.h"
#include "sim/simulator.h"

namespace gp::rl {

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
  setUpTasks();
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
  s_->builder = std::make_unique<PlanBuilder>(cost.graph(), s_->features, options, static_cast<int32_t>(s_->numDevices));
  if (!policy) return;  // the factory constructor sets policy and optimizer
  if (policy->featureDim() != s_->features.featureDim || cost.cluster().numDevices() > policy->config().maxDevices)
    throw Error("optimize", "the policy does not fit this graph and cluster");
  s_->policy = policy;
  s_->optimizer = optimizer ? std::move(optimizer)
                            : std::make_shared<torch::optim::Adam>(policy->parameters(),
                                                                   torch::optim::AdamOptions(config.learningRate));
  setUpTasks();
}

void PpoTrainer::setUpTasks() {
  State& s = *s_;
  const PolicyConfig& c = s.policy->config();
  s.heads = {s.tasks().schedule, s.tasks().fusion};
  if ((s.heads.schedule || s.heads.fusion) && !c.multiTask)
    throw Error("optimize", "this policy places only (a placement-only policy file): it cannot optimize " +
                                toString(s.options.tasks) + "; use --policy scratch or pre-train a new one");
  s.scheduleSearch = std::make_unique<LevelSearch>(static_cast<int32_t>(c.scheduleLevels), s.options.seed + 1);
  s.fusionSearch = std::make_unique<LevelSearch>(static_cast<int32_t>(c.fusionLevels), s.options.seed + 2);
  std::vector<float> mask(s.builder->fusible().begin(), s.builder->fusible().end());
  s.fusibleMask = torch::tensor(mask);
  s.best = s.builder->initial();
}

PpoTrainer::~PpoTrainer() = default;

GdpPolicy PpoTrainer::policy() const { return s_->policy; }
torch::optim::Adam& PpoTrainer::optimizer() { return *s_->optimizer; }
double PpoTrainer::bestStepTime() const { return s_->inc.bestStep; }
double PpoTrainer::startStepTime() const { return s_->startStep; }

Decisions PpoTrainer::bestDecisions() const { return s_->best; }

void PpoTrainer::adopt(const Decisions& d) {
  State& s = *s_;
  const auto ops = static_cast<size_t>(s.features.numOps);
  if (d.units.size() != static_cast<size_t>(s.features.numUnits) || d.schedule.size() != ops || d.fusion.size() != ops)
    return;
  for (int32_t u : d.units)
    if (u < 0 || u >= s.numDevices) return;
  for (int32_t l : d.schedule)
    if (l < 0 || l >= s.policy->config().scheduleLevels) return;
  for (int32_t l : d.fusion)
    if (l < 0 || l >= s.policy->config().fusionLevels) return;
  bool unused = false;
  s.consider(d, unused);
}

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
  if (o.startPlan) s.considerPlan(*o.startPlan, unused);  // the start plan as it is is a candidate
  Decisions first = s.builder->initial();
  auto trial = [&](const Decisions& d) {
    s.consider(d, unused);
    return s.stepOf();
  };
  // a start's own order: the fixed schedule (schedule not a task) or a base order to try
  std::vector<int32_t> order = o.startPlan ? o.startPlan->priority : std::vector<int32_t>{};
  auto useOrder = [&](const std::vector<int32_t>& priority) {
    if (!s.tasks().schedule) s.builder->setFixedPriority(priority);
    else if (priority.empty()) s.builder->resetBaseOrder();
    else s.builder->setBaseOrder(priority);
  };
  // more starts: each as it is, and its devices and order with the first decisions; the best wins
  if (s.tasks().placement && !o.startCandidates.empty()) {
    useOrder(order);
    double bestStep = trial(first);
    for (const Plan& c : o.startCandidates) {
      if (c.device.size() != static_cast<size_t>(s.features.numOps)) continue;
      if (!c.priority.empty() && c.priority.size() != c.device.size()) continue;
      s.considerPlan(c, unused);
      useOrder(c.priority);
      Decisions d = first;
      d.units = s.builder->unitsOf(c);
      if (const double t = trial(d); t < bestStep) bestStep = t, first = d, order = c.priority;
    }
    useOrder(order);
  }
  // schedule task: the base order that simulates best on the start devices — the critical-path
  // ranks, the start's own priorities, or the topological order (close to FIFO)
  if (s.tasks().schedule) {
    std::vector<std::vector<int32_t>> orders;
    if (!order.empty()) orders.push_back(order);
    std::vector<int32_t> topo(static_cast<size_t>(s.features.numOps));
    for (int32_t i = 0; i < s.features.numOps; ++i) topo[s.features.topo[i]] = s.features.numOps - i;
    orders.push_back(topo);
    s.builder->resetBaseOrder();
    double bestStep = trial(first);
    std::vector<int32_t> chosen = s.features.priority;
    for (const auto& candidate : orders) {
      s.builder->setBaseOrder(candidate);
      if (const double t = trial(first); t < bestStep) bestStep = t, chosen = candidate;
    }
    s.builder->setBaseOrder(chosen);
  }
  // fusion task: start from fusion level 1 on every op that may fuse, or from no fusion at all
  if (s.tasks().fusion) {
    Decisions none = first;
    std::fill(none.fusion.begin(), none.fusion.end(), 0);
    if (trial(none) < trial(first)) first = none;
  }
  s.best = first;  // the decisions' incumbent (the raw start plan has no levels)
  s.consider(first, unused);
  s.startStep = s.inc.bestStep;
  s.refreshCurrentDevices();
  s.startInput = s.input;
  s.startDecisions = s.best;
}

bool PpoTrainer::iterate(int iteration, double progress, IterationReport& rep, const StopFn& stop,
                         const std::atomic<bool>* cancel) {
  State& s = *s_;
  const PpoConfig& cfg = s.config;
  const int64_t K = std::max(1, s.options.samplesPerIteration);
  s.policy->train();
  rep.iteration = iteration;
  s.refreshCurrentDevices();
  DecideJob sampling = s.job();
  sampling.samples = K;
  const bool segments = s.options.update && cfg.gstOps > 0 && s.features.numOps > cfg.gstOps;
  if (segments) sampling.record = std::make_shared<HistoryTable>();
  std::optional<Decided> first;
  {
    std::optional<torch::NoGradGuard> noGrad;  // no update, or GST: no autograd graph here
    if (!s.options.update || segments) noGrad.emplace();
    first = s.decide(sampling, stop, cancel);
  }
  if (!first) return false;
  Decided d = std::move(*first);
  std::vector<double> rewards;
  const int64_t batch = s.inc.batch();  // simulated together (on several threads for big graphs)
  for (int64_t k = 0; k < K && !stop(); k += batch) {
    std::vector<Decisions> ds;
    for (int64_t j = k; j < std::min(K, k + batch); ++j) ds.push_back(s.decisionsOf(d, j));
    for (const auto& scored : s.considerAll(ds, rep.improved)) rewards.push_back(scored.reward);
  }
  if (stop() || static_cast<int64_t>(rewards.size()) < K) return false;
  if (iteration == 1 || (cfg.greedyEvery > 0 && iteration % cfg.greedyEvery == 0)) s.considerGreedy(d.out, rep.improved);
  s.localSearch(d.out, d.logpU.defined() ? d.logpU : torch::Tensor(), rep.improved, stop);

  // advantages: leave-one-out mean of the batch (value head with one sample), normalised
  const int64_t n = K;
  double sum = 0;
  for (double r : rewards) sum += r;
  const double meanReward = sum / static_cast<double>(n);
  std::vector<float> adv(static_cast<size_t>(n));
  const double valueEstimate = d.out.value.item<double>();
  double sq = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double baseline = n > 1 ? (sum - rewards[k]) / static_cast<double>(n - 1) : valueEstimate;
    adv[k] = static_cast<float>(rewards[k] - baseline);
    sq += adv[k] * adv[k];
  }
  const double stdev = std::sqrt(sq / static_cast<double>(n));
  if (stdev > 1e-8)
    for (float& a : adv) a = static_cast<float>(a / stdev);
  const torch::Tensor advK = torch::tensor(adv);  // [K]
  const double entCoef = cfg.entropyStart + (cfg.entropyEnd - cfg.entropyStart) * std::clamp(progress, 0.0, 1.0);

  // per task: log-probs of the taken actions ([U, K] or [K, N]) and mean entropy
  const OptimizeTasks& t = s.tasks();
  auto taken = [&](const Decided& x) {
    std::vector<torch::Tensor> lp;
    if (t.placement) lp.push_back(x.logpU.gather(1, d.actU));
    if (s.heads.schedule) lp.push_back(x.logpS.gather(2, d.actS.unsqueeze(2)).squeeze(2));
    if (s.heads.fusion) lp.push_back(x.logpF.gather(2, d.actF.unsqueeze(2)).squeeze(2));
    return lp;
  };
  auto entropyOf = [&](const Decided& x) {
    torch::Tensor e = torch::zeros({});
    if (t.placement) e = e + -(x.logpU.exp() * x.logpU).sum(1).mean();
    if (s.heads.schedule) e = e + -(x.logpS.exp() * x.logpS).sum(2).mean();
    if (s.heads.fusion) e = e + maskedMean(-(x.logpF.exp() * x.logpF).sum(2), s.fusibleMask);
    return e;
  };
  std::vector<torch::Tensor> old = taken(d);
  for (auto& o : old) o = o.detach();

  const int epochs = s.options.update ? cfg.epochs : 0;
  if (!s.options.update) rep.entropy = entropyOf(d).item<double>();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if (epoch > 0 || segments) {
      DecideJob again = s.job();
      if (segments) {
        again.input = sampling.input;  // the table's input
        again.table = sampling.record;
        again.sample = sampleSegments(s.features.numOps, cfg.gstSegment, std::max<int64_t>(1, cfg.gstOps / cfg.gstSegment),
                                      cfg.gstKeep, s.generator);
      }
      again.bonusU = sampling.bonusU;  // the sampling distribution's bonuses, not the new incumbent's
      again.bonusS = sampling.bonusS;
      again.bonusF = sampling.bonusF;
      again.givenU = d.actU;
      again.givenS = d.actS;
      again.givenF = d.actF;
      again.samples = K;
      std::optional<Decided> x = s.decide(again, stop, cancel);
      if (!x) return false;
      d.out = x->out;
      d.logpU = x->logpU;
      d.logpS = x->logpS;
      d.logpF = x->logpF;
    }
    const std::vector<torch::Tensor> now = taken(d);
    torch::Tensor surrogate = torch::zeros({});
    size_t i = 0;
    auto clipped = [&](const torch::Tensor& ratio, const torch::Tensor& a) {
      return torch::min(ratio * a, torch::clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a);
    };
    if (t.placement) {  // [U, K]
      surrogate = surrogate + clipped(torch::exp(now[i] - old[i]), advK.unsqueeze(0)).mean();
      ++i;
    }
    if (s.heads.schedule) {  // [K, N]
      surrogate = surrogate + clipped(torch::exp(now[i] - old[i]), advK.unsqueeze(1)).mean();
      ++i;
    }
    if (s.heads.fusion) {
      surrogate = surrogate + maskedMean(clipped(torch::exp(now[i] - old[i]), advK.unsqueeze(1)), s.fusibleMask);
      ++i;
    }
    const torch::Tensor entropy = entropyOf(d);
    if (epoch == 0) rep.entropy = entropy.item<double>();
    const torch::Tensor valueLoss = (d.out.value - meanReward).pow(2);
    if (!s.applyGradient(-surrogate - entCoef * entropy + cfg.valueCoef * valueLoss, stop)) return false;
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
    LoadedSession session = loadSession(o.resume, s.cost.graph(), s.numDevices);
    s.optimizer->load(session.optimizerState);
    done = session.session.iterations;
    history = session.session.history;
  }
  result.firstIteration = done + 1;
  begin();
  if (!stop()) {
    // the policy's own plan first (greedy + samples, no update, no search): what it knows
    // before it refines, shown at once; refining starts from the better of it and the start
    const double startStep = s.inc.bestStep;
    zeroShot(stop, cancel);
    if (o.iterations <= 0) result.stopReason = "zero-shot";
    if (onIteration && !stop() && done == 0) {
      IterationReport rep;
      rep.zeroShot = true;
      rep.bestStepTime = s.inc.haveFeasible ? s.inc.bestStep : 0;
      rep.improved = s.inc.bestStep < startStep;
      rep.best = s.inc.haveAny ? &s.inc.best : nullptr;
      rep.elapsed = elapsed();
      onIteration(rep);
    }
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
