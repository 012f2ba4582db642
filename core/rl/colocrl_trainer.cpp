// REINFORCE for the ColocRL policy against the simulator. See colocrl_trainer.h.
#include "rl/colocrl_trainer.h"
#include "rl/incumbent.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>

#include "base/error.h"
#include "rl/cancellable.h"
#include "rl/graph_features.h"
#include "sim/simulator.h"

namespace gp::rl {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<int32_t> toVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kInt32).contiguous();
  return {c.data_ptr<int32_t>(), c.data_ptr<int32_t>() + c.numel()};
}

// On a stop, the decode's autograd graph (about 13 ms to free at 256 chunks) is freed on a
// reaped helper thread, off the cancel latency.
void discard(std::optional<ColocDecode>& dec) {
  if (dec) destroyLater(std::move(*dec));
  dec.reset();
}

}  // namespace

OptimizeResult runColocRl(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                          const std::atomic<bool>* cancel) {
  return trainColocRl(cost, options, ColocRlTrainConfig{}, onIteration, cancel);
}

OptimizeResult trainColocRl(const CostModel& cost, const OptimizeOptions& o, const ColocRlTrainConfig& cfg,
                            const IterationFn& onIteration, const std::atomic<bool>* cancel) {
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const Graph& g = cost.graph();
  if (!o.saveCheckpoint.empty())
    throw Error("colocrl", "cannot save a ColocRL policy (--save-policy is for GDP policies)");
  if (o.startPlan && o.startPlan->device.size() != static_cast<size_t>(g.numOps()))
    throw Error("colocrl", "the start plan has " + std::to_string(o.startPlan->device.size()) + " ops, the graph " +
                               std::to_string(g.numOps()));
  if (cost.cluster().numDevices() > cfg.net.maxDevices)
    throw Error("colocrl", "the policy places on at most " + std::to_string(cfg.net.maxDevices) +
                               " devices, the cluster has " + std::to_string(cost.cluster().numDevices()));
  if (g.numOps() == 0) throw Error("colocrl", "the graph has no ops to place");

  OptimizeResult result;
  auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (o.budgetSeconds > 0 && elapsed() >= o.budgetSeconds);
  };

  const GraphFeatures features = buildGraphFeatures(g, cost);
  const ColocGroups groups = buildColocGroups(g, cost, features, cfg.maxGroups);
  const ColocInput input = toColocInput(groups);
  result.note = "ColocRL: " + std::to_string(groups.numGroups) + " co-location groups (of " +
                std::to_string(features.numGroups) + " move groups, " + std::to_string(features.numUnits) +
                " placement units)";
  const int64_t D = cost.cluster().numDevices();
  const int64_t K = std::max(1, o.samplesPerIteration);
  torch::manual_seed(o.seed);
  ColocRlPolicy policy(cfg.net);
  torch::optim::Adam optimizer(policy->parameters(), torch::optim::AdamOptions(cfg.learningRate));
  at::Generator generator = at::detail::createCPUGenerator(o.seed);
  Incumbent inc(cost);
  const std::vector<int32_t> priority = cfg.priorities ? features.priority : std::vector<int32_t>{};
  auto planOf = [&](const torch::Tensor& groupDevices) {
    Plan p = planFromUnits(features, unitsFromGroups(groups, toVector(groupDevices)));
    p.priority = priority;
    return p;
  };
  auto greedy = [&](bool& improved) {
    torch::NoGradGuard noGrad;
    policy->eval();
    if (auto dec = policy->decode(input, D, 1, nullptr, stop)) inc.consider(planOf(dec->devices[0]), improved);
  };

  bool unused = false;
  if (o.startPlan && !stop()) inc.consider(*o.startPlan, unused);
  if (o.iterations <= 0 && !stop()) greedy(unused);

  double baseline = 0, variance = 0;
  bool haveBaseline = false;
  for (int it = 1; it <= o.iterations && !stop(); ++it) {
    IterationReport rep;
    rep.iteration = it;
    policy->train();
    std::optional<ColocDecode> dec = policy->decode(input, D, K, &generator, stop, cancel);
    if (!dec) break;
    std::vector<double> rewards;
    for (int64_t k = 0; k < K && !stop(); ++k) rewards.push_back(inc.consider(planOf(dec->devices[k]), rep.improved));
    if (static_cast<int64_t>(rewards.size()) < K) {
      discard(dec);
      break;
    }
    if (it == 1 || (cfg.greedyEvery > 0 && it % cfg.greedyEvery == 0)) {
      greedy(rep.improved);
      policy->train();
      if (stop()) {
        discard(dec);
        break;
      }
    }

    // moving-average baseline and spread
    double mean = 0;
    for (double r : rewards) mean += r;
    mean /= static_cast<double>(K);
    double batchVar = 0;
    for (double r : rewards) batchVar += (r - mean) * (r - mean);
    batchVar /= static_cast<double>(K);
    if (!haveBaseline) {
      baseline = mean;
      variance = batchVar;
      haveBaseline = true;
    }
    double sq = 0;
    for (double r : rewards) sq += (r - baseline) * (r - baseline);
    variance = cfg.baselineDecay * variance + (1 - cfg.baselineDecay) * sq / static_cast<double>(K);
    const double scale = 1.0 / std::max(std::sqrt(variance), 1e-4);
    std::vector<float> adv(static_cast<size_t>(K));
    for (int64_t k = 0; k < K; ++k) adv[static_cast<size_t>(k)] = static_cast<float>((rewards[k] - baseline) * scale);
    baseline = cfg.baselineDecay * baseline + (1 - cfg.baselineDecay) * mean;

    const double chunks = static_cast<double>(input.numGroups);
    const torch::Tensor pg = -(torch::tensor(adv) * dec->logProb).mean() / chunks;
    const torch::Tensor loss = pg - cfg.entropyCoef * dec->entropy;
    rep.entropy = dec->entropy.item<double>();
    optimizer.zero_grad();
    try {
      loss.backward();
    } catch (const ColocBackwardAbandoned&) {
      stop();
      discard(dec);
      break;
    }
    dec.reset();  // frees the graph (and the hooks) before the step
    torch::nn::utils::clip_grad_norm_(policy->parameters(), cfg.maxGradNorm);
    optimizer.step();

    rep.meanReward = mean;
    rep.bestReward = *std::max_element(rewards.begin(), rewards.end());
    rep.bestStepTime = inc.haveFeasible ? inc.bestStep : 0;
    rep.elapsed = elapsed();
    rep.best = inc.haveAny ? &inc.best : nullptr;
    result.iterations = it;
    result.bestStepTimeHistory.push_back(rep.bestStepTime);
    if (onIteration) onIteration(rep);
  }

  result.best = inc.bestOr(features);
  result.measurement = inc.sim.run(result.best, /*recordTimeline=*/true);
  result.seconds = elapsed();
  return result;
}

}  // namespace gp::rl
