// AmoebaNet-A (Real et al. 2019, "Regularized Evolution for Image Classifier Architecture
// Search"), ImageNet model N=6, F=190 at 331x331, built as the TensorFlow TPU reference
// implementation does (tensorflow/tpu models/official/amoeba_net: model_builder.py,
// network_utils.py, model_specs.py 'amoeba_net_a'): a 3x3 stem conv, two reduction stem
// cells, 3 stacks of N normal cells with a reduction cell between stacks, ReLU, global
// average pooling and a 1001-way FC layer. No auxiliary head and no drop-path. N and F come
// from ModelArgs (layers, hidden).
#include <array>
#include <string>

#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

enum class CellOp { AvgPool3, MaxPool3, Sep3, Sep5, Sep7, None, Conv1x7_7x1 };

struct CellSpec {
  std::array<CellOp, 10> ops;
  std::array<int, 10> inputs;  // hidden-state index each op reads
  std::array<int, 7> used;     // 1: hidden state consumed inside the cell (not concatenated)
};

// model_specs.py, 'amoeba_net_a'
constexpr CellSpec kNormal{{CellOp::AvgPool3, CellOp::MaxPool3, CellOp::Sep3, CellOp::None, CellOp::None,
                            CellOp::AvgPool3, CellOp::Sep3, CellOp::Sep5, CellOp::AvgPool3, CellOp::Sep3},
                           {0, 0, 1, 1, 0, 1, 0, 2, 5, 0},
                           {1, 0, 1, 0, 0, 1, 0}};
constexpr CellSpec kReduction{{CellOp::Sep3, CellOp::AvgPool3, CellOp::MaxPool3, CellOp::Sep7, CellOp::MaxPool3,
                               CellOp::MaxPool3, CellOp::Sep3, CellOp::Conv1x7_7x1, CellOp::AvgPool3, CellOp::Sep7},
                              {1, 0, 0, 2, 1, 0, 4, 0, 1, 0},
                              {1, 1, 0, 0, 0, 0, 0}};

constexpr int64_t kStemFilters = 32;
constexpr int64_t kImage = 331;

int64_t channels(Net& net, TensorId x) {
  return net.dim(x, 3);
}
int64_t height(Net& net, TensorId x) {
  return net.dim(x, 1);
}

TensorId relu(Net& net, TensorId x) {
  return unary(net, "Relu", x);
}

TensorId factorizedReduction(Net& net, TensorId x, int64_t filters, int stride) {
  if (stride == 1) return convBn(net, "path_conv", x, conv(filters, 1), false);
  TensorId p1, p2;
  {
    Net::Scope s(net, "path1");
    p1 = pool2d(net, "AvgPool", x, 1, 2, Pad::Valid);
    p1 = conv2d(net, p1, conv(filters / 2, 1));
  }
  {
    Net::Scope s(net, "path2");
    Shape padded = net.shapeVec(x);
    padded[1] += 1;
    padded[2] += 1;
    p2 = net.op("Pad", {x}, std::move(padded), 0);
    p2 = net.op("StridedSlice", {p2}, net.shapeVec(x), 0);
    p2 = pool2d(net, "AvgPool", p2, 1, 2, Pad::Valid);
    p2 = conv2d(net, p2, conv(filters - filters / 2, 1));
  }
  TensorId y = concat(net, {p1, p2}, 3);
  Net::Scope s(net, "final_path_bn");
  return batchNorm(net, y);
}

TensorId separable(Net& net, TensorId x, int k, int stride, int64_t filters) {
  const std::string ks = std::to_string(k) + "x" + std::to_string(k);
  for (int layer = 1; layer <= 2; ++layer) {
    x = relu(net, x);
    {
      Net::Scope s(net, "separable_" + ks + "_" + std::to_string(layer));
      x = depthwiseConv2d(net, x, k, stride);
      x = conv2d(net, x, conv(filters, 1));
    }
    Net::Scope s(net, "bn_sep_" + ks + "_" + std::to_string(layer));
    x = batchNorm(net, x);
    stride = 1;
  }
  return x;
}

TensorId applyOp(Net& net, TensorId x, CellOp op, int stride, bool fromCellInput, int64_t filters) {
  if (stride > 1 && !fromCellInput) stride = 1;
  const int64_t inFilters = channels(net, x);
  switch (op) {
    case CellOp::Sep3:
      return separable(net, x, 3, stride, filters);
    case CellOp::Sep5:
      return separable(net, x, 5, stride, filters);
    case CellOp::Sep7:
      return separable(net, x, 7, stride, filters);
    case CellOp::Conv1x7_7x1: {
      const int64_t reduced = filters / 4;  // bottleneck
      x = relu(net, x);
      x = convBn(net, "pre_1x1", x, conv(reduced, 1));
      x = convBn(net, "1x7", x, {reduced, 1, 7, 1, stride});
      x = convBn(net, "7x1", x, {reduced, 7, 1, stride, 1});
      return convBn(net, "post_1x1", x, conv(filters, 1), false);
    }
    case CellOp::None:
      if (stride == 1 && inFilters == filters) return x;
      x = relu(net, x);
      return convBn(net, "1x1", x, conv(filters, 1, stride), false);
    case CellOp::AvgPool3:
    case CellOp::MaxPool3:
      x = pool2d(net, op == CellOp::AvgPool3 ? "AvgPool" : "MaxPool", x, 3, stride, Pad::Same);
      if (inFilters != filters) x = convBn(net, "1x1", x, conv(filters, 1), false);
      return x;
  }
  return x;
}

