#include "zoo/layers.h"

#include "graph/flops.h"

namespace gp::zoo {
namespace {
size_t axisIndex(size_t rank, int axis) {
  return axis < 0 ? rank - static_cast<size_t>(-axis) : static_cast<size_t>(axis);
}
}  // namespace

int64_t convOut(int64_t in, int k, int stride, Pad pad, int dilation) {
  if (pad == Pad::Same) return (in + stride - 1) / stride;
  const int64_t eff = static_cast<int64_t>(k - 1) * dilation + 1;
  return in < eff ? 0 : (in - eff) / stride + 1;
}

// ---- elementwise and shape ops ----

TensorId unary(Net& net, std::string_view type, TensorId x, double flopsPerElem) {
  return net.op(type, {x}, net.shapeVec(x), flopsPerElem * static_cast<double>(net.numel(x)));
}

TensorId binary(Net& net, std::string_view type, TensorId a, TensorId b, double flopsPerElem) {
  return net.op(type, {a, b}, net.shapeVec(a), flopsPerElem * static_cast<double>(net.numel(a)));
}

TensorId addN(Net& net, const std::vector<TensorId>& xs) {
  const double n = static_cast<double>(net.numel(xs[0]));
  return net.op("AddN", xs, net.shapeVec(xs[0]), n * static_cast<double>(xs.size() - 1));
}

TensorId concat(Net& net, const std::vector<TensorId>& xs, int axis) {
  Shape out = net.shapeVec(xs[0]);
  const size_t a = axisIndex(out.size(), axis);
  for (size_t i = 1; i < xs.size(); ++i) out[a] += net.dim(xs[i], static_cast<int>(a));
  return net.op("ConcatV2", xs, std::move(out), 0);
}

std::vector<TensorId> split(Net& net, TensorId x, int parts, int axis) {
  Shape part = net.shapeVec(x);
  const size_t a = axisIndex(part.size(), axis);
  part[a] /= parts;
  return net.opN("Split", {x}, std::vector<Shape>(static_cast<size_t>(parts), part), 0);
}

TensorId reshape(Net& net, TensorId x, Shape to, std::string_view type) {
  return net.op(type, {x}, std::move(to), 0);
}

std::vector<TensorId> unstack(Net& net, TensorId x, int axis) {
  Shape part = net.shapeVec(x);
  const size_t a = axisIndex(part.size(), axis);
  const int64_t n = part[a];
  part.erase(part.begin() + static_cast<long>(a));
  return net.opN("Unpack", {x}, std::vector<Shape>(static_cast<size_t>(n), part), 0);
}

TensorId stack(Net& net, const std::vector<TensorId>& xs, int axis) {
  Shape out = net.shapeVec(xs[0]);
  const size_t a = axis < 0 ? out.size() + 1 - static_cast<size_t>(-axis) : static_cast<size_t>(axis);
  out.insert(out.begin() + static_cast<long>(a), static_cast<int64_t>(xs.size()));
  return net.op("Pack", xs, std::move(out), 0);
}

TensorId softmax(Net& net, TensorId x) {
  return unary(net, "Softmax", x, 5);
}

TensorId reduce(Net& net, std::string_view type, TensorId x, Shape to) {
  return net.op(type, {x}, std::move(to), static_cast<double>(net.numel(x)));
}

// ---- dense / embedding ----

TensorId matmul(Net& net, TensorId x, TensorId w) {
  Shape out = net.shapeVec(x);
  const int64_t k = out.back(), n = net.dim(w, -1);
  out.back() = n;
  const double rows = static_cast<double>(net.numel(x) / k);
  return net.op("MatMul", {x, w}, std::move(out), 2.0 * rows * static_cast<double>(k) * static_cast<double>(n));
}

TensorId batchMatmul(Net& net, TensorId a, TensorId b, Shape out, int64_t k) {
  const double flops = 2.0 * static_cast<double>(flops::numel(out)) * static_cast<double>(k);
  return net.op("BatchMatMulV2", {a, b}, std::move(out), flops);
}

TensorId dense(Net& net, TensorId x, int64_t units, bool bias) {
  TensorId w = net.param("kernel", {net.dim(x, -1), units});
  TensorId y = matmul(net, x, w);
  if (!bias) return y;
  TensorId b = net.param("bias", {units});
  return binary(net, "BiasAdd", y, b);
}

TensorId gather(Net& net, TensorId table, TensorId ids) {
  Shape out = net.shapeVec(ids);
  out.push_back(net.dim(table, -1));
  const int64_t outBytes = flops::numel(out) * 4;
  return net.op("GatherV2", {table, ids}, std::move(out), 0, outBytes + net.bytes(ids));
}

TensorId layerNorm(Net& net, TensorId x) {
  const int64_t d = net.dim(x, -1);
  TensorId gamma = net.param("gamma", {d});
  TensorId beta = net.param("beta", {d});
  return net.op("LayerNorm", {x, gamma, beta}, net.shapeVec(x), 8.0 * static_cast<double>(net.numel(x)));
}

// ---- convolution ----

TensorId conv2d(Net& net, TensorId x, const ConvSpec& c) {
  const int64_t cin = net.dim(x, 3);
  TensorId w = net.param("weights", {c.kh, c.kw, cin, c.filters});
  Shape out{net.dim(x, 0), convOut(net.dim(x, 1), c.kh, c.sh, c.pad, c.dilation),
            convOut(net.dim(x, 2), c.kw, c.sw, c.pad, c.dilation), c.filters};
  const double f = flops::conv(out, cin, int64_t{c.kh} * c.kw, false);
  TensorId y = net.op("Conv2D", {x, w}, std::move(out), f);
  if (!c.bias) return y;
  TensorId b = net.param("biases", {c.filters});
  return binary(net, "BiasAdd", y, b);
}

TensorId depthwiseConv2d(Net& net, TensorId x, int k, int stride, Pad pad) {
  const int64_t c = net.dim(x, 3);
  TensorId w = net.param("depthwise_weights", {k, k, c, 1});
  Shape out{net.dim(x, 0), convOut(net.dim(x, 1), k, stride, pad), convOut(net.dim(x, 2), k, stride, pad), c};
  const double f = flops::conv(out, 1, int64_t{k} * k, false);
  return net.op("DepthwiseConv2dNative", {x, w}, std::move(out), f);
}

TensorId batchNorm(Net& net, TensorId x) {
  const int64_t c = net.dim(x, -1);
  TensorId gamma = net.param("gamma", {c});
  TensorId beta = net.param("beta", {c});
  // training-mode batch norm: batch statistics, normalise, scale and shift
  return net.op("FusedBatchNorm", {x, gamma, beta}, net.shapeVec(x), 4.0 * static_cast<double>(net.numel(x)));
}

TensorId pool2d(Net& net, std::string_view type, TensorId x, int k, int stride, Pad pad) {
  Shape out{net.dim(x, 0), convOut(net.dim(x, 1), k, stride, pad), convOut(net.dim(x, 2), k, stride, pad),
            net.dim(x, 3)};
  const double f = static_cast<double>(flops::numel(out)) * k * k;
  return net.op(type, {x}, std::move(out), f);
}

TensorId convBn(Net& net, std::string_view scope, TensorId x, const ConvSpec& c, bool relu) {
  Net::Scope s(net, scope);
  TensorId y = conv2d(net, x, c);
  y = batchNorm(net, y);
  return relu ? unary(net, "Relu", y) : y;
}

TensorId globalAvgPool(Net& net, TensorId x) {
  return reduce(net, "Mean", x, {net.dim(x, 0), net.dim(x, 3)});
}

// ---- recurrent ----

LstmWeights lstmWeights(Net& net, int64_t inputSize, int64_t hidden) {
  return {net.param("kernel", {inputSize + hidden, 4 * hidden}), net.param("bias", {4 * hidden}), hidden};
}

LstmState lstmStep(Net& net, const std::vector<TensorId>& inputs, LstmState prev, const LstmWeights& w) {
  Net::Scope s(net, "lstm");
  std::vector<TensorId> in = inputs;
  in.push_back(prev.h);
  TensorId x = concat(net, in, 1);
  TensorId gates = matmul(net, x, w.kernel);
  gates = binary(net, "BiasAdd", gates, w.bias);
  auto ijfo = split(net, gates, 4, 1);
  // (sequenced statements, so op names and ids do not depend on argument evaluation order)
  TensorId f = unary(net, "Add", ijfo[2]);  // + forget_bias
  TensorId sf = unary(net, "Sigmoid", f);
  TensorId c1 = binary(net, "Mul", prev.c, sf);
  TensorId si = unary(net, "Sigmoid", ijfo[0]);
  TensorId tj = unary(net, "Tanh", ijfo[1]);
  TensorId c2 = binary(net, "Mul", si, tj);
  TensorId c = binary(net, "Add", c1, c2);
  TensorId tc = unary(net, "Tanh", c);
  TensorId so = unary(net, "Sigmoid", ijfo[3]);
  TensorId h = binary(net, "Mul", tc, so);
  return {h, c};
}

}  // namespace gp::zoo
