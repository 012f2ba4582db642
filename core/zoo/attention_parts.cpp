#include "zoo/attention_parts.h"

namespace gp::zoo {

TensorId toHeads(Net& net, TensorId x, int64_t batch, int64_t headDim) {
  const int64_t width = net.dim(x, -1), seq = net.dim(x, 0) / batch;
  return net.op("Transpose", {x}, {batch, width / headDim, seq, headDim}, 0);
}

TensorId attend(Net& net, TensorId q, TensorId k, TensorId v, TensorId adder, bool scaled) {
  const int64_t b = net.dim(q, 0), heads = net.dim(q, 1), sq = net.dim(q, 2), d = net.dim(q, 3), sk = net.dim(k, 2);
  TensorId scores = batchMatmul(net, q, k, {b, heads, sq, sk}, d);
  if (scaled) scores = unary(net, "Mul", scores);
  scores = binary(net, "Add", scores, adder);
  TensorId probs = softmax(net, scores);
  TensorId ctx = batchMatmul(net, probs, v, {b, heads, sq, d}, sk);
  return net.op("Transpose", {ctx}, {b * sq, heads * d}, 0);
}

TensorId rmsNorm(Net& net, TensorId x) {
  TensorId w = net.param("weight", {net.dim(x, -1)});
  return net.op("RMSNorm", {x, w}, net.shapeVec(x), 4.0 * static_cast<double>(net.numel(x)));
}

}  // namespace gp::zoo
