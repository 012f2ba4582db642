// Auto-MAP's DQN over parallel plans (optimize/parallel_dqn.h is the interface): a Q-network
// over the decision steps of parallel/plan_decisions.h, double Q-learning from a replay buffer
// with a target network, epsilon-greedy exploration over the pruned actions.
//
// Q-network: features (kNumDecisionFeatures) -> 128 -> 128 -> one Q-value per action slot,
// ReLU. An episode's only reward is at its end (the plan's MFU), so the target of a step is
// the target network's value of the online network's best next action, or the reward at the
// last step. After each episode: 4 updates of 64 transitions (Huber loss, Adam 1e-3); the target
// network follows every 100 updates.
//
// Files: a torch archive with "gp_parallel_dqn_format" = 1, the network's sizes and weights;
// the shipped one is resources/policies/parallel_dqn.pt (scripts/pretrain-parallel-dqn.sh).
#pragma once
#include <torch/torch.h>

#include <atomic>
#include <random>
#include <string>
#include <vector>

#include "optimize/parallel_dqn.h"
#include "parallel/plan_decisions.h"

namespace gp::rl {

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t inputs, int64_t hidden, int64_t actions);
  torch::Tensor forward(torch::Tensor x);
  int64_t inputs, hidden, actions;
  torch::nn::Linear l1{nullptr}, l2{nullptr}, l3{nullptr};
};
TORCH_MODULE(QNet);

QNet newQNet();
void saveQNet(QNet& net, const std::string& path);
// Throws gp::Error(path, ...) for a missing file or one that is not a parallel DQN of this size.
QNet loadQNet(const std::string& path);
// resources/policies/parallel_dqn.pt, or "" when it is not there.
std::string defaultParallelDqnPath();

class DqnLearner {
 public:
  DqnLearner(QNet net, uint64_t seed);
  // One episode on env: actions, the plan's reward from `eval`, transitions stored, updates.
  // Returns the reward; `loss` gets the mean TD loss of the updates (0 when none ran).
  double episode(const PlanDecisions& env, PlanEvaluator& eval, double epsilon, double& loss);
  QNet& net() { return net_; }

 private:
  struct Transition {
    std::array<float, kNumDecisionFeatures> state, next;
    std::array<bool, kNumActions> nextMask;
    int action = 0;
    float reward = 0;
    bool done = false;
  };
  double update();
  QNet net_, target_;
  torch::optim::Adam opt_;
  std::vector<Transition> replay_;
  size_t replayNext_ = 0;
  int updates_ = 0;
  std::mt19937_64 rng_;
};

// The number of finished shapes the pruned decision tree holds.
int64_t countPlanShapes(const PlanDecisions& env);

ParallelResult runParallelDqn(const StageCostModel& model, int64_t globalBatch, const DqnOptions& options,
                              const DqnEpisodeFn& onEpisode, const std::atomic<bool>* cancel);
DqnPretrainResult runParallelPretrain(const std::vector<std::unique_ptr<ParallelTask>>& tasks,
                                      const DqnPretrainOptions& options, const DqnEpisodeFn& onEpisode,
                                      const std::atomic<bool>* cancel);

}  // namespace gp::rl
