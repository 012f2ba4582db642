// What an op's backward pass needs from its forward pass: the tensors autograd keeps (as
// PyTorch's derivative formulas save them), by op type.
//
// - nothing: sums and differences (Add, Sub, BiasAdd, AddN), views and copies (Transpose,
//   Split, Concat, Slice, Expand, Pad, Cast), sum / mean reductions, metadata ops;
// - the output: Softmax, LogSoftmax, Sigmoid, Tanh, Relu, Exp, Sqrt, Rsqrt, Reciprocal;
// - the first activation input: GELU, SiLU / Swish, Erf, Log, Pow, LayerNorm, RMSNorm, batch /
//   group / instance norms, convolutions, max pooling;
// - a scaling by a scalar (Mul or Div with one input, or with a one-element operand): nothing;
// - Dropout: its mask, one byte per element;
// - a lookup (Gather): its indices;
// - every other op (products, Mul / Div of two tensors, unknown types): its inputs that are not
//   parameters (a weight's gradient needs the activation; the weight itself is in memory anyway).
#pragma once
#include <vector>

#include "graph/graph.h"

namespace gp {

struct SavedForBackward {
  std::vector<TensorId> tensors;  // activations or graph inputs the backward pass reads
  double maskBytes = 0;           // bytes of masks the op makes and keeps (Dropout)
};

SavedForBackward savedForBackward(const Graph& g, OpId op);

}  // namespace gp
