// FLOPs and byte overrides of single ONNX nodes, computed from tensor shapes.
//
// A multiply-add counts as 2 FLOPs (graph/flops.h). Per-op rules:
//   Conv / ConvInteger / QLinearConv   flops::conv(Y, W[1], prod(W[2:]), bias)
//   ConvTranspose                      2 * numel(X) * W[1] * prod(W[2:]) (+ numel(Y) with bias)
//   Gemm                               2*M*N*K (+ M*N with C)
//   MatMul / MatMulInteger / QLinearMatMul   flops::matmul (numpy broadcasting)
//   Einsum                             iteration space (product of all index sizes, ellipsis
//                                      broadcast) * number of operands (n-1 multiplies + 1
//                                      add); one operand: 1 per point, 0 for a pure transpose
//   unary/binary elementwise, activations   1 per output element
//   Sum / Max / Min / Mean (variadic)  (inputs - 1) per output element
//   MaxPool / AveragePool / LpPool     numel(Y) * prod(kernel_shape)
//   Global*Pool                        numel(X)
//   BatchNormalization                 2 per element (inference: per-channel scale and shift)
//   Layer/Instance/MeanVariance/Lp normalization   5 per element (mean, variance, normalise,
//                                      scale, shift)
//   LRN                                2 * size per element
//   Softmax / LogSoftmax               3 per element (exp, sum, divide); Hardmax 1
//   Reduce*, ArgMax/ArgMin, TopK, CumSum   1 per input element (ReduceL2, ReduceSumSquare,
//                                      ReduceLogSumExp: 2)
//   LSTM / GRU / RNN                   directions * seq_len * flops::rnnStep(batch, input,
//                                      hidden, 4 / 3 / 1 gates)
//   Resize / Upsample                  nearest: 0; linear/cubic: 2 * taps per output element
//   Quantize/DequantizeLinear          2 per element
//   everything else (Concat, Split, Reshape, Transpose, Flatten, Squeeze, Unsqueeze, Slice,
//   Shape, Constant, Gather*, Scatter*, Cast, Pad, Expand, Tile, Identity, Dropout, ...)
//                                      0 FLOPs: data movement, bytes only
// Control flow (If / Loop / Scan) is handled by the importer (onnx_import.cpp).
#pragma once
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

#include "onnxio/onnx_shapes.h"

namespace gp::onnxio {

// Thrown by nodeFlops when a shape it needs is not known.
struct MissingShape {
  std::string tensor;
};

// FLOPs of one node from the shapes in `shapes`. Throws MissingShape naming the first tensor
// whose shape the formula needs but which has none.
double nodeFlops(const onnx::NodeProto& node, const ShapeTable& shapes);

// An estimate of nodeFlops for a node whose formula needs a shape that is unknown: the largest
// known output (else input) tensor's elements times the op's work per element (a matmul's or
// conv's contracted size read from whichever operand is known, else 2; 1 for elementwise ops).
// 0 for data movement ops and when no tensor of the node has a known shape.
double estimateFlops(const onnx::NodeProto& node, const ShapeTable& shapes);

// Bytes a node really reads when that differs from "all its inputs", else -1:
// Shape / Size read only metadata (0), Gather / GatherElements / GatherND read the indices
// and the gathered elements (bytes of indices + bytes of the output), not the whole table.
int64_t nodeBytesRead(const onnx::NodeProto& node, const ShapeTable& shapes);

// Attribute helpers (missing attribute: the default).
int64_t intAttr(const onnx::NodeProto& node, const std::string& name, int64_t dflt);
std::string stringAttr(const onnx::NodeProto& node, const std::string& name, const std::string& dflt = {});

}  // namespace gp::onnxio
