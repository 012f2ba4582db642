#include "rl/gradient_sync.h"

#include "rl/dist_group.h"

namespace gp::rl {

GradientSync::GradientSync(DistGroup* group, std::vector<torch::Tensor> parameters, double maxGradNorm)
    : group_(group), params_(std::move(parameters)), maxGradNorm_(maxGradNorm) {}

void GradientSync::step(torch::optim::Optimizer& optimizer, bool contributed) {
  ++steps_;
  if (group_ && group_->worldSize() > 1) {
    // one buffer: every parameter's gradient (zeros where this rank has none), then per parameter
    // whether this rank has one, then whether this rank contributes at all; summed over the ranks
    int64_t total = 0;
    for (const torch::Tensor& p : params_) total += p.numel();
    const auto n = static_cast<int64_t>(params_.size());
    torch::Tensor buffer = torch::zeros({total + n + 1}, torch::kFloat32);
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const torch::Tensor& p = params_[i];
      const torch::Tensor& g = p.grad();
      if (contributed && g.defined()) {
        buffer.slice(0, at, at + p.numel()).copy_(g.reshape({-1}));
        buffer[total + i] = 1.0f;
      }
      at += p.numel();
    }
    if (contributed) buffer[total + n] = 1.0f;
    std::vector<torch::Tensor> t{buffer};
    group_->allReduceSum(t);
    const float ranks = buffer[total + n].item<float>();
    at = 0;
    for (int64_t i = 0; i < n; ++i) {
      torch::Tensor& p = params_[i];
      if (ranks > 0 && buffer[total + i].item<float>() > 0)
        p.mutable_grad() = (buffer.slice(0, at, at + p.numel()) / ranks).view_as(p).clone();
      else
        p.mutable_grad() = torch::Tensor();
      at += p.numel();
    }
  } else if (!contributed) {
    return;
  }
  torch::nn::utils::clip_grad_norm_(params_, maxGradNorm_);
  optimizer.step();
}

}  // namespace gp::rl
