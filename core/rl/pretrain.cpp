#include "rl/pretrain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "base/error.h"
#include "rl/cancellable.h"
#include "rl/graph_features.h"
#include "rl/ppo.h"
#include "rl/pretrain_session.h"

namespace gp::rl {
namespace {

constexpr int kMaxZeroShotSamples = 16;

// 1 - result / start, 0 when either is not a finite positive step time.
double gain(double start, double result) {
  return std::isfinite(start) && std::isfinite(result) && start > 0 ? 1.0 - result / start : 0.0;
}

}  // namespace

PretrainResult runPretrain(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                           const PretrainFn& onReport, const std::atomic<bool>* cancel) {
  if (tasks.empty()) throw Error("pretrain", "no graphs to train on");
  if (options.out.empty()) throw Error("pretrain", "no output file for the policy");
  std::vector<size_t> train, heldOut;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!tasks[i].cost) throw Error("pretrain", "task " + tasks[i].name + " has no graph");
    (tasks[i].heldOut ? heldOut : train).push_back(i);
  }
  if (train.empty()) throw Error("pretrain", "every task is held out: nothing to train on");
  setTorchThreads(options.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  PretrainResult result;
  auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (options.budgetSeconds > 0 && elapsed() >= options.budgetSeconds);
  };

  // the network: a session, a policy file, or new (its feature width is the same for every graph)
  const int64_t featureDim = buildGraphFeatures(tasks[0].cost->graph(), *tasks[0].cost).featureDim;
  std::optional<LoadedPretrainSession> session;
  if (!options.resume.empty()) session = loadPretrainSession(options.resume, train.size());
  const std::string source = session ? options.resume : options.from;
  GdpPolicy policy = session             ? session->policy
                     : source.empty()    ? makePolicy(featureDim, options.seed)
                                         : loadCheckpoint(source);
  if (policy->featureDim() != featureDim)
    throw Error(source, "the policy takes " + std::to_string(policy->featureDim()) +
                            " features per op, this version's graphs have " + std::to_string(featureDim));
  torch::manual_seed(options.seed + (session ? static_cast<uint64_t>(session->session.rounds) : 0));
  PpoConfig config;
  auto optimizer =
      std::make_shared<torch::optim::Adam>(policy->parameters(), torch::optim::AdamOptions(config.learningRate));
  if (session) optimizer->load(session->optimizerState);
  const int done = session ? session->session.rounds : 0;
  const double secondsBefore = session ? session->session.seconds : 0;
  if (session) result.curve = session->session.curve;

  auto optionsFor = [&](size_t i) {
    const PretrainTask& t = tasks[i];
    if (t.cost->cluster().numDevices() > policy->config().maxDevices)
      throw Error(t.name, "the policy places on at most " + std::to_string(policy->config().maxDevices) + " devices");
    OptimizeOptions o;
    o.seed = options.seed + i;
    o.samplesPerIteration = options.samplesPerIteration;
    o.startPlan = t.startPlan;
    o.tasks = options.tasks;
    o.fuse = options.fuse;
    o.update = options.method == PretrainMethod::Ppo;
    return o;
  };
  result.startStepTime.assign(tasks.size(), 0.0);
  result.bestStepTime.assign(tasks.size(), 0.0);
  std::vector<std::unique_ptr<PpoTrainer>> trainers;
  for (size_t k = 0; k < train.size(); ++k) {
    const size_t i = train[k];
    trainers.push_back(std::make_unique<PpoTrainer>(*tasks[i].cost, optionsFor(i), policy, optimizer, config));
    trainers.back()->begin();
    if (session) trainers.back()->adopt(session->session.best[k]);
    result.startStepTime[i] = trainers.back()->startStepTime();
    result.bestStepTime[i] = trainers.back()->bestStepTime();
  }

  CancelHooks hooks(policy->parameters(), cancel);
  auto cancelled = [&] {  // evaluations finish past the time budget, not past a cancel
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled;
  };
  // Zero-shot on every held-out task (a fresh trainer each time: nothing carries over), as
  // optimize --iterations 0 does it; adds a point to the curve. False when stopped.
  auto evaluate = [&](int round) {
    if (heldOut.empty()) return true;
    PretrainCurvePoint point{round, secondsBefore + elapsed(), 0, 0};
    for (size_t i : heldOut) {
      OptimizeOptions o = optionsFor(i);
      o.iterations = 0;
      o.samplesPerIteration = std::min(options.samplesPerIteration, kMaxZeroShotSamples);
      PpoTrainer t(*tasks[i].cost, o, policy, optimizer, config);
      t.begin();
      t.zeroShot(cancelled, cancel);
      const double own = t.ownPlan(cancelled, cancel);
      if (cancelled()) return false;
      PretrainReport r;
      r.round = round;
      r.task = static_cast<int>(i);
      r.evaluation = true;
      r.startStepTime = result.startStepTime[i] = t.startStepTime();
      r.bestStepTime = result.bestStepTime[i] = t.bestStepTime();
      r.ownStepTime = own;
      r.elapsed = elapsed();
      point.zeroShotGain += gain(r.startStepTime, r.bestStepTime) / static_cast<double>(heldOut.size());
      point.greedyGain += std::max(-1.0, gain(r.startStepTime, own)) / static_cast<double>(heldOut.size());
      if (onReport) onReport(r);
    }
    result.curve.push_back(point);
    return true;
  };
  auto save = [&] {
    saveCheckpoint(policy, options.out);
    if (options.checkpoint.empty()) return;
    PretrainSession s{result.rounds, secondsBefore + elapsed(), result.curve, {}};
    for (const auto& t : trainers) s.best.push_back(t->bestDecisions());
    savePretrainSession(policy, *optimizer, s, options.checkpoint);
  };

  result.rounds = done;
  int lastEval = result.curve.empty() ? -1 : result.curve.back().round;
  if (done == 0 && evaluate(0)) lastEval = 0;
  for (int it = 1; it <= options.rounds && !stop(); ++it) {
    const int round = done + it;
    double progress = options.rounds > 1 ? static_cast<double>(it - 1) / (options.rounds - 1) : 0.0;
    if (options.budgetSeconds > 0) progress = std::max(progress, elapsed() / options.budgetSeconds);
    bool complete = true;
    for (size_t k = 0; k < trainers.size() && complete; ++k) {
      IterationReport rep;
      complete = trainers[k]->iterate(round, progress, rep, stop, cancel);
      if (!complete) break;
      PretrainReport r;
      r.round = round;
      r.task = static_cast<int>(train[k]);
      r.meanReward = rep.meanReward;
      r.entropy = rep.entropy;
      if (options.method == PretrainMethod::Expert) {
        const PpoTrainer::Imitation im = trainers[k]->imitate(stop, cancel);
        if (!im.done) {
          complete = false;
          break;
        }
        r.ownStepTime = im.ownStepTime;
        r.loss = im.loss;
      }
      r.startStepTime = trainers[k]->startStepTime();
      r.bestStepTime = result.bestStepTime[train[k]] = trainers[k]->bestStepTime();
      r.elapsed = elapsed();
      if (onReport) onReport(r);
    }
    // replay: more passes over every task's best decisions (the fit the search has earned)
    for (int epoch = 1; complete && options.method == PretrainMethod::Expert && epoch < options.fitEpochs; ++epoch)
      for (auto& trainer : trainers)
        if (std::isnan(trainer->fitBest(stop, cancel)) && stop()) {
          complete = false;
          break;
        }
    if (!complete) break;
    result.rounds = round;
    if (options.evalEvery > 0 && round % options.evalEvery == 0) {
      if (!evaluate(round)) break;
      lastEval = round;
    }
    if (round % 5 == 0) save();
  }
  if (!result.cancelled && lastEval != result.rounds) evaluate(result.rounds);
  save();
  result.seconds = elapsed();
  return result;
}

}  // namespace gp::rl
