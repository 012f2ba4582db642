#include "rl/pretrain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "base/error.h"
#include "rl/cancellable.h"
#include "rl/graph_features.h"
#include "rl/ppo.h"
#include "rl/training_ranks.h"
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
  TrainingRanks ranks(options.distributed, options.distTimeoutSeconds);
  const bool distributed = ranks.distributed();
  const int threads = TrainingRanks::threadsFor(options.distributed, options.threads);
  setTorchThreads(threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  PretrainResult result;
  result.rank = ranks.rank();
  result.worldSize = ranks.world();
  auto cancelSet = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  auto budgetSpent = [&] { return options.budgetSeconds > 0 && elapsed() >= options.budgetSeconds; };
  auto stop = [&] {
    if (cancelSet()) result.cancelled = true;
    return result.cancelled || budgetSpent();
  };
  // Between rounds: with several ranks, every rank stops when one was interrupted or the budget is
  // spent; within a round a distributed run never stops (the ranks' updates must pair up).
  auto stopBeforeRound = [&] {
    return distributed ? ranks.stopTogether(cancelSet(), budgetSpent(), result.cancelled) : stop();
  };
  const PpoTrainer::StopFn inRound = distributed ? PpoTrainer::StopFn([] { return false; }) : PpoTrainer::StopFn(stop);
  const std::atomic<bool>* passCancel = distributed ? nullptr : cancel;

  // the network: a session, a policy file, or new (its feature width is the same for every graph)
  const int64_t featureDim = buildGraphFeatures(tasks[0].cost->graph(), *tasks[0].cost).featureDim;
  std::optional<LoadedPretrainSession> session;
  if (!options.resume.empty()) session = loadPretrainSession(options.resume, train.size());
  const std::string source = session ? options.resume : options.from;
  GdpPolicy policy = session             ? session->policy
                     : source.empty()    ? makePolicy(featureDim, options.seed, PolicyConfig{.keepPrior = options.keepPrior, .relativeDevices = options.relativeDevices})
                                         : loadCheckpoint(source);
  if (policy->featureDim() != featureDim)
    throw Error(source, "the policy takes " + std::to_string(policy->featureDim()) +
                            " features per op, this version's graphs have " + std::to_string(featureDim));
  ranks.shareWeights(policy);
  torch::manual_seed(options.seed + (session ? static_cast<uint64_t>(session->session.rounds) : 0));
  PpoConfig config;
  config.balancedImitation = options.balancedFit;
  auto optimizer =
      std::make_shared<torch::optim::Adam>(policy->parameters(), torch::optim::AdamOptions(config.learningRate));
  if (session) optimizer->load(session->optimizerState);
  const std::shared_ptr<GradientSync> sync = ranks.sync(policy, config.maxGradNorm);
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
    o.threads = threads;
    return o;
  };
  result.startStepTime.assign(tasks.size(), 0.0);
  result.bestStepTime.assign(tasks.size(), 0.0);
  // this rank's training tasks, slot by slot (null: no task in that slot here)
  const std::vector<int> slots = ranks.slots(train, tasks);
  std::vector<std::unique_ptr<PpoTrainer>> trainers(slots.size());
  for (size_t j = 0; j < slots.size(); ++j) {
    if (slots[j] < 0) continue;
    const size_t i = train[slots[j]];
    trainers[j] = std::make_unique<PpoTrainer>(*tasks[i].cost, optionsFor(i), policy, optimizer, config);
    trainers[j]->shareUpdates(sync);
    trainers[j]->begin();
    if (session) trainers[j]->adopt(session->session.best[slots[j]]);
    result.startStepTime[i] = trainers[j]->startStepTime();
    result.bestStepTime[i] = trainers[j]->bestStepTime();
  }
  // Every slot meets the same number of update points on every rank: a rank whose task skipped
  // an update (nothing feasible to imitate yet) or that has no task there takes part without
  // gradients.
  auto padUpdates = [&](int64_t until) {
    if (sync->steps() > until) throw Error("pretrain", "a training step made more updates than its slot allows");
    while (sync->steps() < until) sync->step(*optimizer, false);
  };
  const int updatesPerStep = options.method == PretrainMethod::Ppo ? config.epochs : 1;

  // A distributed run reports on rank 0, every rank's reports of a round at its end, then the
  // ranks' health (seconds worked and waited in the round).
  std::vector<PretrainReport> pending;
  auto report = [&](PretrainReport r) {
    r.rank = ranks.rank();
    if (!distributed) {
      if (onReport) onReport(r);
    } else {
      pending.push_back(std::move(r));
    }
  };
  double roundStart = elapsed(), waitedBefore = ranks.collectiveSeconds();
  auto flush = [&](int round, bool health) {
    if (!distributed) return;
    constexpr size_t kFields = 10;
    std::vector<double> packed;
    for (const PretrainReport& r : pending)
      packed.insert(packed.end(), {static_cast<double>(r.round), static_cast<double>(r.task), r.evaluation ? 1.0 : 0.0,
                                   r.meanReward, r.startStepTime, r.bestStepTime, r.ownStepTime, r.loss, r.entropy,
                                   r.elapsed});
    const double waited = ranks.collectiveSeconds() - waitedBefore;
    packed.push_back(elapsed() - roundStart - waited);
    packed.push_back(waited);
    const std::vector<std::vector<double>> all = ranks.gather(packed);
    pending.clear();
    roundStart = elapsed();
    waitedBefore = ranks.collectiveSeconds();
    if (ranks.rank() != 0 || !onReport) return;
    std::vector<PretrainReport> reports;
    PretrainReport h;
    h.round = round;
    h.task = -1;
    h.rankHealth = true;
    for (size_t from = 0; from < all.size(); ++from) {
      const std::vector<double>& p = all[from];
      for (size_t at = 0; at + kFields + 2 <= p.size(); at += kFields) {
        PretrainReport r;
        r.round = static_cast<int>(p[at]);
        r.task = static_cast<int>(p[at + 1]);
        r.evaluation = p[at + 2] > 0;
        r.meanReward = p[at + 3];
        r.startStepTime = p[at + 4];
        r.bestStepTime = p[at + 5];
        r.ownStepTime = p[at + 6];
        r.loss = p[at + 7];
        r.entropy = p[at + 8];
        r.elapsed = p[at + 9];
        r.rank = static_cast<int>(from);
        reports.push_back(r);
      }
      h.rankBusy.push_back(p[p.size() - 2]);
      h.rankWaiting.push_back(p.back());
    }
    std::stable_sort(reports.begin(), reports.end(), [](const PretrainReport& a, const PretrainReport& b) {
      return std::make_pair(a.evaluation, a.task) < std::make_pair(b.evaluation, b.task);
    });
    for (const PretrainReport& r : reports) onReport(r);
    h.elapsed = elapsed();
    if (health) onReport(h);
  };

  CancelHooks hooks(policy->parameters(), passCancel);
  auto cancelled = [&] {  // evaluations finish past the time budget, not past a cancel
    if (!distributed && cancelSet()) result.cancelled = true;
    return !distributed && result.cancelled;
  };
  // Zero-shot on every held-out task (a fresh trainer each time: nothing carries over), as
  // optimize --iterations 0 does it; adds a point to the curve. False when stopped.
  auto evaluate = [&](int round) {
    if (heldOut.empty()) return true;
    const double seconds = secondsBefore + elapsed();
    double zeroShot = 0, greedy = 0;  // summed over this rank's held-out tasks
    for (size_t h = 0; h < heldOut.size(); ++h) {
      if (!ranks.evaluates(h)) continue;
      const size_t i = heldOut[h];
      OptimizeOptions o = optionsFor(i);
      o.iterations = 0;
      o.samplesPerIteration = std::min(options.samplesPerIteration, kMaxZeroShotSamples);
      PpoTrainer t(*tasks[i].cost, o, policy, optimizer, config);
      t.begin();
      t.zeroShot(cancelled, passCancel);
      const double own = t.ownPlan(cancelled, passCancel);
      if (cancelled()) return false;
      PretrainReport r;
      r.round = round;
      r.task = static_cast<int>(i);
      r.evaluation = true;
      r.startStepTime = result.startStepTime[i] = t.startStepTime();
      r.bestStepTime = result.bestStepTime[i] = t.bestStepTime();
      r.ownStepTime = own;
      r.elapsed = elapsed();
      zeroShot += gain(r.startStepTime, r.bestStepTime);
      greedy += std::max(-1.0, gain(r.startStepTime, own));
      report(r);
    }
    const std::vector<double> sums = ranks.sum({zeroShot, greedy});
    const auto n = static_cast<double>(heldOut.size());
    result.curve.push_back({round, seconds, sums[0] / n, sums[1] / n});
    return true;
  };
  // The policy file (and the session, with every rank's best decisions), written by rank 0.
  auto save = [&] {
    ranks.checkSameWeights(policy, result.rounds);
    if (ranks.rank() == 0) saveCheckpoint(policy, options.out);
    if (options.checkpoint.empty()) return;
    std::vector<std::pair<int, Decisions>> mine;
    for (size_t j = 0; j < slots.size(); ++j)
      if (trainers[j]) mine.emplace_back(slots[j], trainers[j]->bestDecisions());
    PretrainSession s{result.rounds, secondsBefore + elapsed(), result.curve, ranks.gather(mine, train.size())};
    if (ranks.rank() == 0) savePretrainSession(policy, *optimizer, s, options.checkpoint);
  };

  result.rounds = done;
  int lastEval = result.curve.empty() ? -1 : result.curve.back().round;
  if (done == 0 && evaluate(0)) lastEval = 0;
  flush(done, false);
  for (int it = 1; it <= options.rounds && !stopBeforeRound(); ++it) {
    const int round = done + it;
    double progress = options.rounds > 1 ? static_cast<double>(it - 1) / (options.rounds - 1) : 0.0;
    if (options.budgetSeconds > 0) progress = std::max(progress, elapsed() / options.budgetSeconds);
    // A task's step: its search (a PPO iteration, with its update under ppo), then under expert
    // the policy's own plan and the imitation update; false when stopped.
    std::vector<PretrainReport> reps(slots.size());
    auto search = [&](size_t j) {
      IterationReport rep;
      if (!trainers[j]->iterate(round, progress, rep, inRound, passCancel)) return false;
      result.samples += std::max(1, options.samplesPerIteration);
      PretrainReport& r = reps[j];
      r.round = round;
      r.task = static_cast<int>(train[slots[j]]);
      r.meanReward = rep.meanReward;
      r.entropy = rep.entropy;
      return true;
    };
    auto learn = [&](size_t j) {
      PretrainReport& r = reps[j];
      if (options.method == PretrainMethod::Expert) {
        const PpoTrainer::Imitation im = trainers[j]->imitate(inRound, passCancel);
        if (!im.done) return false;
        r.ownStepTime = im.ownStepTime;
        r.loss = im.loss;
      }
      r.startStepTime = trainers[j]->startStepTime();
      r.bestStepTime = result.bestStepTime[static_cast<size_t>(r.task)] = trainers[j]->bestStepTime();
      r.elapsed = elapsed();
      report(r);
      return true;
    };
    // With several ranks, expert iteration first searches all of this rank's tasks (no
    // collective: the ranks' loads even out over the round), then the ranks learn slot by slot,
    // in step; one process interleaves them, each search seeing the updates before it.
    const bool searchFirst = distributed && options.method == PretrainMethod::Expert;
    bool complete = true;
    for (size_t j = 0; searchFirst && j < slots.size() && complete; ++j)
      if (trainers[j]) complete = search(j);
    for (size_t j = 0; j < slots.size() && complete; ++j) {
      const int64_t before = sync->steps();
      if (trainers[j]) complete = (searchFirst || search(j)) && learn(j);
      if (!complete) break;
      padUpdates(before + updatesPerStep);
    }
    // replay: more passes over every task's best decisions (the fit the search has earned)
    for (int epoch = 1; complete && options.method == PretrainMethod::Expert && epoch < options.fitEpochs; ++epoch)
      for (size_t j = 0; j < slots.size(); ++j) {
        const int64_t before = sync->steps();
        if (trainers[j] && std::isnan(trainers[j]->fitBest(inRound, passCancel)) && inRound()) {
          complete = false;
          break;
        }
        padUpdates(before + 1);
      }
    if (!complete) break;
    result.rounds = round;
    if (options.evalEvery > 0 && round % options.evalEvery == 0) {
      if (!evaluate(round)) break;
      lastEval = round;
    }
    if (round % 5 == 0) save();
    flush(round, true);
  }
  if (!result.cancelled && lastEval != result.rounds) evaluate(result.rounds);
  save();
  flush(result.rounds, false);
  result.seconds = elapsed();
  if (distributed) {  // every rank's tasks and samples (each entry is set by the rank that owns the task)
    std::vector<double> all = result.startStepTime;
    all.insert(all.end(), result.bestStepTime.begin(), result.bestStepTime.end());
    all.push_back(static_cast<double>(result.samples));
    all = ranks.sum(std::move(all));
    std::copy(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(tasks.size()), result.startStepTime.begin());
    std::copy(all.begin() + static_cast<std::ptrdiff_t>(tasks.size()), all.end() - 1, result.bestStepTime.begin());
    result.samples = static_cast<int64_t>(all.back());
  }
  return result;
}

}  // namespace gp::rl
