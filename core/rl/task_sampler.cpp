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

torch::Tensor incumbentBonus(const torch::Tensor& best, int64_t levels, double count, double priorMoves) {
  if (priorMoves <= 0 || count < 2) return torch::zeros({best.size(0), levels});
  const double moves = std::min(priorMoves, count / 2);
  const double bonus = std::log(std::max(1.0, static_cast<double>(levels - 1) * (count - moves) / moves));
  return torch::one_hot(best.to(torch::kInt64), levels).to(torch::kFloat32) * bonus;
}

Decided DecideJob::operator()() {
  Decided d;
  if (out) d.out = *out;
  else if (table) d.out = policy->forwardSegments(input, numDevices, heads, *table, sample);
  else d.out = policy->forward(input, numDevices, heads, record.get());
  const int64_t k = greedy ? 1 : samples;
  const int64_t units = input.numUnits, n = input.numOps;
  if (placement) {
    d.logpU = torch::log_softmax(d.out.unitLogits.slice(1, 0, numDevices) + bonusU, 1);
    if (givenU.defined()) {
      d.actU = givenU;
    } else {
      torch::NoGradGuard noGrad;
      d.actU = greedy ? d.logpU.argmax(1, /*keepdim=*/true)
                      : torch::multinomial(d.logpU.detach().exp(), k, /*replacement=*/true, *generator);
    }
  } else {
    d.actU = bestU.unsqueeze(1).expand({units, k});
  }
  const torch::Tensor opDevice = d.actU.t().index_select(1, input.unitOf);  // [K, N]
  const int64_t kk = opDevice.size(0);
  const torch::Tensor refDevice =
      bestU.defined() && bestU.numel() == units ? bestU.index_select(0, input.unitOf) : torch::Tensor();
  if (heads.schedule) {
    d.logpS = torch::log_softmax(policy->scheduleLogits(d.out, input, opDevice, refDevice) + bonusS, 2);
    d.actS = chooseLevels(d.logpS, givenS, greedy, generator);
  } else {
    d.actS = bestS.unsqueeze(0).expand({kk, n});
  }
  if (heads.fusion) {
    const int64_t levels = policy->config().scheduleLevels;
    const torch::Tensor refLevel = bestS.defined() && bestS.numel() == n ? bestS.clamp(0, levels - 1) : torch::Tensor();
    d.logpF = torch::log_softmax(
        policy->fusionLogits(d.out, input, opDevice, d.actS.clamp(0, levels - 1), refDevice, refLevel) + bonusF, 2);
    d.actF = chooseLevels(d.logpF, givenF, greedy, generator);
  } else {
    d.actF = bestF.unsqueeze(0).expand({kk, n});
  }
  return d;
}

}  // namespace gp::rl
