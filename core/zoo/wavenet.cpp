// WaveNet (van den Oord et al. 2016) with the layer sizes of ibab/tensorflow-wavenet
// (filter width 2, 32 residual and dilation channels, 512 skip channels, 256-way mu-law
// input and output, no biases) and 2 stacks of dilations 1..512 as in GDP (Zhou et al.
// 2019). Each layer: dilated causal filter and gate convolutions, tanh * sigmoid, a 1x1
// skip convolution and (except for the last layer) a 1x1 dense convolution plus the residual
// Add. Scopes "wavenet/stack_S/dilation_D/..." carry each layer's dilation. ModelArgs sets
// the layers per stack (dilations 1..2^(layers-1)) and the residual channels, which the
// dilation (filter and gate) channels follow.
#include <string>

#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

constexpr int64_t kQuantization = 256, kSkip = 512;
constexpr int kStacks = 2, kFilterWidth = 2;

// Causal 1-D convolution on [batch, time, channels] (TensorFlow runs it as Conv2D); causal
// padding keeps the time extent.
TensorId conv1d(Net& net, std::string_view scope, TensorId x, int64_t filters, int width) {
  Net::Scope s(net, scope);
  const int64_t cin = net.dim(x, 2);
  TensorId w = net.param("weights", {width, cin, filters});
  Shape out{net.dim(x, 0), net.dim(x, 1), filters};
  const double f =
      2.0 * static_cast<double>(net.dim(x, 0) * net.dim(x, 1)) * static_cast<double>(cin * filters) * width;
  return net.op("Conv2D", {x, w}, std::move(out), f);
}

}  // namespace

Graph wavenet(const ModelArgs& args) {
  const int64_t residual = args.hidden, dilationChannels = args.hidden;
  const int layersPerStack = args.layers;
  Net net("wavenet");
  TensorId x = net.input("audio_one_hot", {args.batch, args.seqLen, kQuantization});
  x = conv1d(net, "causal_layer", x, residual, kFilterWidth);
  std::vector<TensorId> skips;
  for (int s = 0; s < kStacks; ++s) {
    Net::Scope ss(net, "stack", s + 1);
    for (int i = 0; i < layersPerStack; ++i) {
      const bool last = s == kStacks - 1 && i == layersPerStack - 1;
      Net::Scope ls(net, "dilation", int64_t{1} << i);
      TensorId filter = conv1d(net, "filter", x, dilationChannels, kFilterWidth);
      TensorId gate = conv1d(net, "gate", x, dilationChannels, kFilterWidth);
      filter = unary(net, "Tanh", filter);
      gate = unary(net, "Sigmoid", gate);
      TensorId out = binary(net, "Mul", filter, gate);
      skips.push_back(conv1d(net, "skip", out, kSkip, 1));
      if (last) break;  // the last layer's residual output feeds nothing
      TensorId dense = conv1d(net, "dense", out, residual, 1);
      x = binary(net, "Add", x, dense);
    }
  }
  Net::Scope ps(net, "postprocessing");
  TensorId y = addN(net, skips);
  y = unary(net, "Relu", y);
  y = conv1d(net, "postprocess1", y, kSkip, 1);
  y = unary(net, "Relu", y);
  conv1d(net, "postprocess2", y, kQuantization, 1);
  return std::move(net).build();
}

}  // namespace gp::zoo
