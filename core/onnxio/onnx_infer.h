// Running ONNX shape inference (libonnx 1.12) safely on models we did not write.
//
// libonnx's inference is not hardened against malformed models: some of its inference
// functions dereference missing types or divide by attribute values (a model with strides 0,
// a ConvTranspose with a rank-1 weight, a Scan without a body...) and crash the process. So:
//  * inferenceBlocker() rejects up front what is known to crash it: nodes that read tensors
//    nothing defined before them (dangling inputs, cycles, unsorted nodes), graph inputs without
//    a type, negative or overflowing dims, and nodes that fail their schema's Verify() (missing
//    required attributes, wrong attribute types, wrong input counts);
//  * runShapeInference() runs inference in a forked child process on POSIX systems, which sends
//    the inferred types back through a pipe; a crash or a hang (timeout) of the child costs the
//    shapes, never the caller. Where fork is unavailable or fails, inference runs in-process.
// Inference runs without data propagation: libonnx 1.12's data propagators dereference the
// missing type of a tensor whose producer failed inference; onnxio/onnx_fold.h gives what data
// propagation would.
#pragma once
#include <onnx/onnx_pb.h>

#include <functional>
#include <string>

namespace gp::onnxio {

// Why ONNX shape inference must not run on this model, or "" if it may.
std::string inferenceBlocker(const onnx::ModelProto& model);

// Runs ONNX shape inference on the model in place (value_info, graph output types, subgraph
// types). Never throws: returns "" on success, else what went wrong (what was inferred is kept).
// A declared type that contradicts inference stops libonnx's whole run; then inference runs
// again without the declared intermediate/output types, and the declared ones are put back
// for the tensors inference left unknown.
std::string runShapeInference(onnx::ModelProto& model);

// Runs `work` on the model as runShapeInference runs libonnx: in a forked child where possible,
// copying back the value_info, graph output types and subgraph attributes it produced. Returns
// what `work` returned, or why the child failed (a crash, a timeout).
std::string runIsolated(onnx::ModelProto& model, const std::function<std::string(onnx::ModelProto&)>& work);

}  // namespace gp::onnxio