// One cell (network_utils.BaseCell.__call__).
TensorId cell(Net& net, const std::string& scope, const CellSpec& spec, TensorId x, TensorId prev, int64_t filters,
              int stride) {
  Net::Scope s(net, scope);
  // _cell_base: match prev to x, then a 1x1 conv on x
  if (prev == kNone) {
    prev = x;
  } else if (height(net, prev) != height(net, x)) {
    Net::Scope ps(net, "prev_reduction");
    prev = relu(net, prev);
    prev = factorizedReduction(net, prev, filters, 2);
  } else if (channels(net, prev) != filters) {
    prev = relu(net, prev);
    prev = convBn(net, "prev_1x1", prev, conv(filters, 1), false);
  }
  TensorId base;
  {
    Net::Scope bs(net, "beginning");
    base = relu(net, x);
    base = convBn(net, "1x1", base, conv(filters, 1), false);
  }
  std::vector<TensorId> states{base, prev};
  for (int i = 0; i < 5; ++i) {
    Net::Scope cs(net, "comb_iter", i);
    const int li = spec.inputs[2 * i], ri = spec.inputs[2 * i + 1];
    TensorId left, right;
    {
      Net::Scope ls(net, "left");
      left = applyOp(net, states[li], spec.ops[2 * i], stride, li < 2, filters);
    }
    {
      Net::Scope rs(net, "right");
      right = applyOp(net, states[ri], spec.ops[2 * i + 1], stride, ri < 2, filters);
    }
    Net::Scope as(net, "combine");
    states.push_back(binary(net, "Add", left, right));
  }
  // _combine_unused_states
  Net::Scope os(net, "cell_output");
  const int64_t finalH = height(net, states.back()), finalC = channels(net, states.back());
  std::vector<TensorId> unused;
  for (size_t i = 0; i < states.size(); ++i) {
    if (spec.used[i]) continue;
    TensorId h = states[i];
    if (height(net, h) != finalH || channels(net, h) != finalC) {
      Net::Scope rs(net, "reduction", static_cast<int64_t>(i));
      h = factorizedReduction(net, h, finalC, height(net, h) != finalH ? 2 : 1);
    }
    unused.push_back(h);
  }
  return concat(net, unused, 3);
}

}  // namespace

Graph amoebanet(const ModelArgs& args) {
  const int numCells = 3 * args.layers;  // 3 stacks of N normal cells
  const auto filtersF = static_cast<double>(args.hidden);
  Net net("amoebanet");
  TensorId x = net.input("images", {args.batch, kImage, kImage, 3});
  {
    Net::Scope s(net, "stem");
    x = convBn(net, "conv0", x, conv(kStemFilters, 3, 2, Pad::Valid), false);
  }
  std::vector<TensorId> outputs{kNone, x};
  double scaling = 0.25;  // two stem reduction cells at F/4 and F/2
  for (int i = 0; i < 2; ++i, scaling *= 2) {
    const auto filters = static_cast<int64_t>(filtersF * scaling);
    x = cell(net, "cell_stem_" + std::to_string(i), kReduction, x, outputs[outputs.size() - 2], filters, 2);
    outputs.push_back(x);
  }
  scaling = 1;
  const int reductionAt[2] = {numCells / 3, 2 * numCells / 3};
  for (int c = 0; c < numCells; ++c) {
    for (int r = 0; r < 2; ++r) {
      if (c != reductionAt[r]) continue;
      scaling *= 2;
      const auto filters = static_cast<int64_t>(filtersF * scaling);
      x = cell(net, "reduction_cell_" + std::to_string(r), kReduction, x, outputs[outputs.size() - 2], filters, 2);
      outputs.push_back(x);
    }
    const auto filters = static_cast<int64_t>(filtersF * scaling);
    x = cell(net, "cell_" + std::to_string(c), kNormal, x, outputs[outputs.size() - 2], filters, 1);
    outputs.push_back(x);
  }
  Net::Scope fs(net, "final_layer");
  x = relu(net, x);
  x = globalAvgPool(net, x);
  Net::Scope fc(net, "FC");
  dense(net, x, 1001);
  return std::move(net).build();
}

}  // namespace gp::zoo
