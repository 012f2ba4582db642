#include "rl/parallel_dqn.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>

#include "base/error.h"
#include "rl/policy_file.h"
#include "rl/archive_file.h"

namespace gp::rl {
namespace {

constexpr int64_t kHidden = 128;
constexpr int64_t kFormat = 1;
constexpr size_t kReplay = 20000;
constexpr int64_t kBatch = 64;
constexpr int kUpdatesPerEpisode = 4;
constexpr int kTargetEvery = 100;

// One LibTorch thread while a search runs (a 128-wide MLP: more threads only add
// synchronisation), the caller's setting back afterwards.
class ThreadsForSmallNet {
 public:
  ThreadsForSmallNet() : before_(torch::get_num_threads()) { torch::set_num_threads(1); }
  ~ThreadsForSmallNet() { torch::set_num_threads(before_); }
  ThreadsForSmallNet(const ThreadsForSmallNet&) = delete;
  ThreadsForSmallNet& operator=(const ThreadsForSmallNet&) = delete;

 private:
  int before_;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

QNetImpl::QNetImpl(int64_t in, int64_t hid, int64_t out) : inputs(in), hidden(hid), actions(out) {
  l1 = register_module("l1", torch::nn::Linear(in, hid));
  l2 = register_module("l2", torch::nn::Linear(hid, hid));
  l3 = register_module("l3", torch::nn::Linear(hid, out));
}

torch::Tensor QNetImpl::forward(torch::Tensor x) { return l3(torch::relu(l2(torch::relu(l1(x))))); }

QNet newQNet() { return QNet(kNumDecisionFeatures, kHidden, kNumActions); }

void saveQNet(QNet& net, const std::string& path) {
  torch::serialize::OutputArchive archive;
  try {
    archive.write("gp_parallel_dqn_format", torch::tensor({kFormat}));
    archive.write("sizes", torch::tensor({net->inputs, net->hidden, net->actions}));
    torch::serialize::OutputArchive weights;
    net->save(weights);
    archive.write("net", weights);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot write the Q-network: ") + e.what_without_backtrace());
  }
  saveArchiveAtomically(archive, path, "the Q-network");
}

QNet loadQNet(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path, "no such Q-network file");
  try {
    torch::serialize::InputArchive archive;
    loadArchiveChecked(archive, path);
    torch::Tensor format, sizes;
    if (!archive.try_read("gp_parallel_dqn_format", format) || format.numel() != 1 || format.item<int64_t>() != kFormat)
      throw Error(path, "not a graphplace parallel-plan Q-network (format 1)");
    if (!archive.try_read("sizes", sizes) || sizes.numel() != 3)
      throw Error(path, "the Q-network file has no sizes");
    sizes = sizes.to(torch::kInt64).contiguous();
    const int64_t* v = sizes.data_ptr<int64_t>();
    if (v[0] != kNumDecisionFeatures || v[2] != kNumActions || v[1] < 1 || v[1] > 4096)
      throw Error(path, "the Q-network was made for other features or actions (" + std::to_string(v[0]) + " features, " +
                            std::to_string(v[2]) + " actions; this build has " + std::to_string(kNumDecisionFeatures) + " and " +
                            std::to_string(kNumActions) + ")");
    QNet net(v[0], v[1], v[2]);
    torch::serialize::InputArchive weights;
    archive.read("net", weights);
    net->load(weights);
    return net;
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the Q-network: ") + e.what_without_backtrace());
  }
}

std::string defaultParallelDqnPath() { return shippedPolicyFile("parallel_dqn.pt"); }

DqnLearner::DqnLearner(QNet net, uint64_t seed)
    : net_(std::move(net)),
      target_(net_->inputs, net_->hidden, net_->actions),
      opt_(net_->parameters(), torch::optim::AdamOptions(1e-3)),
      rng_(seed) {
  torch::NoGradGuard g;
  auto src = net_->parameters();
  auto dst = target_->parameters();
  for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
}

double DqnLearner::episode(const PlanDecisions& env, PlanEvaluator& eval, double epsilon, double& loss) {
  PartialPlan p;
  std::vector<Transition> steps;
  std::uniform_real_distribution<double> coin(0, 1);
  while (p.step != DecisionStep::Done) {
    const auto mask = env.mask(p);
    std::vector<int> valid;
    for (int a = 0; a < kNumActions; ++a)
      if (mask[static_cast<size_t>(a)]) valid.push_back(a);
    if (valid.empty()) break;  // a dead end: the episode ends with reward 0
    Transition t;
    t.state = env.features(p);
    if (coin(rng_) < epsilon) {
      t.action = valid[std::uniform_int_distribution<size_t>(0, valid.size() - 1)(rng_)];
    } else {
      torch::NoGradGuard g;
      const torch::Tensor q = net_->forward(torch::from_blob(t.state.data(), {kNumDecisionFeatures}).clone()).contiguous();
      const auto qa = q.accessor<float, 1>();
      float best = -std::numeric_limits<float>::infinity();
      for (int a : valid)
        if (const float v = qa[a]; v > best) best = v, t.action = a;
    }
    p = env.apply(p, t.action);
    t.next = env.features(p);
    t.nextMask = env.mask(p);
    t.done = p.step == DecisionStep::Done;
    steps.push_back(t);
  }
  double reward = 0;
  if (p.step == DecisionStep::Done) reward = eval.evaluate(env.shape(p)).reward;
  if (!steps.empty()) {
    steps.back().done = true;
    steps.back().reward = static_cast<float>(reward);
  }
  for (Transition& t : steps) {
    if (replay_.size() < kReplay) replay_.push_back(t);
    else replay_[replayNext_] = t;
    replayNext_ = (replayNext_ + 1) % kReplay;
  }
  loss = 0;
  int n = 0;
  for (int u = 0; u < kUpdatesPerEpisode && static_cast<int64_t>(replay_.size()) >= kBatch; ++u, ++n) loss += update();
  if (n > 0) loss /= n;
  return reward;
}

double DqnLearner::update() {
  std::uniform_int_distribution<size_t> pick(0, replay_.size() - 1);
  torch::Tensor s = torch::empty({kBatch, kNumDecisionFeatures}), s2 = torch::empty({kBatch, kNumDecisionFeatures});
  torch::Tensor m2 = torch::zeros({kBatch, kNumActions}, torch::kBool);
  torch::Tensor a = torch::empty({kBatch}, torch::kInt64), r = torch::empty({kBatch}), done = torch::empty({kBatch});
  auto sa = s.accessor<float, 2>(), s2a = s2.accessor<float, 2>();
  auto ma = m2.accessor<bool, 2>();
  auto aa = a.accessor<int64_t, 1>();
  auto ra = r.accessor<float, 1>(), da = done.accessor<float, 1>();
  for (int64_t i = 0; i < kBatch; ++i) {
    const Transition& t = replay_[pick(rng_)];
    for (int f = 0; f < kNumDecisionFeatures; ++f) sa[i][f] = t.state[static_cast<size_t>(f)], s2a[i][f] = t.next[static_cast<size_t>(f)];
    for (int k = 0; k < kNumActions; ++k) ma[i][k] = t.nextMask[static_cast<size_t>(k)];
    aa[i] = t.action, ra[i] = t.reward, da[i] = t.done ? 1.0f : 0.0f;
  }
  torch::Tensor y;
  {
    torch::NoGradGuard g;
    const torch::Tensor invalid = torch::full({kBatch, kNumActions}, -1e9);
    const torch::Tensor online = torch::where(m2, net_->forward(s2), invalid);
    const torch::Tensor best = online.argmax(1, true);
    torch::Tensor next = target_->forward(s2).gather(1, best).squeeze(1);
    // A step whose next state has no valid action is terminal (done is set there).
    y = r + (1 - done) * next;
  }
  const torch::Tensor q = net_->forward(s).gather(1, a.unsqueeze(1)).squeeze(1);
  torch::Tensor l = torch::smooth_l1_loss(q, y);
  opt_.zero_grad();
  l.backward();
  opt_.step();
  if (++updates_ % kTargetEvery == 0) {
    torch::NoGradGuard g;
    auto src = net_->parameters();
    auto dst = target_->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }
  return l.item<double>();
}

int64_t countPlanShapes(const PlanDecisions& env) {
  std::function<int64_t(const PartialPlan&)> count = [&](const PartialPlan& p) -> int64_t {
    if (p.step == DecisionStep::Done) return 1;
    const auto m = env.mask(p);
    int64_t n = 0;
    for (int a = 0; a < kNumActions; ++a)
      if (m[static_cast<size_t>(a)]) n += count(env.apply(p, a));
    return n;
  };
  return count(PartialPlan{});
}

ParallelResult runParallelDqn(const StageCostModel& model, int64_t globalBatch, const DqnOptions& options,
                              const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  torch::manual_seed(options.seed);
  ThreadsForSmallNet threads;
  ParallelResult res;
  res.method = options.epsilonStart >= 1 && options.epsilonEnd >= 1 ? "random" : "dqn";
  const bool random = res.method == "random";  // no network decides: nothing to load
  std::string policy = options.fromScratch || random ? std::string() : options.policy.empty() ? defaultParallelDqnPath() : options.policy;
  QNet net = policy.empty() ? newQNet() : loadQNet(policy);
  DqnLearner learner(net, options.seed);
  const PlanDecisions env(model, globalBatch, options.fixed);
  PlanEvaluator eval(env);
  const int64_t space = countPlanShapes(env);
  int episode = 0, sinceBest = 0, bestEpisode = 0;
  int64_t bestSimulated = 0;
  double best = 0;
  for (;;) {
    const double elapsed = secondsSince(t0);
    double progress = options.budgetSeconds > 0 ? elapsed / options.budgetSeconds : 0;
    if (options.maxEpisodes > 0) progress = std::max(progress, static_cast<double>(episode) / options.maxEpisodes);
    const double epsilon = options.epsilonStart + (options.epsilonEnd - options.epsilonStart) * std::min(1.0, progress);
    double loss = 0;
    const double reward = learner.episode(env, eval, epsilon, loss);
    ++episode;
    if (eval.best().reward > best) {
      best = eval.best().reward, sinceBest = 0;
      bestEpisode = episode, bestSimulated = eval.simulated();
    } else {
      ++sinceBest;
    }
    if (onEpisode) onEpisode({episode, reward, best, eval.simulated(), epsilon, secondsSince(t0), loss});
    if (space == 0 || static_cast<int64_t>(eval.evaluatedShapes()) >= space) break;  // the whole pruned space is known
    if (cancel && cancel->load()) break;
    if (options.maxEpisodes > 0 && episode >= options.maxEpisodes) break;
    if (options.budgetSeconds > 0 && secondsSince(t0) >= options.budgetSeconds) break;
    if (options.patience > 0 && sinceBest >= options.patience) break;
  }
  const auto& b = eval.best();
  res.found = b.plan.has_value();
  if (res.found) {
    res.plan = *b.plan;
    res.measurement = b.measurement;
  }
  res.evaluated = eval.simulated();
  res.evaluatedToBest = bestSimulated;
  res.complete = static_cast<int64_t>(eval.evaluatedShapes()) >= space;
  res.searchSeconds = secondsSince(t0);
  res.note = std::to_string(episode) + " episodes, " + std::to_string(eval.evaluatedShapes()) + " of " + std::to_string(space) +
             " shapes in the pruned space tried, the best at episode " + std::to_string(bestEpisode) + " (" +
             std::to_string(bestSimulated) + " plans simulated), " + (random ? std::string("uniformly random actions") : policy.empty() ? std::string("from scratch") : "from " + policy);
  if (!res.found) res.note = "no plan found that fits: " + res.note;
  return res;
}

DqnPretrainResult runParallelPretrain(const std::vector<std::unique_ptr<ParallelTask>>& tasks,
                                      const DqnPretrainOptions& options, const DqnEpisodeFn& onEpisode,
                                      const std::atomic<bool>* cancel) {
  if (tasks.empty()) throw Error("pretrain-parallel", "no tasks to train on");
  if (options.out.empty()) throw Error("pretrain-parallel", "needs an output file");
  const auto t0 = std::chrono::steady_clock::now();
  torch::manual_seed(options.seed);
  ThreadsForSmallNet threads;
  DqnLearner learner(newQNet(), options.seed);
  std::vector<std::unique_ptr<PlanDecisions>> envs;
  std::vector<std::unique_ptr<PlanEvaluator>> evals;
  for (const auto& t : tasks) {
    envs.push_back(std::make_unique<PlanDecisions>(t->model, t->globalBatch));
    evals.push_back(std::make_unique<PlanEvaluator>(*envs.back()));
  }
  DqnPretrainResult res;
  res.out = options.out;
  std::vector<double> rewards;
  int episode = 0;
  for (;;) {
    const double elapsed = secondsSince(t0);
    double progress = options.budgetSeconds > 0 ? elapsed / options.budgetSeconds : 0;
    if (options.maxEpisodes > 0) progress = std::max(progress, static_cast<double>(episode) / options.maxEpisodes);
    const double epsilon = 1.0 + (0.05 - 1.0) * std::min(1.0, progress / 0.8);
    const size_t k = static_cast<size_t>(episode) % tasks.size();
    double loss = 0;
    const double reward = learner.episode(*envs[k], *evals[k], epsilon, loss);
    rewards.push_back(reward);
    ++episode;
    if (onEpisode) onEpisode({episode, reward, evals[k]->best().reward, evals[k]->simulated(), epsilon, secondsSince(t0), loss});
    if (cancel && cancel->load()) break;
    if (options.maxEpisodes > 0 && episode >= options.maxEpisodes) break;
    if (options.budgetSeconds > 0 && secondsSince(t0) >= options.budgetSeconds) break;
  }
  res.episodes = episode;
  const size_t tail = std::max<size_t>(1, rewards.size() / 10);
  for (size_t i = rewards.size() - tail; i < rewards.size(); ++i) res.meanReward += rewards[i] / static_cast<double>(tail);
  saveQNet(learner.net(), options.out);
  return res;
}

}  // namespace gp::rl
