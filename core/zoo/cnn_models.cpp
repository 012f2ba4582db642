// ResNet-50 (He et al. 2016, v1.5: stride on the 3x3 conv) and Inception-V3 (Szegedy et
// al. 2016, without the auxiliary head), as TensorFlow graphs: Conv2D + FusedBatchNorm +
// Relu per conv layer, NHWC. ResNet's depth (bottleneck blocks per stage) and base width
// come from ModelArgs.
#include <array>
#include <string>

#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {

namespace {
// Bottleneck blocks per stage for each depth makeZooModel accepts (3 convs per block + stem + fc).
std::array<int, 4> resnetBlocks(int depth) {
  switch (depth) {
    case 26:
      return {2, 2, 2, 2};
    case 38:
      return {3, 3, 3, 3};
    case 101:
      return {3, 4, 23, 3};
    case 152:
      return {3, 8, 36, 3};
    default:
      return {3, 4, 6, 3};
  }
}
}  // namespace

Graph resnet50(const ModelArgs& args) {
  Net net("resnet50");
  TensorId x = net.input("images", {args.batch, 224, 224, 3});
  const int64_t base = args.hidden;
  {
    Net::Scope s(net, "stem");
    x = convBn(net, "conv1", x, conv(base, 7, 2));
    x = pool2d(net, "MaxPool", x, 3, 2, Pad::Same);
  }
  const std::array<int, 4> blocks = resnetBlocks(args.layers);
  int64_t width = base;
  for (int st = 0; st < 4; ++st, width *= 2) {
    Net::Scope ss(net, "stage" + std::to_string(st + 1));
    for (int b = 0; b < blocks[st]; ++b) {
      Net::Scope bs(net, "block" + std::to_string(b + 1));
      const int stride = (b == 0 && st > 0) ? 2 : 1;
      TensorId shortcut = x;
      if (b == 0) shortcut = convBn(net, "shortcut", x, conv(4 * width, 1, stride), false);
      TensorId y = convBn(net, "conv1", x, conv(width, 1));
      y = convBn(net, "conv2", y, conv(width, 3, stride));
      y = convBn(net, "conv3", y, conv(4 * width, 1), false);
      y = binary(net, "Add", y, shortcut);
      x = unary(net, "Relu", y);
    }
  }
  Net::Scope hs(net, "head");
  x = globalAvgPool(net, x);
  Net::Scope fc(net, "fc");
  dense(net, x, 1000);
  return std::move(net).build();
}

