// Zero-shot: the policy's own plan for the start, without search or update (ppo.h).
//
// The greedy decode changes some of the start's decisions; most plans of a large graph
// differ from the start in many units, and a few wrong changes can spoil a plan, so the samples
// are the greedy plan's changes taken most confident first: the first 1, 2, 4, ... of them
// (confidence: the log-probability of the greedy decision over that of the start's), each task's
// changes ranked on their own; the samples left over are drawn from the policy near the start
// (with the incumbent bonus, as the optimizer's samples are).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include "rl/ppo_state.h"

namespace gp::rl {
namespace {

// Indices where `greedy` differs from `start`, most confident first: confidence =
// logp[i][greedy[i]] - logp[i][start[i]] (logp [n, levels]; an undefined logp keeps index order).
std::vector<int32_t> rankedChanges(const std::vector<int32_t>& start, const std::vector<int32_t>& greedy,
                                   const torch::Tensor& logp, const std::vector<uint8_t>* mask = nullptr) {
  std::vector<int32_t> idx;
  for (size_t i = 0; i < greedy.size() && i < start.size(); ++i)
    if (greedy[i] != start[i] && (!mask || (*mask)[i])) idx.push_back(static_cast<int32_t>(i));
  if (!logp.defined()) return idx;
  const torch::Tensor lp = logp.to(torch::kFloat32).contiguous();
  const int64_t levels = lp.size(1);
  const float* p = lp.data_ptr<float>();
  std::vector<float> conf(greedy.size(), 0.0f);
  for (int32_t i : idx) conf[i] = p[i * levels + greedy[i]] - p[i * levels + start[i]];
  std::stable_sort(idx.begin(), idx.end(), [&](int32_t a, int32_t b) { return conf[a] > conf[b]; });
  return idx;
}

// `base` with the first k of `changes` taken from `greedy`.
std::vector<int32_t> withFirst(std::vector<int32_t> base, const std::vector<int32_t>& greedy,
                               const std::vector<int32_t>& changes, size_t k) {
  for (size_t i = 0; i < std::min(k, changes.size()); ++i) base[changes[i]] = greedy[changes[i]];
  return base;
}

}  // namespace

DecideJob PpoTrainer::State::zeroShotJob() const {
  return jobFor(startInput, startDecisions, 0);
}

std::optional<Decisions> PpoTrainer::State::ownDecisions(const StopFn& stop, const std::atomic<bool>* cancel) {
  torch::NoGradGuard noGrad;
  policy->eval();
  DecideJob j = zeroShotJob();
  j.greedy = true;
  std::optional<Decided> d = decide(std::move(j), stop, cancel);
  if (!d) return std::nullopt;
  return decisionsOf(*d, 0);
}

double PpoTrainer::ownPlan(const StopFn& stop, const std::atomic<bool>* cancel) {
  State& s = *s_;
  std::optional<Decisions> own = s.ownDecisions(stop, cancel);
  if (!own || stop()) return std::numeric_limits<double>::quiet_NaN();
  bool unused = false;
  s.consider(*own, unused);
  return s.inc.m.feasible ? s.inc.m.stepTime : std::numeric_limits<double>::infinity();
}

void PpoTrainer::zeroShot(const StopFn& stop, const std::atomic<bool>* cancel) {
  State& s = *s_;
  torch::NoGradGuard noGrad;
  s.policy->eval();
  DecideJob j = s.zeroShotJob();
  j.greedy = true;
  std::optional<Decided> d = s.decide(std::move(j), stop, cancel);
  if (!d || stop()) return;
  const Decisions greedy = s.decisionsOf(*d, 0);
  const Decisions& start = s.startDecisions;
  bool unused = false;
  s.consider(greedy, unused);
  // per task, the greedy plan's changes to the start, most confident first
  std::array<std::vector<int32_t>, kTasks.size()> changes;
  for (const TaskState& t : s.active)
    changes[static_cast<size_t>(t.task)] =
        rankedChanges(taskDecisions(t.task, start), taskDecisions(t.task, greedy), firstSample(t.task, d->logp[t.task]),
                      t.eligible.empty() ? nullptr : &t.eligible);
  size_t most = 0;
  for (const auto& c : changes) most = std::max(most, c.size());
  const int samples = std::max(1, s.options.samplesPerIteration);
  int n = 0;
  for (size_t k = 1; k < most && n < samples && !stop(); k *= 2, ++n) {
    Decisions first;
    for (Task t : kTasks)
      taskDecisions(t, first) =
          withFirst(taskDecisions(t, start), taskDecisions(t, greedy), changes[static_cast<size_t>(t)], k);
    s.consider(first, unused);
  }
  if (n >= samples || stop()) return;
  // what is left of the samples: drawn from the policy near the start (the incumbent bonus)
  DecideJob near = s.jobFor(s.startInput, start, s.config.priorMoves);
  near.out = d->out;
  near.samples = samples - n;
  std::optional<Decided> drawn = s.decide(std::move(near), stop, cancel);
  for (int64_t k = 0; drawn && k < samples - n && !stop(); ++k) s.consider(s.decisionsOf(*drawn, k), unused);
}

}  // namespace gp::rl
