// random_dag: random layered networks, for placing many different graphs. The seed draws a
// trunk kind — image (NHWC convolutions), sequence ([batch, tokens, width] dense and attention
// blocks) or hybrid (an image trunk turned into tokens part way) — and its sizes; then each
// layer has 1..hidden parallel branches, each one block of the trunk's kind, merged by AddN or
// ConcatV2 + a projection, with residual Adds around layers and occasional skip Adds from
// earlier layers. Every op comes from the layer helpers, so shapes, FLOPs and parameters are
// real. Scopes: random_dag/{stem, layer_L/{reduce, to_tokens, branch_B, merge, residual, skip},
// head}. The draws use SeededRandom, so a seed gives the same graph everywhere.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "graph/seeded_random.h"
#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

enum class Trunk { Image, Sequence, Hybrid };

template <class T, size_t N>
T pickOf(SeededRandom& rng, const std::array<T, N>& items) {
  return items[static_cast<size_t>(rng.below(N))];
}

bool sameShape(const Net& net, TensorId a, TensorId b) {
  auto sa = net.shape(a), sb = net.shape(b);
  return std::equal(sa.begin(), sa.end(), sb.begin(), sb.end());
}

// One image branch: [B, H, W, C] -> [B, H, W, c].
TensorId imageBlock(Net& net, SeededRandom& rng, TensorId x, int64_t c) {
  switch (rng.below(5)) {
    case 0:
      return convBn(net, "conv", x, conv(c, pickOf(rng, std::array{1, 3, 5})));
    case 1: {
      Net::Scope s(net, "separable");
      TensorId y = depthwiseConv2d(net, x, 3, 1);
      y = conv2d(net, y, conv(c, 1));
      y = batchNorm(net, y);
      return unary(net, "Relu", y);
    }
    case 2: {
      TensorId y = pool2d(net, rng.chance(0.5) ? "AvgPool" : "MaxPool", x, 3, 1, Pad::Same);
      return convBn(net, "project", y, conv(c, 1));
    }
    case 3: {  // tanh(filter) * sigmoid(gate)
      TensorId f = convBn(net, "filter", x, conv(c, 3), false);
      TensorId g = convBn(net, "gate", x, conv(c, 3), false);
      f = unary(net, "Tanh", f);
      g = unary(net, "Sigmoid", g);
      return binary(net, "Mul", f, g);
    }
    default: {  // squeeze-and-excitation
      TensorId y = convBn(net, "conv", x, conv(c, 3));
      Net::Scope s(net, "squeeze");
      TensorId z = globalAvgPool(net, y);
      {
        Net::Scope r(net, "reduce");
        z = dense(net, z, std::max<int64_t>(c / 4, 1));
        z = unary(net, "Relu", z);
      }
      {
        Net::Scope e(net, "expand");
        z = dense(net, z, c);
      }
      z = unary(net, "Sigmoid", z);
      z = reshape(net, z, {net.dim(y, 0), 1, 1, c});
      return binary(net, "Mul", y, z);
    }
  }
}

// Multi-head self-attention over [B, T, D] with heads of 64 (or one head when D < 64).
TensorId attention(Net& net, TensorId x, int64_t d) {
  Net::Scope s(net, "attention");
  const int64_t b = net.dim(x, 0), t = net.dim(x, 1);
  const int64_t heads = std::max<int64_t>(d / 64, 1), hd = d / heads;
  TensorId qkv[3];
  const char* names[3] = {"query", "key", "value"};
  for (int i = 0; i < 3; ++i) {
    Net::Scope ns(net, names[i]);
    qkv[i] = dense(net, x, heads * hd);
    qkv[i] = net.op("Transpose", {qkv[i]}, {b, heads, t, hd}, 0);
  }
  TensorId scores = batchMatmul(net, qkv[0], qkv[1], {b, heads, t, t}, hd);
  scores = unary(net, "Mul", scores);  // 1/sqrt(head width)
  TensorId probs = softmax(net, scores);
  TensorId ctx = batchMatmul(net, probs, qkv[2], {b, heads, t, hd}, t);
  ctx = net.op("Transpose", {ctx}, {b, t, heads * hd}, 0);
  Net::Scope os(net, "output");
  return dense(net, ctx, d);
}

