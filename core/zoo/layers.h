// Layer builders for the zoo: each adds the ops a TensorFlow graph would hold for that layer,
// with real shapes and FLOPs (a multiply-add is 2 FLOPs; elementwise work 1 per element),
// in the Net's current scope. Image tensors are NHWC; parameters live in the scope that
// creates them ("weights", "gamma", "kernel", ...).
#pragma once
#include <vector>

#include "zoo/net.h"

namespace gp::zoo {

enum class Pad { Same, Valid };

struct ConvSpec {
  int64_t filters = 0;
  int kh = 1, kw = 1;
  int sh = 1, sw = 1;
  Pad pad = Pad::Same;
  int dilation = 1;
  bool bias = false;
};
inline ConvSpec conv(int64_t filters, int k, int stride = 1, Pad pad = Pad::Same) {
  return {filters, k, k, stride, stride, pad};
}

// ---- elementwise and shape ops ----
TensorId unary(Net& net, std::string_view type, TensorId x, double flopsPerElem = 1);
// Output has a's shape (b broadcasts against it).
TensorId binary(Net& net, std::string_view type, TensorId a, TensorId b, double flopsPerElem = 1);
TensorId addN(Net& net, const std::vector<TensorId>& xs);
TensorId concat(Net& net, const std::vector<TensorId>& xs, int axis);
std::vector<TensorId> split(Net& net, TensorId x, int parts, int axis);
TensorId reshape(Net& net, TensorId x, Shape to, std::string_view type = "Reshape");
std::vector<TensorId> unstack(Net& net, TensorId x, int axis);        // "Unpack"
TensorId stack(Net& net, const std::vector<TensorId>& xs, int axis);  // "Pack"
TensorId softmax(Net& net, TensorId x);
TensorId reduce(Net& net, std::string_view type, TensorId x, Shape to);  // Sum / Mean over dropped dims

// ---- dense / embedding ----
// x [..., K] @ w [K, N] -> [..., N]
TensorId matmul(Net& net, TensorId x, TensorId w);
// Batched a [..., M, K] @ b [..., K, N] given explicitly by its output shape and K.
TensorId batchMatmul(Net& net, TensorId a, TensorId b, Shape out, int64_t k);
// MatMul + BiasAdd with params "kernel" [K, units] and "bias" [units] in the current scope.
TensorId dense(Net& net, TensorId x, int64_t units, bool bias = true);
// Rows of `table` picked by integer `ids`: ids.shape + [dim]. Reads only the rows it gathers.
TensorId gather(Net& net, TensorId table, TensorId ids);
// LayerNorm over the last axis with params "gamma", "beta".
TensorId layerNorm(Net& net, TensorId x);

// ---- convolution ----
TensorId conv2d(Net& net, TensorId x, const ConvSpec& c);  // "Conv2D", param "weights"
TensorId depthwiseConv2d(Net& net, TensorId x, int k, int stride, Pad pad = Pad::Same);
TensorId batchNorm(Net& net, TensorId x);  // "FusedBatchNorm", params "gamma", "beta"
TensorId pool2d(Net& net, std::string_view type, TensorId x, int k, int stride, Pad pad);
// scope{Conv2D, FusedBatchNorm[, Relu]}
TensorId convBn(Net& net, std::string_view scope, TensorId x, const ConvSpec& c, bool relu = true);
TensorId globalAvgPool(Net& net, TensorId x);  // NHWC -> [N, C] ("Mean")

// ---- recurrent ----
struct LstmState {
  TensorId h = kNone, c = kNone;
};
struct LstmWeights {
  TensorId kernel = kNone, bias = kNone;
  int64_t hidden = 0;
};
// Parameters of a BasicLSTMCell with `inputSize` inputs, in the current scope.
LstmWeights lstmWeights(Net& net, int64_t inputSize, int64_t hidden);
// One BasicLSTMCell step in scope "lstm": ConcatV2(inputs..., h), MatMul, BiasAdd, Split,
// forget-bias Add, Sigmoid x3, Tanh x2, Mul x3, Add (14 ops).
LstmState lstmStep(Net& net, const std::vector<TensorId>& inputs, LstmState prev, const LstmWeights& w);

// Output extent of a conv/pool window along one axis.
int64_t convOut(int64_t in, int k, int stride, Pad pad, int dilation = 1);

}  // namespace gp::zoo
