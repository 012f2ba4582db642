// The attention cores of a graph: softmax(Q K^T [scaled, masked]) V as the ops that compute it,
// which a fused kernel (FlashAttention) runs as one and selective recomputation recomputes.
//
// A core is found from each Softmax: back through element-wise ops of the scores' size (scale,
// mask addition, casts) to a product of two activations (Q K^T), forward through ops of the same
// size (dropout, casts) to a product of two activations that reads it (P V). Q and K are the
// first product's inputs, V the second's other input, the output its output. A core is causal
// when something added to or selecting its scores comes from a causal mask: within a few ops
// back, a tensor or op named "causal", or a Trilu / triu / tril op.
#pragma once
#include <vector>

#include "graph/graph.h"

namespace gp {

struct AttentionCore {
  std::vector<OpId> ops;  // Q K^T .. P V, in graph order
  OpId scores = kNone, softmax = kNone, context = kNone;  // Q K^T, the softmax, P V
  TensorId q = kNone, k = kNone, v = kNone, out = kNone;
  int64_t rows = 0;  // softmax rows: batch x heads x queries (FlashAttention keeps one statistic each)
  bool causal = false;
};

std::vector<AttentionCore> findAttentionCores(const Graph& g);

}  // namespace gp
