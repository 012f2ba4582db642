// Op classes the cost model gives an efficiency each, and the op-type -> class table.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace gp {

enum class OpClass : uint8_t {
  MatMul,
  Conv,
  Elementwise,
  Reduction,
  Normalization,
  DataMovement,
  Recurrent,
  Other,
  Count
};
constexpr int kNumOpClasses = static_cast<int>(OpClass::Count);

std::string_view opClassName(OpClass c);  // "MatMul", "Conv", ...

// An op type as the lookups here read it: "aten::"/"onnx::" prefixes and a training "Grad"
// suffix dropped, lower case, underscores removed, a TensorFlow version suffix ("V2", "V3")
// dropped. So "aten::max_pool2d_", "MaxPool" and "MaxPoolGrad" all read "maxpool(2d)".
std::string normaliseOpType(std::string_view opType);

// Understands ONNX names (Conv, MatMul, Gemm, Relu, ...), TensorFlow-style zoo names (Conv2D,
// FusedBatchNorm, BatchMatMulV2, GatherV2, ConcatV2, ...), TorchScript "aten::" names and the
// training names of graph/training.h (<Type>Grad has the class of <Type>; AddN, ApplyAdam,
// Loss). Unknown types are Other.
OpClass classifyOp(std::string_view opType);

// Ops that only change metadata (Reshape, Squeeze, Identity, Const, Shape, NoOp, ...): no
// kernel runs, so they cost nothing.
bool isMetadataOp(std::string_view opType);

}  // namespace gp
