// Expert iteration: the policy learns to produce, from the start plan alone, the best plan the
// search has found (PpoTrainer::imitate, ppo.h).
#include <cmath>
#include <limits>

#include "rl/ppo_state.h"

namespace gp::rl {
namespace {

// -(mean log-prob of the kept decisions + mean of the changed ones) / 2 over the entries where
// `mask` is 1 (every entry when undefined); just the kept mean when nothing changed. Unbalanced:
// the mean over every entry.
torch::Tensor imitationNll(const torch::Tensor& logp, const torch::Tensor& changed, const torch::Tensor& mask,
                           bool balanced) {
  torch::Tensor m = mask.defined() ? mask : torch::ones_like(logp);
  if (!balanced) return -(logp * m).sum() / m.sum().clamp_min(1.0);
  torch::Tensor c = changed.to(torch::kFloat32) * m;
  torch::Tensor k = m - c;
  torch::Tensor kept = (logp * k).sum() / k.sum().clamp_min(1.0);
  if (c.sum().item<double>() <= 0) return -kept;
  torch::Tensor moved = (logp * c).sum() / c.sum();
  return -(kept + moved) * 0.5;
}

}  // namespace

PpoTrainer::Imitation PpoTrainer::imitate(const StopFn& stop, const std::atomic<bool>* cancel) {
  State& s = *s_;
  Imitation r;
  const OptimizeTasks& t = s.tasks();

  // the policy's own plan: a candidate like any other (the apprentice may beat the expert)
  std::optional<Decisions> own = s.ownDecisions(stop, cancel);
  if (!own || stop()) return r;
  bool unused = false;
  s.consider(*own, unused);
  r.ownStepTime = s.inc.m.feasible ? s.inc.m.stepTime : std::numeric_limits<double>::infinity();
  const Decisions& best = s.best;
  if (t.placement && !best.units.empty()) {
    int same = 0, moved = 0;
    for (size_t u = 0; u < best.units.size(); ++u) {
      same += own->units[u] == best.units[u];
      moved += best.units[u] != s.startDecisions.units[u];
    }
    r.agreement = static_cast<double>(same) / static_cast<double>(best.units.size());
    r.changed = static_cast<double>(moved) / static_cast<double>(best.units.size());
  }
  if (!s.inc.haveFeasible) {  // nothing worth imitating yet
    r.done = true;
    return r;
  }
  r.loss = fitBest(stop, cancel);
  r.done = !std::isnan(r.loss);
  return r;
}

double PpoTrainer::fitBest(const StopFn& stop, const std::atomic<bool>* cancel) {
  State& s = *s_;
  const double stopped = std::numeric_limits<double>::quiet_NaN();
  if (!s.inc.haveFeasible || stop()) return stopped;
  // one update toward the best decisions on the zero-shot input
  s.policy->train();
  const Decisions& best = s.best;
  DecideJob j = s.zeroShotJob();
  for (Task t : kTasks) j.given[t] = asOneSample(t, toTensor(taskDecisions(t, best)));
  std::optional<Decided> d = s.decide(std::move(j), stop, cancel);
  if (!d) return stopped;
  torch::Tensor loss = torch::zeros({});
  for (const TaskState& t : s.active) {
    const torch::Tensor target = toTensor(taskDecisions(t.task, best));
    loss = loss + imitationNll(firstSample(t.task, d->logp[t.task]).gather(1, target.unsqueeze(1)).squeeze(1),
                               target.ne(toTensor(taskDecisions(t.task, s.startDecisions))), t.mask,
                               s.config.balancedImitation);
  }
  if (!s.applyGradient(loss, stop)) return stopped;
  return loss.item<double>();
}

}  // namespace gp::rl
