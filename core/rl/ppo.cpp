#include "rl/ppo.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "cluster/cluster.h"
#include "graph/error.h"
#include "rl/graph_features.h"
#include "rl/local_search.h"
#include "rl/policy_tensors.h"
#include "sim/simulator.h"

namespace gp::rl {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kCheckpointFormat = 1;

struct Cancelled {};  // thrown by a gradient hook to abandon a backward pass

// Threads running abandoned forward passes, joined at exit at the latest: constructed after
// LibTorch's statics (on first use), so destroyed before them.
struct Reaper {
  std::mutex mutex;
  std::vector<std::thread> threads;
  ~Reaper() {
    for (std::thread& t : threads) t.join();
  }
};

Reaper& reaper() {
  static Reaper r;
  return r;
}

// The policy's forward pass, on a helper thread when `cancel` can stop it: LibTorch cannot
// interrupt an op, and one pass takes about a second on the 64k-op GNMT graph on 2 cores, so
// the caller polls `stop` every 5 ms and abandons the pass (nullopt). The helper holds its own
// references to the module and tensors and exits when the pass is done.
std::optional<PolicyOutput> forwardUnlessStopped(GdpPolicy& policy, const PolicyInput& in, int64_t numDevices,
                                                 bool cancellable, const std::function<bool()>& stop) {
  if (!cancellable) return policy->forward(in, numDevices);
  reaper();
  auto promise = std::make_shared<std::promise<PolicyOutput>>();
  std::future<PolicyOutput> result = promise->get_future();
  const bool grad = torch::GradMode::is_enabled();
  std::thread helper([policy, in, numDevices, promise, grad]() mutable {
    try {
      torch::AutoGradMode mode(grad);
      promise->set_value(policy->forward(in, numDevices));
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  });
  while (result.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
    if (stop()) {
      std::lock_guard lock(reaper().mutex);
      reaper().threads.push_back(std::move(helper));
      return std::nullopt;
    }
  }
  helper.join();
  return result.get();
}

std::vector<int32_t> toVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kInt32).contiguous();
  return {c.data_ptr<int32_t>(), c.data_ptr<int32_t>() + c.numel()};
}

}  // namespace

struct PpoTrainer::State {
  State(const CostModel& c, const OptimizeOptions& o, PpoConfig cfg)
      : cost(c), options(o), config(cfg), sim(c), generator(at::detail::createCPUGenerator(o.seed)) {}

