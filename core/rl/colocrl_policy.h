// ColocRL (Mirhoseini et al., "Device Placement Optimization with Reinforcement Learning",
// ICML 2017) as a second placement policy, so that the paper's method can be compared with the
// GDP policy on the same graphs. The trainer (REINFORCE) is core/rl/colocrl_trainer.h.
//
// Co-location groups (the paper's tokens). The paper feeds its seq2seq model one token per
// co-location group. Our placement units (colocation groups or single ops) number up to 64k on
// GNMT, far too many for a sequential decoder, so a token here is a *chunk*: the move groups of
// GraphFeatures (a forward op with its gradient and update ops, colocation groups included),
// taken in topological order of their first op, merged into at most `maxGroups` contiguous chunks
// of roughly equal weight. Weight of a move group = 0.9 * its share of the graph's op time (each
// op at its fastest device's time, as GraphFeatures does) + 0.1 * its share of the ops, so that
// a run of zero-time ops (reshapes, constants) still spreads over chunks. The chunking is greedy:
// a chunk closes before a move group that would take it more than half that group's weight past
// the target (the weight still to place / the chunks still free), or when each move group left
// can have a chunk of its own. With no more move groups than `maxGroups`, every move group is its
// own chunk. A forward op and its gradient and update ops always share a device (as TensorFlow's
// colocate_gradients_with_ops, which the paper's graphs used). Every unit of a chunk gets the chunk's device,
// so colocation always holds.
//
// Token features per chunk (the paper: op type, output size, adjacency): the mean of the hashed
// op types' embeddings (typeMix: the fraction of the chunk's ops of each type bucket, times the
// embedding table), and kColocTokenDim numbers: log1p of total FLOPs, op time (us), output
// bytes, parameter bytes and op count; log1p of the bytes the chunk sends to / receives from
// other chunks (a tensor counted once per destination chunk); the fraction of the chunk's edges
// whose other end is in an earlier / a later chunk; the fractions of forward, backward and update
// ops; the chunk's position (index / (chunks - 1)). Log scales are divided by a typical maximum,
// as in graph_features.cpp.
//
// Network (the paper's attentional seq2seq, hidden ~64):
//   token = tanh(Linear([typeEmbedding bag, numbers]))                       [C, H]
//   encoder: bidirectional LSTM (H/2 per direction) over the chunks in order  [C, H]
//   decoder: LSTMCell, h0 = tanh(Linear(mean encoder state)), c0 = 0; the input at step t is
//            [embedding of the device chosen at t-1 ("go" symbol at t = 0), encoder state t]
//            (the paper feeds the previous device's embedding; the aligned encoder state is our
//            addition, so the decoder need not learn to align by position through attention)
//   attention: Luong's "general" content-based attention over the encoder states,
//            context_t = softmax(h_t W_a enc^T) enc, and his output layer:
//            logits_t = W_o tanh(W_c [h_t, context_t])                        [K, maxDevices]
//            (Bahdanau's additive score, K x C x width per step, made a 256-chunk decode ~7x slower)
//   logits beyond the cluster's device count are -1e9 (the "-inf" of gdp_policy.cpp that keeps
//   softmax and entropy finite). Decoding is sequential over the chunks (that is the paper), K
//   sequences at a time (batch K); each step samples from a seeded generator or takes the argmax.
#pragma once
#include <torch/torch.h>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "cost/cost_model.h"
#include "graph/graph.h"
#include "rl/graph_features.h"

namespace gp::rl {

inline constexpr int32_t kColocMaxGroups = 256;
inline constexpr int32_t kColocTokenDim = 13;

struct ColocGroups {
  int32_t numGroups = 0;
  std::vector<int32_t> groupOfUnit;  // per placement unit of GraphFeatures: its chunk, in topological order
  std::vector<float> tokens;         // numGroups * kColocTokenDim, row-major (see above)
  std::vector<float> typeMix;        // numGroups * kOpTypeVocab: fraction of the chunk's ops per type bucket
};

// Throws gp::Error when maxGroups < 1 or `f` is not the features of `g`.
ColocGroups buildColocGroups(const Graph& g, const CostModel& cost, const GraphFeatures& f,
                             int32_t maxGroups = kColocMaxGroups);

// Per placement unit: the device of its chunk.
std::vector<int32_t> unitsFromGroups(const ColocGroups& groups, const std::vector<int32_t>& groupDevice);

struct ColocInput {
  torch::Tensor tokens;   // [C, kColocTokenDim] float
  torch::Tensor typeMix;  // [C, kOpTypeVocab] float
  int64_t numGroups = 0;
};
ColocInput toColocInput(const ColocGroups& groups);

struct ColocRlConfig {
  int64_t hidden = 64;  // encoder (both directions together) and decoder state
  int64_t typeEmbedding = 16;
  int64_t deviceEmbedding = 16;
  int64_t maxDevices = kMaxDevices;
};

struct ColocDecode {
  torch::Tensor devices;  // [K, C] int64, each < numDevices
  torch::Tensor logProb;  // [K] sum over the chunks of log pi(device) (differentiable when grad is on)
  torch::Tensor entropy;  // [] mean per-chunk entropy of the K sequences (nats)
  torch::Tensor logits;   // [K, C, maxDevices], -1e9 beyond numDevices
};

class ColocRlPolicyImpl : public torch::nn::Module {
 public:
  explicit ColocRlPolicyImpl(ColocRlConfig config = {});

  // Decodes `samples` device sequences over the chunks: sampled from softmax(logits) with
  // `generator`, or the argmax when `generator` is null. `stop` is polled before every decoder
  // step: nullopt when it says stop. With grad on and `abandon` given, the backward pass of the
  // result throws ColocBackwardAbandoned between decoder steps once *abandon is set.
  // Throws gp::Error when numDevices is not in [1, maxDevices] or there are no chunks.
  std::optional<ColocDecode> decode(const ColocInput& in, int64_t numDevices, int64_t samples, at::Generator* generator,
                                    const std::function<bool()>& stop = {}, const std::atomic<bool>* abandon = nullptr);
  const ColocRlConfig& config() const { return config_; }

 private:
  ColocRlConfig config_;
  torch::nn::Embedding typeEmbed_{nullptr}, deviceEmbed_{nullptr};
  torch::nn::Linear tokenProj_{nullptr};
  torch::nn::LSTM encoder_{nullptr};
  torch::nn::Linear initState_{nullptr};
  torch::nn::LSTMCell decoder_{nullptr};
  torch::nn::Linear attnKey_{nullptr};
  torch::nn::Linear combine_{nullptr}, deviceHead_{nullptr};
};
TORCH_MODULE(ColocRlPolicy);

// Thrown from a gradient hook to abandon a backward pass (see decode's `abandon`).
struct ColocBackwardAbandoned : std::runtime_error {
  ColocBackwardAbandoned() : std::runtime_error("ColocRL backward pass abandoned") {}
};

}  // namespace gp::rl
