// Training the learned cost model on a dataset and predicting with it (costmodel/learned_cost.h
// says what the model and Graph Segment Training are).
#pragma once
#include <torch/torch.h>

#include <atomic>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/learned_cost.h"
#include "rl/cost_gnn.h"

namespace gp::rl {

// ListMLE (Xia et al. 2008) of scores (higher = predicted faster) against measured runtimes:
// the negative log-likelihood of the measured order under the Plackett-Luce model.
torch::Tensor listMleLoss(const torch::Tensor& scores, const torch::Tensor& runtimes);
// Pairwise hinge: mean over pairs with different runtimes of max(0, margin - (s_fast - s_slow)).
torch::Tensor pairwiseHingeLoss(const torch::Tensor& scores, const torch::Tensor& runtimes, double margin = 0.1);

// Trains a new model on `train`. Throws gp::Error on an empty dataset or when cancelled before
// the first epoch ends (a later cancel keeps what was learned).
LearnedCostModel trainCostModel(const CostDataset& train, const CostTrainOptions& options, const CostTrainFn& onEpoch,
                                const std::atomic<bool>* cancel, CostTrainResult& result);

// Predicted runtimes (seconds) of every configuration of every graph of `d`. Throws gp::Error
// when the dataset's task or feature widths are not the model's.
std::vector<std::vector<double>> predictCosts(const LearnedCostModel& m, const CostDataset& d);

}  // namespace gp::rl
