#include "rl/ppo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "base/error.h"
#include "fusion/fuser.h"
#include "rl/ppo_state.h"
#include "sim/polish.h"
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
  std::vector<float> mask(s.builder->fusible().begin(), s.builder->fusible().end());
  s.fusibleMask = torch::tensor(mask);
  auto add = [&](Task task, int64_t levels, double count) -> TaskState& {
    TaskState& t = s.active.emplace_back();
    t.task = task;
    t.levels = levels;
    t.count = count;
    return t;
  };
  if (s.tasks().placement)
    add(Task::Placement, s.numDevices, static_cast<double>(s.features.numUnits)).units =
        std::make_unique<LocalSearch>(s.features, static_cast<int32_t>(s.numDevices), s.options.seed);
  if (s.heads.schedule)
    add(Task::Schedule, c.scheduleLevels, static_cast<double>(s.features.numOps)).levelSearch =
        std::make_unique<LevelSearch>(static_cast<int32_t>(c.scheduleLevels), s.options.seed + 1);
  if (s.heads.fusion) {
    TaskState& t = add(Task::Fusion, c.fusionLevels, s.fusibleMask.sum().item<double>());
    t.mask = s.fusibleMask;
    t.eligible = s.builder->fusible();
    t.levelSearch = std::make_unique<LevelSearch>(static_cast<int32_t>(c.fusionLevels), s.options.seed + 2);
  }
  s.best = s.builder->initial();
}

PpoTrainer::~PpoTrainer() = default;

GdpPolicy PpoTrainer::policy() const { return s_->policy; }
torch::optim::Adam& PpoTrainer::optimizer() { return *s_->optimizer; }
void PpoTrainer::shareUpdates(std::shared_ptr<GradientSync> sync) { s_->sync = std::move(sync); }
void PpoTrainer::joinRanks(std::shared_ptr<TrainingRanks> ranks) {
  State& s = *s_;
  ranks->shareWeights(s.policy);
  s.sync = ranks->sync(s.policy, s.config.maxGradNorm);
  s.ranks = std::move(ranks);
}
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

void PpoTrainer::begin(const StopFn& stop) {
  State& s = *s_;
  auto stopped = [&] { return stop && stop(); };
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
      if (stopped()) break;
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
  if (s.tasks().schedule && !stopped()) {
    std::vector<std::vector<int32_t>> orders;
    if (!order.empty()) orders.push_back(order);
    std::vector<int32_t> topo(static_cast<size_t>(s.features.numOps));
    for (int32_t i = 0; i < s.features.numOps; ++i) topo[s.features.topo[i]] = s.features.numOps - i;
    orders.push_back(topo);
    s.builder->resetBaseOrder();
    double bestStep = trial(first);
    std::vector<int32_t> chosen = s.features.priority;
    for (const auto& candidate : orders) {
      if (stopped()) break;
      s.builder->setBaseOrder(candidate);
      if (const double t = trial(first); t < bestStep) bestStep = t, chosen = candidate;
    }
    s.builder->setBaseOrder(chosen);
  }
  // fusion task: start from fusion level 1 on every op that may fuse, or from no fusion at all
  if (s.tasks().fusion && !stopped()) {
    Decisions none = first;
    std::fill(none.fusion.begin(), none.fusion.end(), 0);
    if (trial(none) < trial(first)) first = none;
  }
  s.best = first;  // the decisions' incumbent (the raw start plan has no levels)
  // stopped with a plan already tried: the run ends, and its best plan is the incumbent
  if (!stopped() || !s.inc.haveAny) s.consider(first, unused);
  s.startStep = s.inc.bestStep;
  s.refreshCurrentDevices();
  s.startInput = s.input;
  s.startDecisions = s.best;
}