// One sequence branch: [B, T, D] -> [B, T, d].
TensorId sequenceBlock(Net& net, SeededRandom& rng, TensorId x, int64_t d) {
  switch (rng.below(5)) {
    case 0: {  // MLP
      Net::Scope s(net, "mlp");
      TensorId y;
      {
        Net::Scope f(net, "fc1");
        y = dense(net, x, d * pickOf(rng, std::array<int64_t, 2>{2, 4}));
        const std::string_view act = pickOf(rng, std::array<std::string_view, 3>{"Relu", "Gelu", "Tanh"});
        y = unary(net, act, y, act == "Gelu" ? 8 : 1);
      }
      Net::Scope f(net, "fc2");
      return dense(net, y, d);
    }
    case 1: {  // gated linear unit
      TensorId v, g;
      {
        Net::Scope s(net, "value");
        v = dense(net, x, d);
      }
      {
        Net::Scope s(net, "gate");
        g = dense(net, x, d);
        g = unary(net, "Sigmoid", g);
      }
      return binary(net, "Mul", v, g);
    }
    case 2:
      return attention(net, x, d);
    case 3: {
      Net::Scope s(net, "norm_dense");
      TensorId y = layerNorm(net, x);
      y = dense(net, y, d);
      return unary(net, rng.chance(0.5) ? "Tanh" : "Sigmoid", y);
    }
    default: {  // a gate from the mean over the tokens
      Net::Scope s(net, "pooled_gate");
      TensorId y = dense(net, x, d);
      TensorId g = reduce(net, "Mean", y, {net.dim(y, 0), d});
      g = unary(net, "Sigmoid", g);
      g = reshape(net, g, {net.dim(y, 0), 1, d});
      return binary(net, "Mul", y, g);
    }
  }
}

class Builder {
 public:
  explicit Builder(const ModelArgs& a) : net_("random_dag"), rng_(a.seed), batch_(a.batch), maxBranches_(a.hidden) {}

  Graph build(int layers) {
    Trunk trunk = pickOf(rng_, std::array{Trunk::Image, Trunk::Sequence, Trunk::Hybrid});
    if (trunk == Trunk::Hybrid && layers < 3) trunk = Trunk::Image;
    // the image part's length, and the layers where it halves the resolution
    const int imageLayers = trunk == Trunk::Image ? layers : trunk == Trunk::Hybrid ? rng_.between(1, layers / 2) : 0;
    const int64_t side = pickOf(rng_, std::array<int64_t, 3>{32, 64, 128});
    int maxReductions = 0;  // down to 4x4 at the least
    for (int64_t s = side; s > 4; s /= 2) ++maxReductions;
    const int reductions = std::min(rng_.between(1, maxReductions), std::max(imageLayers - 1, 0));
    std::vector<int> reduceAt;
    for (int i = 1; i <= reductions; ++i) reduceAt.push_back(i * imageLayers / (reductions + 1));
    const int64_t tokens = pickOf(rng_, std::array<int64_t, 4>{32, 64, 128, 256});
    const int64_t width = pickOf(rng_, std::array<int64_t, 4>{128, 256, 512, 768});

    TensorId x = trunk == Trunk::Sequence ? sequenceStem(tokens, width) : imageStem(side);
    for (int l = 0; l < layers; ++l) {
      Net::Scope ls(net_, "layer", l);
      const bool image = l < imageLayers;
      if (image && std::find(reduceAt.begin(), reduceAt.end(), l) != reduceAt.end()) x = downsample(x);
      if (trunk == Trunk::Hybrid && l == imageLayers) x = toTokens(x, width);
      x = layer(x, image);
    }
    head(x, trunk != Trunk::Sequence && imageLayers == layers);
    return std::move(net_).build();
  }

 private:
  TensorId imageStem(int64_t side) {
    Net::Scope s(net_, "stem");
    TensorId x = net_.input("images", {batch_, side, side, 3});
    return convBn(net_, "conv", x, conv(pickOf(rng_, std::array<int64_t, 3>{16, 32, 64}), 3));
  }

