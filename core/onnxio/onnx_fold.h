// Shape inference that folds the shape computations exporters emit (Shape -> Gather -> Mul ->
// Unsqueeze -> Concat -> Slice / Reshape / Expand ...), as symbolic shape inference does.
//
// ONNX 1.12's whole-model inference (run without its data propagation, see onnxio/onnx_infer.h)
// reads only initializers and Constant nodes as data for ops such as Reshape, Slice, Expand,
// Tile or ConstantOfShape; a PyTorch-exported attention block computes their shapes, starts and
// ends at run time from Shape ops, and inference gives up. Such values are known once the
// input shapes are. inferWithFoldedConstants makes one pass over the top-level nodes in file
// order: each node's output types come from its schema's inference function, given the types
// found so far and, as input data, every value evaluated so far (onnxio/onnx_fold_eval.h); then the
// node's own value is evaluated if it is shape arithmetic. So one pass resolves chains of any
// length. Sequences are followed element by element, a Loop with a constant trip count is
// unrolled over its body's types and an If with a folded condition takes its branch, so
// exported `torch.split` / `unbind` and shape-dependent branches keep exact shapes; an Einsum's
// output dims come from its equation (onnx_einsum.h). The pass runs isolated like runShapeInference (a crash costs the shapes, not the
// process); what it finds goes into the model's value_info (node outputs whose declared type
// said less) and graph output types. The model's nodes are never changed.
#pragma once
#include <onnx/onnx_pb.h>

namespace gp::onnxio {

// Whether some node output of the top-level graph still has no shape, or a dimension without
// a value, in the model's declared/inferred types.
bool hasUnresolvedShapes(const onnx::GraphProto& g);

// Runs the pass described above; returns the number of node outputs whose shape it resolved.
int inferWithFoldedConstants(onnx::ModelProto& model);

}  // namespace gp::onnxio
