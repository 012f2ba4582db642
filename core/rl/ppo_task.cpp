#include "rl/ppo_task.h"

#include "rl/ppo_state.h"

namespace gp::rl {

std::vector<int32_t>& taskDecisions(Task t, Decisions& d) {
  return t == Task::Placement ? d.units : t == Task::Schedule ? d.schedule : d.fusion;
}

const std::vector<int32_t>& taskDecisions(Task t, const Decisions& d) {
  return t == Task::Placement ? d.units : t == Task::Schedule ? d.schedule : d.fusion;
}

torch::Tensor TaskState::bonus(const torch::Tensor& best, double moves) const {
  torch::Tensor b = incumbentBonus(best, levels, count, moves);  // [U, D] or [N, L]
  return mask.defined() ? b * mask.unsqueeze(1) : b;
}

torch::Tensor TaskState::taken(const torch::Tensor& logp, const torch::Tensor& act) const {
  if (task == Task::Placement) return logp.gather(1, act);
  return logp.gather(2, act.unsqueeze(2)).squeeze(2);
}

torch::Tensor TaskState::entropy(const torch::Tensor& logp) const {
  return maskedMean(-(logp.exp() * logp).sum(task == Task::Placement ? 1 : 2), mask);
}

torch::Tensor TaskState::surrogate(const torch::Tensor& now, const torch::Tensor& old, const torch::Tensor& adv,
                                   double clip) const {
  const torch::Tensor a = adv.unsqueeze(task == Task::Placement ? 0 : 1);  // per sample: a column or a row
  const torch::Tensor ratio = torch::exp(now - old);
  return maskedMean(torch::min(ratio * a, torch::clamp(ratio, 1 - clip, 1 + clip) * a), mask);
}

void TaskState::search(std::vector<int32_t> decisions, const torch::Tensor& logp, int moves, double step,
                       const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch) {
  const std::vector<float> probs = toFloats(logp.detach().exp());
  if (units) units->run(decisions, probs, moves, step, evaluate, stop, batch);
  else levelSearch->run(decisions, probs, eligible, moves, step, evaluate, stop, batch);
}

}  // namespace gp::rl
