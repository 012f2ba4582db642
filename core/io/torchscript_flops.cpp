#include "io/torchscript_flops.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "graph/flops.h"

namespace gp::ts {
namespace {

using Shape = std::span<const int64_t>;
using Args = std::span<const ArgValue>;

Shape shapeAt(Args a, size_t i) {
  return i < a.size() && a[i].isTensor() ? a[i].shape() : Shape{};
}
bool tensorAt(Args a, size_t i) {
  return i < a.size() && a[i].isTensor();
}
int64_t intAt(Args a, size_t i, int64_t fallback) {
  if (i < a.size() && (a[i].kind == ArgValue::Kind::Int || a[i].kind == ArgValue::Kind::Bool) &&
      !a[i].ints.empty())
    return a[i].ints.front();
  return fallback;
}
double numelD(Shape s) {
  return static_cast<double>(flops::numel(s));
}
// Elements of tensor argument i; 0 when it is not a tensor (an int compare costs nothing here).
double elemsAt(Args a, size_t i) {
  return tensorAt(a, i) ? numelD(a[i].shape()) : 0.0;
}
int64_t kernelElems(Shape w) {
  return w.size() > 2 ? flops::numel(w.subspan(2)) : 1;
}

// Forward convolution producing `out` with weight (Cout, Cin/groups, k...).
double convFlops(Args args, Args res) {
  Shape out = shapeAt(res, 0), w = shapeAt(args, 1);
  if (out.empty() || w.size() < 2) return 0;
  return flops::conv(out, w[1], kernelElems(w), tensorAt(args, 2));
}

// Transposed convolution: weight (Cin, Cout/groups, k...); every input element meets
// Cout/groups * k weights.
double convTransposeFlops(Args args, Args res) {
  Shape in = shapeAt(args, 0), w = shapeAt(args, 1), out = shapeAt(res, 0);
  if (in.empty() || w.size() < 2) return 0;
  double f = 2.0 * numelD(in) * static_cast<double>(w[1]) * static_cast<double>(kernelElems(w));
  return f + (tensorAt(args, 2) ? numelD(out) : 0.0);
}

double linearFlops(Args args, Args res) {
  Shape out = shapeAt(res, 0), w = shapeAt(args, 1);
  if (out.empty() || w.empty()) return 0;
  return 2.0 * numelD(out) * static_cast<double>(w.back()) + (tensorAt(args, 2) ? numelD(out) : 0.0);
}

int rnnGates(std::string_view op) {
  if (op.starts_with("lstm")) return 4;
  if (op.starts_with("gru")) return 3;
  return 1;
}

// aten::lstm / gru / rnn_tanh / rnn_relu, both the padded (.input) and packed (.data) forms.
double rnnLayerFlops(std::string_view op, Args args) {
  const int gates = rnnGates(op);
  Shape in = shapeAt(args, 0);
  if (in.empty()) return 0;
  // .data overloads: (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidir)
  // .input overloads: (input, hx, params, has_biases, num_layers, dropout, train, bidir, batch_first)
  const bool packed =
      gates == 4 ? tensorAt(args, 1)
                 : (args.size() > 3 && tensorAt(args, 2) && args[3].kind == ArgValue::Kind::TensorList);
  const size_t hxAt = packed ? 2 : 1, layersAt = packed ? 5 : 4, bidirAt = packed ? 8 : 7;
  int64_t hidden = 0;
  if (hxAt < args.size()) {
    const ArgValue& hx = args[hxAt];
    // LSTM hx is (h, c); c carries the hidden size even with a projection.
    if (!hx.shapes.empty() && !hx.shapes.back().empty()) hidden = hx.shapes.back().back();
  }
  if (hidden <= 0) return 0;
  const int64_t layers = intAt(args, layersAt, 1), dirs = intAt(args, bidirAt, 0) ? 2 : 1;
  int64_t steps = 1, batch = 1;
  if (packed) {
    batch = in[0];
  } else if (in.size() == 3) {
    const bool batchFirst = intAt(args, 8, 0) != 0;
    steps = batchFirst ? in[1] : in[0];
    batch = batchFirst ? in[0] : in[1];
  } else if (in.size() == 2) {
    steps = in[0];
  }
  double perStep = 0;
  for (int64_t l = 0; l < layers; ++l)
    perStep += flops::rnnStep(batch, l == 0 ? in.back() : hidden * dirs, hidden, gates);
  return static_cast<double>(steps) * static_cast<double>(dirs) * perStep;
}

// aten::lstm_cell / gru_cell / rnn_tanh_cell / rnn_relu_cell: (input, hx, w_ih, w_hh, ...).
double rnnCellFlops(std::string_view op, Args args) {
  Shape in = shapeAt(args, 0), whh = shapeAt(args, 3);
  if (in.empty() || whh.empty()) return 0;
  const int64_t batch = in.size() >= 2 ? in[0] : 1;
  return flops::rnnStep(batch, in.back(), whh.back(), rnnGates(op));
}

double poolFlops(std::string_view op, Args args, Args res) {
  Shape out = shapeAt(res, 0);
  if (!tensorAt(res, 0)) return 0;
  if (args.size() < 2 || args[1].kind != ArgValue::Kind::IntList) return numelD(out);
  const size_t dims = op.find("1d") != std::string_view::npos   ? 1
                      : op.find("3d") != std::string_view::npos ? 3
                                                                : 2;
  const auto& k = args[1].ints;
  double kernel = 1;
  for (size_t i = 0; i < dims; ++i)
    kernel *= static_cast<double>(k.empty() ? 1 : k[std::min(i, k.size() - 1)]);
  return numelD(out) * kernel;
}

// clang-format off
const std::unordered_set<std::string_view>& elementwiseOps() {
  static const std::unordered_set<std::string_view> ops = {
      "add", "sub", "mul", "div", "rsub", "true_divide", "floor_divide", "remainder", "fmod", "pow",
      "neg", "abs", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
      "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "sigmoid", "tanh", "relu",
      "relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish", "hardtanh", "hardswish",
      "hardsigmoid", "hardshrink", "softshrink", "softplus", "softsign", "prelu", "rrelu", "threshold",
      "clamp", "clamp_min", "clamp_max", "clip", "erf", "erfc", "reciprocal", "square", "sign", "sgn",
      "floor", "ceil", "round", "trunc", "frac", "where", "masked_fill", "maximum", "minimum", "lerp",
      "addcmul", "addcdiv", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
      "logical_not", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_not", "bitwise_xor", "glu",
      "log_sigmoid", "hypot", "xlogy", "copysign", "nan_to_num", "heaviside", "upsample_nearest1d",
      "upsample_nearest2d", "upsample_nearest3d", "upsample_bilinear2d", "upsample_linear1d",
      "upsample_bicubic2d", "upsample_trilinear3d"};
  return ops;
}

const std::unordered_set<std::string_view>& reductionOps() {
  static const std::unordered_set<std::string_view> ops = {
      "mean", "sum", "nansum", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "norm",
      "std", "var", "std_mean", "var_mean", "logsumexp", "cumsum", "cumprod", "all", "any",
      "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
      "adaptive_max_pool2d", "adaptive_max_pool3d"};
  return ops;
}
// clang-format on

}  // namespace

double atenFlops(std::string_view op, Args args, Args res) {
  // In-place variants ("relu_", "add_") cost what the out-of-place op costs; dunder names
  // ("__and__") keep their underscores.
  std::string_view base = op;
  if (base.size() > 1 && base.back() == '_' && !base.starts_with("__")) base.remove_suffix(1);

  if (base == "conv1d" || base == "conv2d" || base == "conv3d") return convFlops(args, res);
  if (base == "conv_transpose1d" || base == "conv_transpose2d" || base == "conv_transpose3d")
    return convTransposeFlops(args, res);
  if (base == "_convolution" || base == "convolution")
    return intAt(args, 6, 0) ? convTransposeFlops(args, res) : convFlops(args, res);
  if (base == "linear") return linearFlops(args, res);
  if (base == "matmul" || base == "mm" || base == "bmm" || base == "mv" || base == "dot" || base == "vdot")
    return flops::matmul(shapeAt(args, 0), shapeAt(args, 1));
  if (base == "addmm" || base == "addmv" || base == "addbmm" || base == "baddbmm")
    return flops::matmul(shapeAt(args, 1), shapeAt(args, 2)) + elemsAt(res, 0);
  if (base == "lstm" || base == "gru" || base == "rnn_tanh" || base == "rnn_relu")
    return rnnLayerFlops(base, args);
  if (base == "lstm_cell" || base == "gru_cell" || base == "rnn_tanh_cell" || base == "rnn_relu_cell")
    return rnnCellFlops(base, args);
  if (base == "batch_norm" || base == "native_batch_norm" || base == "_batch_norm_impl_index")
    return 2.0 * elemsAt(args, 0);
  if (base == "instance_norm" || base == "layer_norm" || base == "native_layer_norm" ||
      base == "group_norm" || base == "native_group_norm")
    return 5.0 * elemsAt(args, 0);
  if (base == "softmax" || base == "log_softmax" || base == "_softmax" || base == "_log_softmax")
    return 5.0 * elemsAt(args, 0);
  if (base.find("pool") != std::string_view::npos && !base.starts_with("adaptive_"))
    return poolFlops(base, args, res);
  if (reductionOps().count(base)) return elemsAt(args, 0);
  if (elementwiseOps().count(base)) return elemsAt(res, 0);
  return 0;
}

TensorDesc resultTensor(const ArgValue& a) {
  TensorDesc d;
  using K = ArgValue::Kind;
  switch (a.kind) {
    case K::Tensor:
      d.shape = a.shapes.front();
      d.dtype = a.dtypes.front();
      break;
    case K::Int:
      d.dtype = DType::I64;
      break;
    case K::Bool:
      d.dtype = DType::Bool;
      break;
    case K::Double:
      d.dtype = DType::F64;
      break;
    case K::IntList:
      d.shape = {static_cast<int64_t>(a.ints.size())};
      d.dtype = DType::I64;
      break;
    case K::TensorList:
      d.shapeKnown = false;
      d.dtype = a.dtypes.front();
      d.bytes = 0;
      for (size_t i = 0; i < a.shapes.size(); ++i)
        d.bytes += flops::numel(a.shapes[i]) * dtypeSize(a.dtypes[i]);
      break;
    case K::None:
    case K::Other:
      d.shapeKnown = false;
      d.dtype = DType::Unknown;
      break;
  }
  return d;
}

}  // namespace gp::ts
