// The learned cost model's network (costmodel/learned_cost.h says what it is and how it
// trains) and its file.
//
// Input: a batch of (graph, configuration) samples as one disjoint graph whose nodes are
// grouped into parts (a whole sample, or one segment of a sample under Graph Segment
// Training). Per node: opcode embedding ++ node row ++ the configuration row (the kernel
// task's whole-graph row on every node; a plan's row on its configurable node, zeros elsewhere)
// -> linear -> GraphSAGE layers h <- LayerNorm(h + relu(W [h, mean of neighbours])) over the
// edges both ways. Per part: the sum of per-node costs exp(MLP(h)) (microseconds) and the
// sum of the states. Per sample: log(sum of its parts' costs) + MLP(mean state) = log runtime
// in microseconds.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"

namespace gp::rl {

struct CostBatch {
  torch::Tensor opcode;      // [V] int64, model vocabulary
  torch::Tensor nodeFeat;    // [V, nodeWidth]
  torch::Tensor configFeat;  // [V, configWidth]
  torch::Tensor src, dst;    // [E] int64, each undirected edge listed both ways
  torch::Tensor invDegree;   // [V] 1 / max(1, neighbours)
  torch::Tensor partOf;      // [V] int64
  int64_t parts = 0;
};

struct PartSums {
  torch::Tensor cost;   // [P] microseconds
  torch::Tensor state;  // [P, H]
};

struct CostGnnImpl : torch::nn::Module {
  CostGnnImpl(int64_t vocab, int64_t nodeWidth, int64_t configWidth, int64_t hidden, int64_t layers);
  PartSums parts(const CostBatch& b);
  // log runtime (µs) per sample from the sums over its parts and its node count.
  torch::Tensor head(const torch::Tensor& costSum, const torch::Tensor& stateSum, const torch::Tensor& nodes);

  int64_t vocab, nodeWidth, configWidth, hidden, layers;
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear input{nullptr};
  torch::nn::ModuleList sage;
  torch::nn::ModuleList norms;
  torch::nn::Sequential cost{nullptr}, correction{nullptr};
};
TORCH_MODULE(CostGnn);

// A trained model with what it needs to read a dataset.
struct LearnedCostModel {
  CostGnn net{nullptr};
  CostTask task = CostTask::Kernel;
  std::vector<std::string> opcodes;  // index 0 is "<unknown>"
  int64_t segmentNodes = 0;
  std::string deviceKind;            // the device kind it was trained on
};

// Throws gp::Error(path, ...) on a file that is not one, or made for other feature widths.
LearnedCostModel loadLearnedCostModel(const std::string& path);
void saveLearnedCostModel(const LearnedCostModel& m, const std::string& path);

}  // namespace gp::rl