  const CostModel& cost;
  OptimizeOptions options;
  PpoConfig config;
  GraphFeatures features;
  PolicyInput input;
  int64_t numDevices = 0;
  GdpPolicy policy{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
  Simulator sim;
  Measurement m;
  at::Generator generator;
  std::unique_ptr<LocalSearch> search;
  std::vector<int32_t> priority;  // given to every candidate plan
  // the best plan so far, and its devices per unit (the incumbent; empty before a feasible plan)
  Plan best;
  std::vector<int32_t> bestUnits, featureUnits;
  double bestStep = std::numeric_limits<double>::infinity();
  bool haveFeasible = false, haveAny = false;

  // Simulates `plan` (no timeline); keeps it when it is the best; returns its reward.
  double consider(const Plan& plan, bool& improved, const std::vector<int32_t>* units = nullptr) {
    sim.run(plan, m, /*recordTimeline=*/false);
    if (m.feasible && m.stepTime < bestStep) {
      best = plan;
      bestStep = m.stepTime;
      haveFeasible = improved = true;
      bestUnits = units ? *units : unitsOf(plan);
    } else if (!haveAny) {
      best = plan;
    }
    haveAny = true;
    return placementReward(m);
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
};

PpoTrainer::PpoTrainer(const CostModel& cost, const OptimizeOptions& options, const PolicyFactory& policyFor,
                       PpoConfig config)
    : s_(std::make_unique<State>(cost, options, config)) {
  const Plan* current = options.startPlan ? &*options.startPlan : nullptr;
  if (current && current->device.size() != static_cast<size_t>(cost.graph().numOps()))
    throw Error("optimize", "the start plan has " + std::to_string(current->device.size()) + " ops, the graph " +
                                std::to_string(cost.graph().numOps()));
  s_->features = buildGraphFeatures(cost.graph(), cost, current);
  s_->input = toPolicyInput(s_->features);
  s_->numDevices = std::min<int64_t>(cost.cluster().numDevices(), kMaxDevices);
  s_->policy = policyFor(s_->features.featureDim);
  if (s_->policy->featureDim() != s_->features.featureDim)
    throw Error("optimize", "the policy takes " + std::to_string(s_->policy->featureDim()) +
                                " features per op, this graph has " + std::to_string(s_->features.featureDim));
  if (cost.cluster().numDevices() > s_->policy->config().maxDevices)
    throw Error("optimize", "the policy places on at most " + std::to_string(s_->policy->config().maxDevices) +
                                " devices, the cluster has " + std::to_string(cost.cluster().numDevices()));
  s_->search = std::make_unique<LocalSearch>(s_->features, static_cast<int32_t>(s_->numDevices), options.seed);
  s_->priority = s_->features.priority;
  s_->optimizer = std::make_unique<torch::optim::Adam>(s_->policy->parameters(),
                                                       torch::optim::AdamOptions(config.learningRate));
}

PpoTrainer::~PpoTrainer() = default;

GdpPolicy PpoTrainer::policy() const { return s_->policy; }

OptimizeResult PpoTrainer::run(const IterationFn& onIteration, const std::atomic<bool>* cancel) {
  State& s = *s_;
  const OptimizeOptions& o = s.options;
  const PpoConfig& cfg = s.config;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  OptimizeResult result;
  auto stop = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) result.cancelled = true;
    return result.cancelled || (o.budgetSeconds > 0 && elapsed() >= o.budgetSeconds);
  };
  // Backward passes on big graphs take long: gradient hooks on every parameter abandon one
  // as soon as `cancel` is set (between layers), removed again when run() returns.
  struct Hooks {
    std::vector<std::pair<torch::Tensor, unsigned>> set;
    ~Hooks() {
      for (auto& [t, h] : set) t.remove_hook(h);
    }
  } hooks;
  if (cancel)
    for (torch::Tensor& p : s.policy->parameters())
      hooks.set.emplace_back(p, p.register_hook([cancel](const torch::Tensor&) {
        if (cancel->load(std::memory_order_relaxed)) throw Cancelled{};
      }));
  bool unused = false;
  if (o.startPlan) {
    s.consider(*o.startPlan, unused);
    // candidates get the start plan's priorities when they beat the upward-rank order on its devices
    const std::vector<int32_t> units = s.unitsOf(*o.startPlan);
    const double ranked = (s.considerUnits(units, unused), s.m.feasible ? s.m.stepTime : 1e300);
    if (!o.startPlan->priority.empty()) {
      s.priority = o.startPlan->priority;
      const double own = (s.considerUnits(units, unused), s.m.feasible ? s.m.stepTime : 1e300);
      if (ranked < own) s.priority = s.features.priority;
    }
  } else {
    // from nothing: everything on one device is the first incumbent, so local search starts from
    // a feasible, contention-free plan rather than from a random sample's scatter
    s.considerUnits(std::vector<int32_t>(static_cast<size_t>(s.features.numUnits), 0), unused);
  }
  const int64_t K = std::max(1, o.samplesPerIteration);
  const int64_t D = s.numDevices;

