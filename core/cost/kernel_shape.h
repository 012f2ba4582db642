// What the cost model reads from a matrix op's tensors beyond its FLOPs: the reduction length
// (tensor cores need it a multiple of 8) and whether a convolution is 3x3 with stride 1 (the
// shape cuDNN runs with Winograd's algorithm in f32; stride 1 read from the sizes: the output
// keeps the input's size, or loses 2 with valid padding). A backward op answers for its forward
// op (so a gradient GEMM reports the forward's K, not its own reduction).
#pragma once
#include <cstdint>

#include "graph/graph.h"

namespace gp {

struct KernelShape {
  int64_t reduction = 0;  // K of a GEMM, input channels of a convolution; 0 = unknown
  bool winograd = false;  // 3x3, stride 1, not depthwise, not transposed
};

// TensorFlow-style types (Conv2D, DepthwiseConv2dNative) have HWIO weights and NHWC images;
// ONNX and TorchScript convolutions OIHW weights and NCHW images.
KernelShape kernelShapeOf(const Graph& g, OpId op);

}  // namespace gp
