// Data-parallel updates of one network over the ranks of a DistGroup: every update point of
// every rank (a trainer's Adam step) meets the same update point of the others, and all ranks
// step with the same gradients, so their weights stay identical bit for bit.
//
// At an update point each rank either contributes its gradients (it had a loss to back-propagate)
// or not (nothing to learn from there: no feasible plan yet, or no task in that slot of the
// round). The gradients become their mean over the contributing ranks; a parameter no rank has a
// gradient for keeps none (Adam leaves it alone); then the norm is clipped and Adam steps, on
// every rank alike. With one rank (or no group) this is the plain clipped Adam step.
//
//   GradientSync sync(&group, policy->parameters(), maxGradNorm);
//   loss.backward(); sync.step(*optimizer, true);   // a rank with a loss
//   optimizer->zero_grad(); sync.step(*optimizer, false);   // a rank without one
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace gp::rl {

class DistGroup;

class GradientSync {
 public:
  // `group` may be null (a single process); it must outlive this object.
  GradientSync(DistGroup* group, std::vector<torch::Tensor> parameters, double maxGradNorm);

  // One update point: the gradients averaged over the contributing ranks (a collective on every
  // rank of the group), clipped, and one optimizer step. Throws gp::Error("distributed", ...)
  // when a peer fails.
  void step(torch::optim::Optimizer& optimizer, bool contributed);
  // The update points met so far (pre-training pads a rank's round to the same count).
  int64_t steps() const { return steps_; }

 private:
  DistGroup* group_;
  std::vector<torch::Tensor> params_;
  double maxGradNorm_;
  int64_t steps_ = 0;
};

}  // namespace gp::rl
