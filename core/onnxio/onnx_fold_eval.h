// Evaluation of single ONNX nodes on small constant tensors: the integer shape arithmetic that
// exporters write (Shape, Size, Gather, Slice, Reshape, Transpose, Expand — on tensors of any
// rank —, Concat, Unsqueeze, Squeeze, Cast, Add / Sub / Mul / Div / Mod / Max / Min / Pow,
// Equal / Less / Greater (/ OrEqual), And / Or / Not, Neg / Abs / Sqrt / Floor / Ceil /
// Reciprocal / Round, Where, Range, ConstantOfShape, ReduceProd / Sum / Min / Max / Mean of
// vectors, Identity, Constant; Split of a vector, every output, through foldSplit). Values hold at most
// kMaxFoldElems elements of an integer, bool or float type; anything else is not evaluated.
#pragma once
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gp::onnxio {

inline constexpr int kMaxFoldElems = 1024;

struct FoldValue {
  int32_t elemType = onnx::TensorProto::INT64;
  std::vector<int64_t> dims;
  std::vector<double> v;  // row-major elements
};

// The value of a tensor already evaluated, or nullptr.
using FoldInput = std::function<const FoldValue*(const std::string& tensor)>;
// The tensor's dims when all of them have a value, or nullptr.
using FoldShape = std::function<const std::vector<int64_t>*(const std::string& tensor)>;

// A TensorProto's value (raw or typed data; not external data), or nullopt.
std::optional<FoldValue> foldFromTensor(const onnx::TensorProto& t);
// A value as a TensorProto with typed data (what ONNX inference functions read as input data).
onnx::TensorProto foldToTensor(const std::string& name, const FoldValue& value);
// The node's first output, when its op is one of the above and its inputs are known.
std::optional<FoldValue> foldNode(const onnx::NodeProto& node, const FoldInput& value, const FoldShape& shape);
// Every output of a Split of a known vector (the split sizes from the input or the attribute,
// else equal parts), or nothing.
std::vector<FoldValue> foldSplit(const onnx::NodeProto& node, const FoldInput& value);

}  // namespace gp::onnxio
