// The GDP/GO placement policy (Zhou et al. 2019/2020), in LibTorch:
//   op-type embedding + node features
//   -> GraphSAGE encoder (sageLayers layers; mean over fan-in and over fan-out, concatenated
//      with the node's own state, linear, ReLU, layer norm)
//   -> "superposition": a graph embedding (mean of node states) produces a per-layer scale and
//      shift (FiLM) applied to the hidden layers, so one network specialises per graph
//   -> segment-recurrent attention placer (Transformer-XL style): ops in topological order,
//      segments of `segment` ops; each segment attends to itself and to the cached (detached)
//      states of the previous segment
//   -> per-op device logits: a device-index head (or, with relativeDevices, a function of each
//      unit's relations to each device in the current plan) plus a match of the op's query against each
//      device's embedding (of its kDeviceFeatures: present, load share under the current plan,
//      memory share, speed), so "move to the least loaded device" reads the same on every
//      cluster and device numbering; a unit's logits are the mean of its ops' logits; devices beyond
//      the cluster's count are masked to -1e9 (an "-inf" that keeps softmax and entropy finite).
//      A value head reads the graph embedding (mean of the final states). The device count
//      (numDevices / 16, log2(numDevices) / 4) is appended to the FiLM and value inputs.
// Multi-task (GO; PolicyConfig::multiTask): two more segment-recurrent attention stacks,
// one for scheduling and one for fusion, over the shared GraphSAGE states plus the placement
// stack's output (the placement decisions' representation feeds them). Action residual
// connections: a stack's per-op head reads its final state plus embeddings of the *sampled*
// decisions of the tasks before it — the op's device and the fractions of its producers and
// consumers on other devices (for scheduling and fusion), and its scheduling level (for fusion).
// Heads: scheduleLevels priority levels per op (the plan's priority is level * ops + the
// critical-path rank, so level 0 everywhere is the rank order) and fusionLevels fusion priorities
// per op (0: never fuses; fuseByPriority turns them into groups).
// Graph Segment Training on large graphs: forwardSegments recomputes a sample of segments and
// takes the rest from the historical table a full forward pass recorded (rl/segment_training.h).
#pragma once
#include <torch/torch.h>

#include "rl/policy_tensors.h"
#include "rl/segment_training.h"

namespace gp::rl {

struct PolicyConfig {
  int64_t hidden = 64;
  int64_t typeEmbedding = 16;
  int64_t sageLayers = 3;
  int64_t segment = 128;
  int64_t heads = 4;
  int64_t maxDevices = kMaxDevices;
  bool film = true;
  bool multiTask = true;       // scheduling and fusion stacks (false: a placement-only policy file)
  int64_t scheduleLevels = 4;
  int64_t fusionLevels = 4;
  // The current plan's devices as a prior: each unit's device logits get keep x its current
  // device's share of the unit (a learned scale starting at kKeepPriorInit), so an untrained
  // policy proposes the current plan and learning says where to move from it.
  bool keepPrior = false;
  // Devices only through what they are and how the unit relates to them: no device-index head and
  // no one-hot of the current device in the op features; instead a small learned function of each
  // (unit, device) pair in the current plan (the unit's share of ops there, the shares of its
  // input and output bytes crossing from and to it). The logits then do not depend on how the
  // devices are numbered, so plans that differ only by a renumbering teach the same thing.
  bool relativeDevices = false;
};
inline constexpr double kKeepPriorInit = 4.0;

// Which stacks a forward pass runs (the tasks being optimized).
struct PolicyHeads {
  bool schedule = false, fusion = false;
};

struct PolicyOutput {
  torch::Tensor unitLogits;     // [numUnits, maxDevices], -1e9 beyond numDevices
  torch::Tensor value;          // [] scalar estimate of the reward
  torch::Tensor scheduleState;  // [numOps, hidden] in op order, when heads.schedule
  torch::Tensor fusionState;    // [numOps, hidden] in op order, when heads.fusion
};

// One segment-recurrent attention block (attention over [previous segment, segment], then a
// feed-forward layer, each with a residual and a layer norm): the scheduling and fusion stacks.
class AttentionStackImpl : public torch::nn::Module {
 public:
  AttentionStackImpl(int64_t hidden, int64_t heads);
  // x: [N, H] in topological order; returns [N, H] in topological order (or the rows of the
  // `wanted` ranks, in their order).
  torch::Tensor forward(const torch::Tensor& x, int64_t segment, const torch::Tensor& wanted = {});