namespace {
ConvSpec rect(int64_t filters, int kh, int kw) {
  return {filters, kh, kw};
}

TensorId inceptionA(Net& net, TensorId x, int64_t poolFeatures) {
  TensorId b1 = convBn(net, "branch1x1", x, conv(64, 1));
  TensorId b5 = convBn(net, "branch5x5_1", x, conv(48, 1));
  b5 = convBn(net, "branch5x5_2", b5, conv(64, 5));
  TensorId b3 = convBn(net, "branch3x3dbl_1", x, conv(64, 1));
  b3 = convBn(net, "branch3x3dbl_2", b3, conv(96, 3));
  b3 = convBn(net, "branch3x3dbl_3", b3, conv(96, 3));
  TensorId bp = pool2d(net, "AvgPool", x, 3, 1, Pad::Same);
  bp = convBn(net, "branch_pool", bp, conv(poolFeatures, 1));
  return concat(net, {b1, b5, b3, bp}, 3);
}

TensorId inceptionB(Net& net, TensorId x) {
  TensorId b3 = convBn(net, "branch3x3", x, conv(384, 3, 2, Pad::Valid));
  TensorId bd = convBn(net, "branch3x3dbl_1", x, conv(64, 1));
  bd = convBn(net, "branch3x3dbl_2", bd, conv(96, 3));
  bd = convBn(net, "branch3x3dbl_3", bd, conv(96, 3, 2, Pad::Valid));
  TensorId bp = pool2d(net, "MaxPool", x, 3, 2, Pad::Valid);
  return concat(net, {b3, bd, bp}, 3);
}

TensorId inceptionC(Net& net, TensorId x, int64_t c7) {
  TensorId b1 = convBn(net, "branch1x1", x, conv(192, 1));
  TensorId b7 = convBn(net, "branch7x7_1", x, conv(c7, 1));
  b7 = convBn(net, "branch7x7_2", b7, rect(c7, 1, 7));
  b7 = convBn(net, "branch7x7_3", b7, rect(192, 7, 1));
  TensorId bd = convBn(net, "branch7x7dbl_1", x, conv(c7, 1));
  bd = convBn(net, "branch7x7dbl_2", bd, rect(c7, 7, 1));
  bd = convBn(net, "branch7x7dbl_3", bd, rect(c7, 1, 7));
  bd = convBn(net, "branch7x7dbl_4", bd, rect(c7, 7, 1));
  bd = convBn(net, "branch7x7dbl_5", bd, rect(192, 1, 7));
  TensorId bp = pool2d(net, "AvgPool", x, 3, 1, Pad::Same);
  bp = convBn(net, "branch_pool", bp, conv(192, 1));
  return concat(net, {b1, b7, bd, bp}, 3);
}

TensorId inceptionD(Net& net, TensorId x) {
  TensorId b3 = convBn(net, "branch3x3_1", x, conv(192, 1));
  b3 = convBn(net, "branch3x3_2", b3, conv(320, 3, 2, Pad::Valid));
  TensorId b7 = convBn(net, "branch7x7x3_1", x, conv(192, 1));
  b7 = convBn(net, "branch7x7x3_2", b7, rect(192, 1, 7));
  b7 = convBn(net, "branch7x7x3_3", b7, rect(192, 7, 1));
  b7 = convBn(net, "branch7x7x3_4", b7, conv(192, 3, 2, Pad::Valid));
  TensorId bp = pool2d(net, "MaxPool", x, 3, 2, Pad::Valid);
  return concat(net, {b3, b7, bp}, 3);
}

TensorId inceptionE(Net& net, TensorId x) {
  TensorId b1 = convBn(net, "branch1x1", x, conv(320, 1));
  TensorId b3 = convBn(net, "branch3x3_1", x, conv(384, 1));
  TensorId b3a = convBn(net, "branch3x3_2a", b3, rect(384, 1, 3));
  TensorId b3b = convBn(net, "branch3x3_2b", b3, rect(384, 3, 1));
  b3 = concat(net, {b3a, b3b}, 3);
  TensorId bd = convBn(net, "branch3x3dbl_1", x, conv(448, 1));
  bd = convBn(net, "branch3x3dbl_2", bd, conv(384, 3));
  TensorId bda = convBn(net, "branch3x3dbl_3a", bd, rect(384, 1, 3));
  TensorId bdb = convBn(net, "branch3x3dbl_3b", bd, rect(384, 3, 1));
  bd = concat(net, {bda, bdb}, 3);
  TensorId bp = pool2d(net, "AvgPool", x, 3, 1, Pad::Same);
  bp = convBn(net, "branch_pool", bp, conv(192, 1));
  return concat(net, {b1, b3, bd, bp}, 3);
}
}  // namespace

Graph inceptionV3(const ModelArgs& args) {
  Net net("inception_v3");
  TensorId x = net.input("images", {args.batch, 299, 299, 3});
  x = convBn(net, "Conv2d_1a_3x3", x, conv(32, 3, 2, Pad::Valid));
  x = convBn(net, "Conv2d_2a_3x3", x, conv(32, 3, 1, Pad::Valid));
  x = convBn(net, "Conv2d_2b_3x3", x, conv(64, 3));
  {
    Net::Scope s(net, "MaxPool_3a_3x3");
    x = pool2d(net, "MaxPool", x, 3, 2, Pad::Valid);
  }
  x = convBn(net, "Conv2d_3b_1x1", x, conv(80, 1));
  x = convBn(net, "Conv2d_4a_3x3", x, conv(192, 3, 1, Pad::Valid));
  {
    Net::Scope s(net, "MaxPool_5a_3x3");
    x = pool2d(net, "MaxPool", x, 3, 2, Pad::Valid);
  }
  const struct {
    const char* name;
    int kind;
    int64_t arg;
  } blocks[] = {{"Mixed_5b", 0, 32},  {"Mixed_5c", 0, 64},  {"Mixed_5d", 0, 64},  {"Mixed_6a", 1, 0},
                {"Mixed_6b", 2, 128}, {"Mixed_6c", 2, 160}, {"Mixed_6d", 2, 160}, {"Mixed_6e", 2, 192},
                {"Mixed_7a", 3, 0},   {"Mixed_7b", 4, 0},   {"Mixed_7c", 4, 0}};
  for (const auto& blk : blocks) {
    Net::Scope s(net, blk.name);
    switch (blk.kind) {
      case 0:
        x = inceptionA(net, x, blk.arg);
        break;
      case 1:
        x = inceptionB(net, x);
        break;
      case 2:
        x = inceptionC(net, x, blk.arg);
        break;
      case 3:
        x = inceptionD(net, x);
        break;
      default:
        x = inceptionE(net, x);
        break;
    }
  }
  Net::Scope ls(net, "Logits");
  x = globalAvgPool(net, x);
  Net::Scope fc(net, "fc");
  dense(net, x, 1000);
  return std::move(net).build();
}

}  // namespace gp::zoo
