// What an op's backward pass needs from its forward pass: the tensors autograd keeps (as
// PyTorch's derivative formulas save them), by op type. Parameters and graph inputs (the batch,
// rotary tables, masks) are in memory for the whole step anyway and are not counted.
//
// - nothing: sums and differences (Add, Sub, BiasAdd, AddN), views and copies (Transpose,
//   Split, Concat, Slice, Expand, Pad, Cast), sum / mean reductions, metadata ops;
// - the output: Softmax, LogSoftmax, Sigmoid, Tanh, Relu, Exp, Sqrt, Rsqrt, Reciprocal;
// - the first activation input: GELU, SiLU / Swish, Erf, Log, Pow, LayerNorm, RMSNorm, batch /
//   group / instance norms, convolutions, max pooling;
// - a scaling by a scalar (Mul or Div with one input, or with a one-element operand): nothing;
// - Dropout: its mask, one byte per element;
// - a lookup (Gather): its indices;
// - every other op (products, Mul / Div of two tensors, unknown types): each input that is not a
//   parameter and that another input's gradient needs, i.e. when some other input requires a
//   gradient (a weight's gradient needs the activation; the weight itself is in memory anyway).
//   A product with a tensor that requires none (rotary embeddings' cos and sin, a constant
//   mask) keeps only that tensor, as autograd does, and not the activation. An op with one
//   input keeps it.
//
// A tensor requires a gradient when it is a parameter or an op that reads one computed it; an op
// none of whose inputs requires one keeps nothing.
#pragma once
#include <span>
#include <vector>

#include "graph/graph.h"

namespace gp {

struct SavedForBackward {
  std::vector<TensorId> tensors;  // activations the backward pass reads
  double maskBytes = 0;           // bytes of masks the op makes and keeps (Dropout)
};

// Per tensor: 1 when it requires a gradient (`topo`: the graph's ops in a topological order).
std::vector<char> tensorsRequiringGrad(const Graph& g, std::span<const OpId> topo);

SavedForBackward savedForBackward(const Graph& g, OpId op, const std::vector<char>& requiresGrad);

}  // namespace gp
