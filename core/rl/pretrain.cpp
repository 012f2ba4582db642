#include "rl/pretrain.h"

#include <chrono>
#include <memory>

#include "graph/error.h"
#include "rl/cancellable.h"
#include "rl/graph_features.h"
#include "rl/ppo.h"

namespace gp::rl {

PretrainResult runPretrain(const std::vector<PretrainTask>& tasks, const PretrainOptions& options,
                           const PretrainFn& onReport, const std::atomic<bool>* cancel) {
  if (tasks.empty()) throw Error("pretrain", "no graphs to train on");
  if (options.out.empty()) throw Error("pretrain", "no output file for the policy");
  setTorchThreads(options.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  PretrainResult result;
  auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (options.budgetSeconds > 0 && elapsed() >= options.budgetSeconds);
  };

  // the network: from a file, or new (its feature width is the same for every graph)
  const int64_t featureDim = buildGraphFeatures(tasks[0].cost->graph(), *tasks[0].cost).featureDim;
  GdpPolicy policy = options.from.empty() ? makePolicy(featureDim, options.seed) : loadCheckpoint(options.from);
  if (policy->featureDim() != featureDim)
    throw Error(options.from, "the policy takes " + std::to_string(policy->featureDim()) +
                                  " features per op, this version's graphs have " + std::to_string(featureDim));
  torch::manual_seed(options.seed);
  PpoConfig config;
  auto optimizer =
      std::make_shared<torch::optim::Adam>(policy->parameters(), torch::optim::AdamOptions(config.learningRate));
  std::vector<std::unique_ptr<PpoTrainer>> trainers;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const PretrainTask& t = tasks[i];
    if (!t.cost) throw Error("pretrain", "task " + t.name + " has no graph");
    if (t.cost->cluster().numDevices() > policy->config().maxDevices)
      throw Error(t.name, "the policy places on at most " + std::to_string(policy->config().maxDevices) + " devices");
    OptimizeOptions o;
    o.seed = options.seed + i;
    o.samplesPerIteration = options.samplesPerIteration;
    o.startPlan = t.startPlan;
    o.tasks = options.tasks;
    o.fuse = options.fuse;
    trainers.push_back(std::make_unique<PpoTrainer>(*t.cost, o, policy, optimizer, config));
    trainers.back()->begin();
    result.startStepTime.push_back(trainers.back()->startStepTime());
  }

  CancelHooks hooks(policy->parameters(), cancel);
  for (int round = 1; round <= options.rounds && !stop(); ++round) {
    double progress = options.rounds > 1 ? static_cast<double>(round - 1) / (options.rounds - 1) : 0.0;
    if (options.budgetSeconds > 0) progress = std::max(progress, elapsed() / options.budgetSeconds);
    bool complete = true;
    for (size_t i = 0; i < trainers.size() && complete; ++i) {
      IterationReport rep;
      complete = trainers[i]->iterate(round, progress, rep, stop, cancel);
      if (!complete) break;
      PretrainReport r;
      r.round = round;
      r.task = static_cast<int>(i);
      r.meanReward = rep.meanReward;
      r.startStepTime = trainers[i]->startStepTime();
      r.bestStepTime = trainers[i]->bestStepTime();
      r.entropy = rep.entropy;
      r.elapsed = elapsed();
      if (onReport) onReport(r);
    }
    if (!complete) break;
    result.rounds = round;
    if (round % 5 == 0) saveCheckpoint(policy, options.out);
  }
  saveCheckpoint(policy, options.out);
  for (const auto& t : trainers) result.bestStepTime.push_back(t->bestStepTime());
  result.seconds = elapsed();
  return result;
}

}  // namespace gp::rl
