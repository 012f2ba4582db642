// The GDP/GO placement policy (Zhou et al. 2019/2020), in LibTorch:
//   op-type embedding + node features
//   -> GraphSAGE encoder (sageLayers layers; mean over fan-in and over fan-out, concatenated
//      with the node's own state, linear, ReLU, layer norm)
//   -> "superposition": a graph embedding (mean of node states) produces a per-layer scale and
//      shift (FiLM) applied to the hidden layers, so one network specialises per graph
//   -> segment-recurrent attention placer (Transformer-XL style): ops in topological order,
//      segments of `segment` ops; each segment attends to itself and to the cached (detached)
//      states of the previous segment
//   -> per-op device logits; a unit's logits are the mean of its ops' logits; devices beyond
//      the cluster's count are masked to -1e9 (an "-inf" that keeps softmax and entropy finite).
//      A value head reads the graph embedding (mean of the final states). The device count
//      (numDevices / 16, log2(numDevices) / 4) is appended to the FiLM and value inputs.
#pragma once
#include <torch/torch.h>

#include "rl/policy_tensors.h"

namespace gp::rl {

struct PolicyConfig {
  int64_t hidden = 64;
  int64_t typeEmbedding = 16;
  int64_t sageLayers = 3;
  int64_t segment = 128;
  int64_t heads = 4;
  int64_t maxDevices = kMaxDevices;
  bool film = true;
};

struct PolicyOutput {
  torch::Tensor unitLogits;  // [numUnits, maxDevices], -1e9 beyond numDevices
  torch::Tensor value;       // [] scalar estimate of the reward
};

class GdpPolicyImpl : public torch::nn::Module {
 public:
  GdpPolicyImpl(int64_t featureDim, PolicyConfig config = {});
  PolicyOutput forward(const PolicyInput& in, int64_t numDevices);
  const PolicyConfig& config() const { return config_; }
  int64_t featureDim() const { return featureDim_; }

 private:
  int64_t numFilmLayers() const;  // sageLayers + 2 (attention block, feed-forward block)

  PolicyConfig config_;
  int64_t featureDim_;
  // layers registered in the constructor (see gdp_policy.cpp)
  torch::nn::Embedding typeEmbed_{nullptr};
  torch::nn::Linear inputProj_{nullptr};
  std::vector<torch::nn::Linear> sage_;
  std::vector<torch::nn::LayerNorm> sageNorm_;
  torch::nn::Linear film_{nullptr};
  torch::nn::MultiheadAttention attention_{nullptr};
  torch::nn::LayerNorm attnNorm_{nullptr};
  torch::nn::Sequential feedForward_{nullptr};
  torch::nn::LayerNorm ffNorm_{nullptr};
  torch::nn::Linear deviceHead_{nullptr};
  torch::nn::Sequential valueHead_{nullptr};
};
TORCH_MODULE(GdpPolicy);

}  // namespace gp::rl