 private:
  torch::nn::MultiheadAttention attention_{nullptr};
  torch::nn::LayerNorm attnNorm_{nullptr}, ffNorm_{nullptr};
  torch::nn::Sequential feedForward_{nullptr};
};
TORCH_MODULE(AttentionStack);

class GdpPolicyImpl : public torch::nn::Module {
 public:
  GdpPolicyImpl(int64_t featureDim, PolicyConfig config = {});
  // The full pass; with `record`, its detached states are stored there (the GST table).
  PolicyOutput forward(const PolicyInput& in, int64_t numDevices, PolicyHeads heads = {},
                       HistoryTable* record = nullptr);
  // Graph Segment Training: the sampled segments' states recomputed, every other op's from
  // `table` (filled by a full pass on the same input with the same heads). The outputs cover
  // every op; gradients reach the parameters through the sampled ops (and through the heads
  // applied to the table's rows).
  PolicyOutput forwardSegments(const PolicyInput& in, int64_t numDevices, PolicyHeads heads,
                               const HistoryTable& table, const SegmentSample& sample);
  // Per-op level logits given K sampled decisions (action residuals): opDevice [K, N] int64
  // (each op's device), scheduleLevel [K, N] int64. Return [K, N, levels]. Need multiTask and the
  // matching state in `out`. With reference decisions (refDevice [N], refLevel [N]: the
  // incumbent's, which samples perturb), the heads run once on the reference and again only
  // where a sample's inputs differ from it: the same values at a fraction of the work.
  torch::Tensor scheduleLogits(const PolicyOutput& out, const PolicyInput& in, const torch::Tensor& opDevice,
                               const torch::Tensor& refDevice = {});
  torch::Tensor fusionLogits(const PolicyOutput& out, const PolicyInput& in, const torch::Tensor& opDevice,
                             const torch::Tensor& scheduleLevel, const torch::Tensor& refDevice = {},
                             const torch::Tensor& refLevel = {});
  const PolicyConfig& config() const { return config_; }
  int64_t featureDim() const { return featureDim_; }

 private:
  int64_t numFilmLayers() const;  // sageLayers + 2 (attention block, feed-forward block)
  // forward (table null) and forwardSegments
  PolicyOutput run(const PolicyInput& in, int64_t numDevices, PolicyHeads heads, const HistoryTable* table,
                   const SegmentSample* sample, HistoryTable* record);

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
  torch::nn::Linear deviceHead_{nullptr};  // absolute device ids; not with relativeDevices
  torch::nn::Sequential pairHead_{nullptr};  // relativeDevices
  torch::nn::Linear deviceQuery_{nullptr};
  torch::nn::Sequential deviceEmbed_{nullptr};
  torch::nn::Sequential valueHead_{nullptr};
  torch::Tensor keep_;  // [1], with config_.keepPrior
  // multi-task: stacks, action-residual embeddings, heads
  AttentionStack scheduleStack_{nullptr}, fusionStack_{nullptr};
  torch::nn::Embedding scheduleDevice_{nullptr}, fusionDevice_{nullptr}, fusionLevel_{nullptr};
  torch::nn::Linear scheduleCross_{nullptr}, fusionCross_{nullptr};
  torch::nn::Linear scheduleHead_{nullptr}, fusionHead_{nullptr};
};
TORCH_MODULE(GdpPolicy);

}  // namespace gp::rl