OptimizeResult PpoTrainer::run(const IterationFn& onIteration, const std::atomic<bool>* cancel) {
  State& s = *s_;
  const OptimizeOptions& o = s.options;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  OptimizeResult result;
  auto cancelSet = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  // the search's share of the budget: the rest is for polishing its best plan
  const bool polishes = o.polishShare > 0 && o.polishMoves > 0 && o.iterations > 0;
  // the move ranker is read before the search, so that a bad file fails at once
  std::optional<MoveRanker> ranker;
  const std::string rankerFile = o.moveRanker.empty() ? defaultMoveRankerPath() : o.moveRanker == "none" ? "" : o.moveRanker;
  if (polishes && !rankerFile.empty()) ranker = MoveRanker::load(rankerFile);
  // the search stops where polishing starts; when polishing finds nothing, it goes on to the end
  double searchBudget = polishes ? o.budgetSeconds * (1 - std::min(o.polishShare, 1.0)) : o.budgetSeconds;
  auto budgetSpent = [&] { return o.budgetSeconds > 0 && elapsed() >= searchBudget; };
  auto stop = [&] {
    if (cancelSet()) result.cancelled = true;
    return result.cancelled || budgetSpent();
  };
  // With several ranks, every rank stops between iterations when one was interrupted or the
  // budget is spent, never within one (the ranks' updates and agreements must pair up).
  const bool distributed = s.ranks && s.ranks->distributed();
  auto stopBetween = [&] {
    return distributed ? s.ranks->stopTogether(cancelSet(), budgetSpent(), result.cancelled) : stop();
  };
  const StopFn within = distributed ? StopFn([] { return false; }) : StopFn(stop);
  const std::atomic<bool>* passCancel = distributed ? nullptr : cancel;
  // every rank continues from the best plan any rank has found
  auto agree = [&] {
    if (!distributed) return;
    const TrainingRanks::Best b = s.ranks->best(s.stepOfBest(), s.best);
    if (b.rank != s.ranks->rank()) adopt(b.decisions);
  };
  const bool writes = !distributed || s.ranks->rank() == 0;
  CancelHooks hooks(s.policy->parameters(), passCancel);
  std::vector<double> history;  // of the resumed session and this run
  int done = 0;
  std::optional<StopReason> stopped;  // zero-shot or converged
  if (!o.resume.empty()) {
    LoadedSession session = loadSession(o.resume, s.cost.graph(), s.numDevices);
    s.optimizer->load(session.optimizerState);
    done = session.session.iterations;
    history = session.session.history;
  }
  result.firstIteration = done + 1;
  begin(within);
  if (!stopBetween()) {
    // the policy's own plan first (greedy + samples, no update, no search): what it knows
    // before it refines, shown at once; refining starts from the better of it and the start
    const double startStep = s.inc.bestStep;
    zeroShot(within, passCancel);
    agree();
    if (o.iterations <= 0) stopped = StopReason::ZeroShot;
    if (onIteration && !within() && done == 0) {
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
  int it = 1;
  for (bool polished = false;; polished = true) {
    for (; it <= o.iterations && !stopBetween(); ++it) {
      // entropy bonus decays linearly over the run (iterations or time budget, whichever is nearer)
      double progress = o.iterations > 1 ? static_cast<double>(it - 1) / (o.iterations - 1) : 0.0;
      if (o.budgetSeconds > 0) progress = std::max(progress, elapsed() / std::max(searchBudget, 1e-9));
      IterationReport rep;
      const double before = s.inc.bestStep;
      if (!iterate(done + it, progress, rep, within, passCancel)) break;
      if (distributed) {
        agree();
        rep.improved = s.inc.bestStep < before;
        rep.bestStepTime = s.inc.haveFeasible ? s.inc.bestStep : 0;
        rep.best = s.inc.haveAny ? &s.inc.best : nullptr;
      }
      rep.elapsed = elapsed();
      result.iterations = it;
      history.push_back(rep.bestStepTime);
      result.bestStepTimeHistory.push_back(rep.bestStepTime);
      if (onIteration) onIteration(rep);
      if (writes && !o.checkpoint.empty() && o.checkpointEvery > 0 && it % o.checkpointEvery == 0)
        saveSession(o.checkpoint, done + it, history);
      if (s.inc.bestStep < lastGain * (1 - 1e-3)) {
        lastGain = s.inc.bestStep;
        sinceGain = 0;
      } else if (o.patience > 0 && ++sinceGain >= o.patience) {
        stopped = StopReason::Converged;
        break;
      }
    }
    if (polished || !polishes || !writes || result.cancelled || cancelSet() || !s.inc.haveFeasible ||
        (stopped && *stopped != StopReason::Converged))
      break;
    polish(done + result.iterations, elapsed, history, result, onIteration, cancel, ranker ? &*ranker : nullptr,
           rankerFile);
    // nothing to polish: the search has the rest of the budget (one rank alone: the ranks'
    // iterations pair up, so a distributed run ends here)
    if (result.polishMoves > 0 || stopped || distributed || o.budgetSeconds <= 0 || it > o.iterations) break;
    searchBudget = o.budgetSeconds;
  }
  result.stopReason = stopped                             ? *stopped
                      : result.cancelled                  ? StopReason::Cancelled
                      : result.iterations >= o.iterations ? StopReason::Iterations
                                                          : StopReason::Budget;
  if (writes && !o.checkpoint.empty()) saveSession(o.checkpoint, done + result.iterations, history);
  result.best = bestPlan();
  result.measurement = s.inc.sim.run(result.best, /*recordTimeline=*/true);
  result.seconds = elapsed();
  return result;
}

void PpoTrainer::polish(int iterationsDone, const std::function<double()>& elapsed, std::vector<double>& history,
                        OptimizeResult& result, const IterationFn& onIteration, const std::atomic<bool>* cancel,
                        const MoveRanker* ranker, const std::string& rankerFile) {
  State& s = *s_;
  const OptimizeOptions& o = s.options;
  PolishOptions po;
  po.maxMoves = o.polishMoves;
  po.keep = o.polishKeep < 0 ? kPolishKeep : o.polishKeep;
  po.ranker = po.keep > 0 ? ranker : nullptr;
  result.polishRanking = po.keep == 0 ? "all" : po.ranker ? rankerFile : "path time";
  po.allowFusion = fusionAllowed(s.cost.graph());
  po.kinds = (s.tasks().placement ? moveKindBit(PlanMove::Kind::Op) | moveKindBit(PlanMove::Kind::Scope) : 0u) |
             (s.tasks().schedule ? moveKindBit(PlanMove::Kind::Priority) : 0u) |
             (s.tasks().fusion ? moveKindBit(PlanMove::Kind::Fuse) : 0u);
  const auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (o.budgetSeconds > 0 && elapsed() >= o.budgetSeconds);
  };
  int round = 0;
  const PolishResult r = polishPlan(s.cost, s.inc.best, po, stop, [&](const Plan& plan, double) {
    IterationReport rep;
    rep.iteration = iterationsDone + ++round;
    rep.polish = true;
    rep.meanReward = rep.bestReward = s.inc.consider(plan, rep.improved);
    rep.bestStepTime = s.inc.bestStep;
    rep.best = &s.inc.best;
    rep.elapsed = elapsed();
    history.push_back(rep.bestStepTime);
    result.bestStepTimeHistory.push_back(rep.bestStepTime);
    if (onIteration) onIteration(rep);
  });
  result.polishMoves = static_cast<int>(r.applied.size());
}

GdpPolicy makePolicy(int64_t featureDim, uint64_t seed, PolicyConfig config) {
  torch::manual_seed(seed);
  return GdpPolicy(featureDim, config);
}

}  // namespace gp::rl
