#include "rl/task_sampler.h"

#include <algorithm>
#include <cmath>

namespace gp::rl {
namespace {

// [K, N, L] log-probs -> [K, N] actions: sampled, argmax, or `given`.
torch::Tensor chooseLevels(const torch::Tensor& logp, const torch::Tensor& given, bool greedy,
                           std::optional<at::Generator>& gen) {
  if (given.defined()) return given;
  torch::NoGradGuard noGrad;
  if (greedy) return logp.argmax(2);
  const int64_t k = logp.size(0), n = logp.size(1), l = logp.size(2);
  return torch::multinomial(logp.detach().exp().reshape({k * n, l}), 1, /*replacement=*/true, *gen).view({k, n});
}

}  // namespace

torch::Tensor firstSample(Task t, const torch::Tensor& logp) { return t == Task::Placement ? logp : logp[0]; }

torch::Tensor asOneSample(Task t, const torch::Tensor& decisions) {
  return decisions.unsqueeze(t == Task::Placement ? 1 : 0);
}

torch::Tensor incumbentBonus(const torch::Tensor& best, int64_t levels, double count, double priorMoves) {
  if (priorMoves <= 0 || count < 2) return torch::zeros({best.size(0), levels});
  const double moves = std::min(priorMoves, count / 2);
  const double bonus = std::log(std::max(1.0, static_cast<double>(levels - 1) * (count - moves) / moves));
  return torch::one_hot(best.to(torch::kInt64), levels).to(torch::kFloat32) * bonus;
}

torch::Tensor DecideJob::levelLogits(Task t, const Decided& d, const torch::Tensor& opDevice,
                                     const torch::Tensor& refDevice) {
  if (t == Task::Schedule) return policy->scheduleLogits(d.out, input, opDevice, refDevice);
  const int64_t levels = policy->config().scheduleLevels, n = input.numOps;
  const torch::Tensor& bestS = best[Task::Schedule];
  const torch::Tensor refLevel = bestS.defined() && bestS.numel() == n ? bestS.clamp(0, levels - 1) : torch::Tensor();
  return policy->fusionLogits(d.out, input, opDevice, d.act[Task::Schedule].clamp(0, levels - 1), refDevice, refLevel);
}

Decided DecideJob::operator()() {
  Decided d;
  if (out) d.out = *out;
  else if (table) d.out = policy->forwardSegments(input, numDevices, heads, *table, sample);
  else d.out = policy->forward(input, numDevices, heads, record.get());
  const int64_t k = greedy ? 1 : samples;
  const int64_t units = input.numUnits, n = input.numOps;
  const torch::Tensor& bestU = best[Task::Placement];
  torch::Tensor &logpU = d.logp[Task::Placement], &actU = d.act[Task::Placement];
  if (placement) {
    logpU = torch::log_softmax(d.out.unitLogits.slice(1, 0, numDevices) + bonus[Task::Placement], 1);
    if (given[Task::Placement].defined()) {
      actU = given[Task::Placement];
    } else {
      torch::NoGradGuard noGrad;
      actU = greedy ? logpU.argmax(1, /*keepdim=*/true)
                    : torch::multinomial(logpU.detach().exp(), k, /*replacement=*/true, *generator);
    }
  } else {
    actU = bestU.unsqueeze(1).expand({units, k});
  }
  const torch::Tensor opDevice = actU.t().index_select(1, input.unitOf);  // [K, N]
  const int64_t kk = opDevice.size(0);
  const torch::Tensor refDevice =
      bestU.defined() && bestU.numel() == units ? bestU.index_select(0, input.unitOf) : torch::Tensor();
  for (Task t : {Task::Schedule, Task::Fusion}) {
    if (!(t == Task::Schedule ? heads.schedule : heads.fusion)) {
      d.act[t] = best[t].unsqueeze(0).expand({kk, n});
      continue;
    }
    d.logp[t] = torch::log_softmax(levelLogits(t, d, opDevice, refDevice) + bonus[t], 2);
    d.act[t] = chooseLevels(d.logp[t], given[t], greedy, generator);
  }
  return d;
}

}  // namespace gp::rl