  if (o.iterations <= 0 && !stop()) {  // zero-shot: the greedy plan
    torch::NoGradGuard noGrad;
    s.policy->eval();
    if (auto out = forwardUnlessStopped(s.policy, s.input, D, cancel != nullptr, stop))
      s.considerUnits(toVector(out->unitLogits.slice(1, 0, D).argmax(1)), unused);
  }
  for (int it = 1; it <= o.iterations && !stop(); ++it) {
    s.policy->train();
    IterationReport rep;
    rep.iteration = it;
    s.refreshCurrentDevices();
    const torch::Tensor bonus = s.priorBonus(s.policy->config().maxDevices).slice(1, 0, D);
    std::optional<PolicyOutput> first = forwardUnlessStopped(s.policy, s.input, D, cancel != nullptr, stop);
    if (!first) break;
    PolicyOutput out = std::move(*first);
    torch::Tensor logp = torch::log_softmax(out.unitLogits.slice(1, 0, D) + bonus, 1);  // [U, D]
    torch::Tensor actions;                                                     // [U, K]
    {
      torch::NoGradGuard noGrad;
      actions = torch::multinomial(logp.detach().exp(), K, /*replacement=*/true, s.generator);
    }
    const torch::Tensor oldLogp = logp.gather(1, actions).detach();
    torch::Tensor byPlan = actions.t().contiguous();  // [K, U]
    std::vector<double> rewards;
    for (int64_t k = 0; k < K && !stop(); ++k)
      rewards.push_back(s.considerUnits(toVector(byPlan[k]), rep.improved));
    if (result.cancelled || rewards.empty()) break;
    if (it == 1 || (cfg.greedyEvery > 0 && it % cfg.greedyEvery == 0)) {
      std::vector<int32_t> greedy = toVector(logp.detach().argmax(1));
      if (greedy != s.bestUnits) s.considerUnits(greedy, rep.improved);
    }
    if (cfg.localMoves > 0 && !s.bestUnits.empty()) {
      torch::Tensor probs = logp.detach().exp().contiguous();
      std::vector<float> pv(probs.data_ptr<float>(), probs.data_ptr<float>() + probs.numel());
      std::vector<int32_t> units = s.bestUnits;
      s.search->run(units, pv, cfg.localMoves, s.bestStep, [&](const std::vector<int32_t>& cand) {
        s.considerUnits(cand, rep.improved);
        return s.m.feasible ? s.m.stepTime : std::numeric_limits<double>::infinity();
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

    // entropy bonus decays linearly over the run (iterations or time budget, whichever is nearer)
    double progress = o.iterations > 1 ? static_cast<double>(it - 1) / (o.iterations - 1) : 0.0;
    if (o.budgetSeconds > 0) progress = std::max(progress, elapsed() / o.budgetSeconds);
    progress = std::min(progress, 1.0);
    const double entCoef = cfg.entropyStart + (cfg.entropyEnd - cfg.entropyStart) * progress;

    for (int epoch = 0; epoch < cfg.epochs; ++epoch) {
      if (epoch > 0) {
        std::optional<PolicyOutput> again = forwardUnlessStopped(s.policy, s.input, D, cancel != nullptr, stop);
        if (!again) break;
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
        if (stop()) break;
        throw;
      }
      torch::nn::utils::clip_grad_norm_(s.policy->parameters(), cfg.maxGradNorm);
      s.optimizer->step();
    }

    rep.meanReward = meanReward;
    rep.bestReward = *std::max_element(rewards.begin(), rewards.end());
    rep.bestStepTime = s.haveFeasible ? s.bestStep : 0;
    rep.elapsed = elapsed();
    rep.best = s.haveAny ? &s.best : nullptr;
    result.iterations = it;
    result.bestStepTimeHistory.push_back(rep.bestStepTime);
    if (onIteration) onIteration(rep);
  }

  // No plan seen (cancelled at once): every unit on device 0.
  if (!s.haveAny) s.best = planFromUnits(s.features, std::vector<int32_t>(s.features.numUnits, 0));
  result.best = s.best;
  result.measurement = s.sim.run(result.best, /*recordTimeline=*/true);
  result.seconds = elapsed();
  return result;
}

GdpPolicy makePolicy(int64_t featureDim, uint64_t seed, PolicyConfig config) {
  torch::manual_seed(seed);
  return GdpPolicy(featureDim, config);
}

void saveCheckpoint(GdpPolicy& policy, const std::string& path) {
  try {
    const PolicyConfig& c = policy->config();
    torch::serialize::OutputArchive archive;
    archive.write("gp_policy_format", torch::tensor({kCheckpointFormat}));
    archive.write("config", torch::tensor({c.hidden, c.typeEmbedding, c.sageLayers, c.segment, c.heads, c.maxDevices,
                                           static_cast<int64_t>(c.film)}));
    archive.write("feature_dim", torch::tensor({policy->featureDim()}));
    torch::serialize::OutputArchive weights;
    policy->save(weights);
    archive.write("policy", weights);
    archive.save_to(path);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot write the policy: ") + e.what_without_backtrace());
  }
}

GdpPolicy loadCheckpoint(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path, "no such policy file");
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    torch::Tensor format, config, featureDim;
    if (!archive.try_read("gp_policy_format", format) || format.numel() != 1 ||
        format.item<int64_t>() != kCheckpointFormat)
      throw Error(path, "not a graphplace policy checkpoint (format " + std::to_string(kCheckpointFormat) + ")");
    if (!archive.try_read("config", config) || config.numel() != 7 || !archive.try_read("feature_dim", featureDim) ||
        featureDim.numel() != 1)
      throw Error(path, "the policy checkpoint has no valid config");
    config = config.to(torch::kInt64).contiguous();
    const int64_t* v = config.data_ptr<int64_t>();
    PolicyConfig c;
    c.hidden = v[0];
    c.typeEmbedding = v[1];
    c.sageLayers = v[2];
    c.segment = v[3];
    c.heads = v[4];
    c.maxDevices = v[5];
    c.film = v[6] != 0;
    if (c.hidden <= 0 || c.typeEmbedding <= 0 || c.sageLayers < 0 || c.segment <= 0 || c.heads <= 0 ||
        c.hidden % c.heads != 0 || c.maxDevices <= 0 || c.maxDevices > kMaxDevices || featureDim.item<int64_t>() <= 0)
      throw Error(path, "the policy checkpoint's config is out of range");
    GdpPolicy policy(featureDim.item<int64_t>(), c);
    torch::serialize::InputArchive weights;
    archive.read("policy", weights);
    policy->load(weights);
    return policy;
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the policy: ") + e.what_without_backtrace());
  }
}

std::string defaultPolicyPath() {
  const std::string clusters = clusterResourceDir();
  if (clusters.empty()) return {};
  const auto file = std::filesystem::path(clusters).parent_path() / "policies" / "gdp_default.pt";
  std::error_code ec;
  return std::filesystem::is_regular_file(file, ec) ? file.string() : std::string();
}

OptimizeResult runOptimizer(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                            const std::atomic<bool>* cancel) {
  if (options.policy == "colocrl") throw Error("colocrl", "not implemented yet");
  const int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  torch::set_num_threads(std::max(1, threads));
  std::string file, note;
  const bool isDefault = options.policy == "default" || options.policy.empty();
  if (isDefault) {
    file = defaultPolicyPath();
    if (file.empty()) note = "no pre-trained policy found (resources/policies/gdp_default.pt): trained from scratch";
  } else if (options.policy != "scratch") {
    file = options.policy;
  }
  PpoTrainer trainer(cost, options, [&](int64_t featureDim) {
    if (file.empty()) return makePolicy(featureDim, options.seed);
    GdpPolicy p = loadCheckpoint(file);
    if (p->featureDim() == featureDim) {
      torch::manual_seed(options.seed);
      return p;
    }
    if (!isDefault)
      throw Error(file, "the policy takes " + std::to_string(p->featureDim()) + " features per op, this graph has " +
                            std::to_string(featureDim));
    note = "the pre-trained policy " + file + " does not fit this version's features: trained from scratch";
    return makePolicy(featureDim, options.seed);
  });
  OptimizeResult r = trainer.run(onIteration, cancel);
  r.note = note;
  if (!options.saveCheckpoint.empty()) {
    GdpPolicy p = trainer.policy();
    saveCheckpoint(p, options.saveCheckpoint);
  }
  return r;
}

}  // namespace gp::rl
