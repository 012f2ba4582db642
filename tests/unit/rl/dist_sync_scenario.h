// A data-parallel update scenario shared by gp_dist_rank's sync mode (one rank each) and the
// test that works out in one process what the ranks must end with.
#pragma once
#include <torch/torch.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "rl/gradient_sync.h"

namespace gptest {

inline constexpr double kSyncMaxNorm = 1.0;
inline constexpr int kSyncSteps = 4;

// The same start weights on every rank.
inline torch::nn::Linear syncModel() {
  torch::manual_seed(0);
  return torch::nn::Linear(3, 2);
}

// Rank r's loss at step k: its own input, so the ranks' gradients differ.
inline torch::Tensor syncLoss(torch::nn::Linear& m, int rank, int step) {
  const torch::Tensor x = torch::tensor({1.0f, 2.0f, -3.0f}) * static_cast<float>(rank + 1);
  return m->forward(x).pow(2).sum() * static_cast<float>(step + 1);
}

// Rank 1 has nothing to contribute at step 2 (as a task without a feasible plan yet).
inline bool syncContributes(int rank, int step) { return !(rank == 1 && step == 2); }

// kSyncSteps Adam steps on rank `rank`, each through the GradientSync `syncFor` makes.
inline torch::nn::Linear syncUpdates(int rank,
                                     const std::function<std::shared_ptr<gp::rl::GradientSync>(torch::nn::Linear&)>& syncFor) {
  torch::nn::Linear m = syncModel();
  torch::optim::Adam adam(m->parameters(), torch::optim::AdamOptions(0.1));
  const std::shared_ptr<gp::rl::GradientSync> sync = syncFor(m);
  for (int k = 0; k < kSyncSteps; ++k) {
    adam.zero_grad();
    const bool mine = syncContributes(rank, k);
    if (mine) syncLoss(m, rank, k).backward();
    sync->step(adam, mine);
  }
  return m;
}

// Every weight, exactly.
inline std::string weightsText(torch::nn::Linear& m) {
  std::string s;
  char buf[40];
  for (const torch::Tensor& p : m->parameters()) {
    const torch::Tensor c = p.detach().contiguous().view({-1});
    for (int64_t i = 0; i < c.numel(); ++i) {
      std::snprintf(buf, sizeof buf, " %.9g", c[i].item<float>());
      s += buf;
    }
  }
  return s;
}

}  // namespace gptest
