// One PPO iteration (PpoTrainer::iterate, ppo.h): sample, advantages, update.
#include <algorithm>
#include <cmath>
#include <optional>

#include "rl/ppo_state.h"

namespace gp::rl {
namespace {

double meanOf(const std::vector<double>& rewards) {
  double sum = 0;
  for (double r : rewards) sum += r;
  return sum / static_cast<double>(rewards.size());
}

// Leave-one-out advantages (the mean reward of the other samples as the baseline; with one
// sample, `valueEstimate`), normalised by their standard deviation: [K].
torch::Tensor advantages(const std::vector<double>& rewards, double valueEstimate) {
  const auto n = static_cast<int64_t>(rewards.size());
  double sum = 0;
  for (double r : rewards) sum += r;
  std::vector<float> adv(static_cast<size_t>(n));
  double sq = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double baseline = n > 1 ? (sum - rewards[k]) / static_cast<double>(n - 1) : valueEstimate;
    adv[k] = static_cast<float>(rewards[k] - baseline);
    sq += adv[k] * adv[k];
  }
  const double stdev = std::sqrt(sq / static_cast<double>(n));
  if (stdev > 1e-8)
    for (float& a : adv) a = static_cast<float>(a / stdev);
  return torch::tensor(adv);
}

}  // namespace

bool PpoTrainer::iterate(int iteration, double progress, IterationReport& rep, const StopFn& stop,
                         const std::atomic<bool>* cancel) {
  State& s = *s_;
  s.policy->train();
  rep.iteration = iteration;
  std::optional<State::Samples> x = s.sample(iteration, rep.improved, stop, cancel);
  if (!x) return false;
  const double meanReward = meanOf(x->rewards);
  const torch::Tensor adv = advantages(x->rewards, x->decided.out.value.item<double>());
  if (!s.update(*x, adv, meanReward, progress, rep, stop, cancel)) return false;
  rep.meanReward = meanReward;
  rep.bestReward = *std::max_element(x->rewards.begin(), x->rewards.end());
  rep.bestStepTime = s.inc.haveFeasible ? s.inc.bestStep : 0;
  rep.best = s.inc.haveAny ? &s.inc.best : nullptr;
  return true;
}

std::optional<PpoTrainer::State::Samples> PpoTrainer::State::sample(int iteration, bool& improved,
                                                                    const std::function<bool()>& stop,
                                                                    const std::atomic<bool>* cancel) {
  const int64_t K = std::max(1, options.samplesPerIteration);
  refreshCurrentDevices();
  Samples x;
  x.job = job();
  x.job.samples = K;
  x.segments = options.update && config.gstOps > 0 && features.numOps > config.gstOps;
  if (x.segments) x.job.record = std::make_shared<HistoryTable>();
  std::optional<Decided> first;
  {
    std::optional<torch::NoGradGuard> noGrad;  // no update, or GST: no autograd graph here
    if (!options.update || x.segments) noGrad.emplace();
    first = decide(x.job, stop, cancel);
  }
  if (!first) return std::nullopt;
  x.decided = std::move(*first);
  const int64_t batch = inc.batch();  // simulated together (on several threads for big graphs)
  for (int64_t k = 0; k < K && !stop(); k += batch) {
    std::vector<Decisions> ds;
    for (int64_t j = k; j < std::min(K, k + batch); ++j) ds.push_back(decisionsOf(x.decided, j));
    for (const auto& scored : considerAll(ds, improved)) x.rewards.push_back(scored.reward);
  }
  if (stop() || static_cast<int64_t>(x.rewards.size()) < K) return std::nullopt;
  if (iteration == 1 || (config.greedyEvery > 0 && iteration % config.greedyEvery == 0))
    considerGreedy(x.decided.out, improved);
  localSearch(x.decided, improved, stop);
  return x;
}

std::vector<torch::Tensor> PpoTrainer::State::taken(const Decided& d) const {
  std::vector<torch::Tensor> lp;
  for (const TaskState& t : active) lp.push_back(t.taken(d.logp[t.task], d.act[t.task]));
  return lp;
}

torch::Tensor PpoTrainer::State::entropy(const Decided& d) const {
  torch::Tensor e = torch::zeros({});
  for (const TaskState& t : active) e = e + t.entropy(d.logp[t.task]);
  return e;
}

bool PpoTrainer::State::update(Samples& x, const torch::Tensor& adv, double meanReward, double progress,
                               IterationReport& rep, const std::function<bool()>& stop,
                               const std::atomic<bool>* cancel) {
  const PpoConfig& cfg = config;
  const double entCoef = cfg.entropyStart + (cfg.entropyEnd - cfg.entropyStart) * std::clamp(progress, 0.0, 1.0);
  Decided& d = x.decided;
  std::vector<torch::Tensor> old = taken(d);
  for (auto& o : old) o = o.detach();
  const int epochs = options.update ? cfg.epochs : 0;
  if (!options.update) rep.entropy = entropy(d).item<double>();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if ((epoch > 0 || x.segments) && !reevaluate(x, stop, cancel)) return false;
    const std::vector<torch::Tensor> now = taken(d);
    torch::Tensor surrogate = torch::zeros({});
    for (size_t i = 0; i < active.size(); ++i)
      surrogate = surrogate + active[i].surrogate(now[i], old[i], adv, cfg.clip);
    const torch::Tensor e = entropy(d);
    if (epoch == 0) rep.entropy = e.item<double>();
    const torch::Tensor valueLoss = (d.out.value - meanReward).pow(2);
    if (!applyGradient(-surrogate - entCoef * e + cfg.valueCoef * valueLoss, stop)) return false;
  }
  return true;
}

bool PpoTrainer::State::reevaluate(Samples& x, const std::function<bool()>& stop, const std::atomic<bool>* cancel) {
  Decided& d = x.decided;
  DecideJob again = job();
  if (x.segments) {
    again.input = x.job.input;  // the table's input
    again.table = x.job.record;
    again.sample = sampleSegments(features.numOps, config.gstSegment,
                                  std::max<int64_t>(1, config.gstOps / config.gstSegment), config.gstKeep, generator);
  }
  again.bonus = x.job.bonus;  // the sampling distribution's bonuses, not the new incumbent's
  again.given = d.act;
  again.samples = x.job.samples;
  std::optional<Decided> y = decide(again, stop, cancel);
  if (!y) return false;
  d.out = y->out;
  d.logp = y->logp;
  return true;
}

void PpoTrainer::State::localSearch(const Decided& sampled, bool& improved, const std::function<bool()>& stop) {
  if (config.localMoves <= 0 || !inc.haveFeasible) return;
  const int batch = inc.batch();
  const int levelMoves = std::max(1, config.localMoves / 2);
  std::optional<Decided> given;  // level probabilities given the incumbent's devices (and schedule)
  for (TaskState& t : active) {
    const EvaluateBatch evaluate =
        evaluator(best, improved, [&t](Decisions& d, const std::vector<int32_t>& c) { taskDecisions(t.task, d) = c; });
    if (t.task == Task::Placement) {
      t.search(taskDecisions(t.task, best), sampled.logp[t.task], config.localMoves, inc.bestStep, evaluate, stop,
               batch);
      continue;
    }
    torch::NoGradGuard noGrad;
    if (!given) {
      DecideJob j = job();
      j.out = sampled.out;
      for (Task k : kTasks) j.given[k] = asOneSample(k, j.best[k]);
      given = j();
    }
    if (!stop())
      t.search(taskDecisions(t.task, best), firstSample(t.task, given->logp[t.task]), levelMoves, inc.bestStep,
               evaluate, stop, batch);
  }
}

}  // namespace gp::rl
