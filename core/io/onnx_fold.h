// Folding of the small shape computations exporters emit (Shape -> Gather -> Mul -> Unsqueeze
// -> Concat -> Slice/Reshape ...), so that ONNX shape inference can see their results.
//
// ONNX 1.12's inference (run without its data propagation, see io/onnx_infer.h) reads only
// initializers and Constant nodes as data for ops such as Reshape, Slice, Expand, Tile or
// ConstantOfShape; a PyTorch-exported attention block computes their shapes/starts/ends at run
// time from Shape ops, and inference gives up (the output's shape or rank is unknown). Such
// values are in fact known once the input shapes are. This pass evaluates every tensor it can
// (integer and float tensors of at most kMaxFoldElems elements), then runs inference on a copy
// of the model in which the nodes producing folded tensors are replaced by initializers holding
// the values, and copies the shapes found back into the model's value_info. It repeats while
// that finds new shapes (a few rounds at most). The model's nodes are never changed.
#pragma once
#include <onnx/onnx_pb.h>

namespace gp::onnxio {

inline constexpr int kMaxFoldElems = 64;

// Whether some node output of the top-level graph still has no shape, or a dimension without
// a value, in the model's declared/inferred types.
bool hasUnresolvedShapes(const onnx::GraphProto& g);

// Runs the rounds described above; returns the number of node outputs whose shape it found.
int inferWithFoldedConstants(onnx::ModelProto& model, int maxRounds = 4);

}  // namespace gp::onnxio
