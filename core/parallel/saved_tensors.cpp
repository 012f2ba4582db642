#include "parallel/saved_tensors.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "graph/flops.h"
#include "graph/op_class.h"

namespace gp {
namespace {

enum class Saves { Nothing, Output, FirstInput, Mask, Indices, Inputs };

Saves rule(const std::string& t) {
  static const std::unordered_set<std::string> kNothing = {
      "add", "addn", "sub", "biasadd", "neg", "cast", "transpose", "permute", "split", "splitv", "concat", "concatv",
      "cat", "slice", "stridedslice", "narrow", "select", "expand", "broadcastto", "tile", "repeat", "repeatinterleave",
      "pad", "contiguous", "clone", "copy", "sum", "reducesum", "mean", "reducemean", "concatfromsequence", "sequenceconstruct",
      "splittosequence", "where", "masked_fill", "maskedfill", "range", "arange", "constantofshape", "zeros", "ones",
      "full", "equal", "less", "greater", "not", "and", "or", "trilu", "triu", "tril", "onehot", "argmax", "topk"};
  static const std::unordered_set<std::string> kOutput = {"softmax", "logsoftmax", "sigmoid", "tanh", "relu",
                                                          "relu6", "exp", "sqrt", "rsqrt", "reciprocal"};
  static const std::unordered_set<std::string> kFirstInput = {
      "gelu", "fastgelu", "silu", "swish", "erf", "log", "pow", "layernorm", "layernormalization", "rmsnorm",
      "simplifiedlayernormalization", "skiplayernormalization", "batchnorm", "batchnormalization", "fusedbatchnorm",
      "groupnorm", "groupnormalization", "instancenorm", "instancenormalization", "conv", "conv1d", "conv2d", "conv3d",
      "convolution", "depthwiseconv2dnative", "convtranspose", "maxpool", "maxpool1d", "maxpool2d", "maxpool3d",
      "leakyrelu", "elu", "selu", "softplus", "mish", "hardswish", "hardsigmoid", "abs", "sin", "cos"};
  if (kNothing.contains(t)) return Saves::Nothing;
  if (kOutput.contains(t)) return Saves::Output;
  if (kFirstInput.contains(t)) return Saves::FirstInput;
  if (t == "dropout") return Saves::Mask;
  if (t == "gather" || t == "embedding" || t == "resourcegather" || t == "gatherelements") return Saves::Indices;
  return Saves::Inputs;
}

int64_t elements(const Graph& g, TensorId t) { return g.hasShape(t) ? flops::numel(g.shape(t)) : -1; }

}  // namespace

std::vector<char> tensorsRequiringGrad(const Graph& g, std::span<const OpId> topo) {
  std::vector<char> needs(static_cast<size_t>(g.numTensors()), 0);
  for (TensorId t = 0; t < g.numTensors(); ++t)
    if (g.tensorKind(t) == TensorKind::Parameter) needs[static_cast<size_t>(t)] = 1;
  for (OpId op : topo) {
    bool any = false;
    for (TensorId x : g.inputs(op)) any = any || needs[static_cast<size_t>(x)];
    if (any)
      for (TensorId y : g.outputs(op)) needs[static_cast<size_t>(y)] = 1;
  }
  return needs;
}

SavedForBackward savedForBackward(const Graph& g, OpId op, const std::vector<char>& requiresGrad) {
  SavedForBackward out;
  if (isMetadataOp(g.opType(op))) return out;
  const std::string t = normaliseOpType(g.opType(op));
  const auto ins = g.inputs(op);
  const auto outs = g.outputs(op);
  int needing = 0;  // inputs that require a gradient: with none, autograd records nothing
  for (TensorId x : ins) needing += requiresGrad[static_cast<size_t>(x)] ? 1 : 0;
  if (needing == 0) return out;
  auto firstActivation = [&]() -> TensorId {
    for (TensorId x : ins)
      if (g.tensorKind(x) == TensorKind::Activation) return x;
    return kNone;
  };
  switch (rule(t)) {
    case Saves::Nothing: return out;
    case Saves::Output:
      if (!outs.empty()) out.tensors.push_back(outs[0]);
      return out;
    case Saves::FirstInput:
      if (TensorId x = firstActivation(); x != kNone) out.tensors.push_back(x);
      return out;
    case Saves::Mask:
      if (!outs.empty()) out.maskBytes = static_cast<double>(std::max<int64_t>(0, elements(g, outs[0])));
      return out;
    case Saves::Indices:
      for (TensorId x : ins)
        if (g.tensorKind(x) == TensorKind::Activation) out.tensors.push_back(x);
      return out;
    case Saves::Inputs: break;
  }
  // Scaling by a scalar (a folded constant, or a one-element operand) keeps nothing.
  if (t == "mul" || t == "div" || t == "realdiv" || t == "truediv") {
    if (ins.size() < 2) return out;
    for (TensorId x : ins)
      if (elements(g, x) == 1) return out;
  }
  // An input is kept when another input's gradient needs it.
  for (TensorId x : ins) {
    if (g.tensorKind(x) != TensorKind::Activation) continue;
    const int others = needing - (requiresGrad[static_cast<size_t>(x)] ? 1 : 0);
    if (ins.size() == 1 || others > 0) out.tensors.push_back(x);
  }
  return out;
}

}  // namespace gp
