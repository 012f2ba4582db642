// The op name of each top-level ONNX node, shared by the importer (onnxio/onnx_import.cpp) and the
// annotated-ONNX export (onnxio/onnx_export.cpp), which must agree: a node's own name when it is
// set and unique; otherwise "<scope of its first output>/<OpType>_<index>" (or
// "<name>_<index>" for a repeated name), made unique with "_<k>" suffixes.
#pragma once
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace gp {

std::vector<std::string> onnxNodeNames(const onnx::GraphProto& g);

}  // namespace gp