  TensorId sequenceStem(int64_t tokens, int64_t width) {
    Net::Scope s(net_, "stem");
    TensorId ids = net_.input("token_ids", {batch_, tokens}, DType::I32);
    TensorId table = net_.param("embeddings", {pickOf(rng_, std::array<int64_t, 3>{1000, 8000, 32000}), width});
    TensorId x = gather(net_, table, ids);
    x = binary(net_, "Add", x, net_.param("positions", {tokens, width}));
    return layerNorm(net_, x);
  }

  // Halves the resolution and doubles the channels (at most 512).
  TensorId downsample(TensorId x) {
    Net::Scope s(net_, "reduce");
    const int64_t c = std::min<int64_t>(2 * net_.dim(x, 3), 512);
    if (rng_.chance(0.5)) return convBn(net_, "conv", x, conv(c, 3, 2));
    x = pool2d(net_, "MaxPool", x, 3, 2, Pad::Same);
    return convBn(net_, "project", x, conv(c, 1));
  }

  // [B, H, W, C] -> [B, H*W, width], average-pooled to at most 16x16 first.
  TensorId toTokens(TensorId x, int64_t width) {
    Net::Scope s(net_, "to_tokens");
    if (const int64_t h = net_.dim(x, 1); h > 16) {
      const auto k = static_cast<int>(h / 16);
      x = pool2d(net_, "AvgPool", x, k, k, Pad::Valid);
    }
    x = reshape(net_, x, {batch_, net_.dim(x, 1) * net_.dim(x, 2), net_.dim(x, 3)});
    x = dense(net_, x, width);
    return layerNorm(net_, x);
  }

  TensorId layer(TensorId x, bool image) {
    const int64_t c = net_.dim(x, -1);
    const int branches = rng_.between(1, maxBranches_);
    std::vector<TensorId> outs;
    for (int b = 0; b < branches; ++b) {
      Net::Scope bs(net_, "branch", b);
      outs.push_back(image ? imageBlock(net_, rng_, x, c) : sequenceBlock(net_, rng_, x, c));
    }
    TensorId y = outs[0];
    if (branches > 1) {
      Net::Scope ms(net_, "merge");
      if (rng_.chance(0.5)) {
        y = addN(net_, outs);
      } else {
        y = concat(net_, outs, -1);
        if (image) {
          y = convBn(net_, "project", y, conv(c, 1), false);
        } else {
          Net::Scope ps(net_, "project");
          y = dense(net_, y, c);
        }
      }
    }
    if (rng_.chance(0.5)) {
      Net::Scope rs(net_, "residual");
      y = binary(net_, "Add", y, x);
      y = image ? unary(net_, "Relu", y) : layerNorm(net_, y);
    }
    if (history_.size() >= 2 && rng_.chance(0.15)) {
      const size_t back = 2 + rng_.below(std::min<size_t>(history_.size() - 1, 8));
      TensorId earlier = history_[history_.size() - back];
      if (sameShape(net_, earlier, y)) {
        Net::Scope ss(net_, "skip");
        y = binary(net_, "Add", y, earlier);
      }
    }
    history_.push_back(y);
    return y;
  }

  void head(TensorId x, bool image) {
    Net::Scope s(net_, "head");
    const int64_t classes = pickOf(rng_, std::array<int64_t, 3>{10, 100, 1000});
    if (image) {
      x = globalAvgPool(net_, x);
    } else if (rng_.chance(0.5)) {
      x = reduce(net_, "Mean", x, {batch_, net_.dim(x, 2)});
    }
    Net::Scope fc(net_, "fc");
    dense(net_, x, classes);
  }

  Net net_;
  SeededRandom rng_;
  int64_t batch_;
  int maxBranches_;
  std::vector<TensorId> history_;  // each layer's output
};

}  // namespace

Graph randomDag(const ModelArgs& a) {
  return Builder(a).build(a.layers);
}

}  // namespace gp::zoo
