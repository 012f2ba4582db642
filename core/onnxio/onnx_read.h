// Reading an ONNX file into a ModelProto, whatever its size.
//
// protobuf parses at most 2 GiB per message, and an ONNX file may be larger (weights inline;
// some exporters write such files). The importer never needs weight values, only their dims and
// types (onnxio/onnx_import.h), so a file over `stripAbove` bytes is read through a memory map and
// re-encoded on the fly without the data of large initializers (raw_data and the typed data
// fields of a graph initializer over 4 KiB; small ones, shape constants, keep theirs), then
// parsed. External data files are never opened.
#pragma once
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <limits>
#include <string>

namespace gp::onnxio {

inline constexpr uint64_t kProtobufLimit = std::numeric_limits<int32_t>::max();  // 2 GiB - 1

// Throws gp::Error(path, ...) for a missing, empty or unreadable file, or one that is not an
// ONNX model, and for a graph of more nodes than maxModelOps() (base/input_limits.h), counted
// before the model is parsed.
onnx::ModelProto readOnnxModel(const std::string& path, uint64_t stripAbove = kProtobufLimit);

// A serialized ModelProto without the data of large initializers (see above). Throws
// std::runtime_error naming the problem for bytes that are not a well-formed protobuf.
std::string stripInitializerData(const uint8_t* data, uint64_t size);

}  // namespace gp::onnxio
