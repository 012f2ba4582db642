// Annotated ONNX export: a copy of the input .onnx model with the placement written into it, in
// places every ONNX consumer ignores, so the copy still loads and runs everywhere.
//
// Where the placement goes, and why there (format "graphplace ONNX annotation", version 1):
//  * Not as node attributes: ONNX Runtime refuses a model whose standard-domain node carries an
//    attribute its schema does not list ("Unrecognized attribute: ... for operator Conv",
//    microsoft/onnxruntime#18111), and onnx.checker flags them too.
//  * Not as NodeProto.metadata_props: that field exists only from IR version 10 (onnx 1.16); the
//    libonnx we build against (1.12, IR 8) and most deployed runtimes do not know it.
//  * Per node, in NodeProto.doc_string (free text that checkers and runtimes ignore): one line
//      graphplace: {"device":"gpu1","device_index":1,"priority":7,"fusion_group":3}
//    "priority" only when the plan has priorities, "fusion_group" only when the op is fused
//    (group >= 0). Text the node's doc_string already held is kept before that line; a line
//    from an earlier export is replaced, so exporting an exported file again is clean.
//    Nodes that map to no op of the graph get no line.
//  * Per model, in ModelProto.metadata_props (ONNX Runtime: ModelMetadata.custom_metadata_map):
//      graphplace.format_version  "1"
//      graphplace.cluster         cluster name
//      graphplace.placement       JSON {"devices":[names],"device":[index per node, -1 none],
//                                 "priority":[... null none] and "fusion_group":[... -1 none]
//                                 when the plan has them},
//                                 arrays in graph.node order, so a script needs no name lookup
//      graphplace.step_time_ms, graphplace.lower_bound_ms, graphplace.feasible  (with a measurement)
//    Earlier graphplace.* entries of these names are replaced (onnx.checker rejects duplicate
//    keys); other entries (e.g. graphplace.weights of our fixtures) are kept.
// Everything else in the model stays as it was (same nodes, initializers, unknown fields): the
// protobuf is parsed, the doc_strings and metadata above are set, and it is serialized again.
//
// Op <-> node mapping is the ONNX importer's (onnxio/onnx_import.cpp): a top-level node is the op
// named as the importer names it (its own name, or "<scope>/<OpType>_<index>" when unnamed or
// taken) and of the same type. Nodes inside control-flow bodies are part of their parent op.
//
// Weights are never read: external-data tensors keep their relative `location`, so the copy
// finds its weights only when saved in the same folder as the original (or with the data files
// copied next to it); OnnxExportStats::externalDataFiles lists them so the caller can say so.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

struct OnnxExportStats {
  int32_t nodes = 0;                           // top-level nodes in the model
  int32_t annotated = 0;                       // nodes that got a placement line
  int32_t opsWithoutNode = 0;                  // ops of g no node maps to (e.g. backward ops)
  std::vector<std::string> externalDataFiles;  // distinct external-data locations the copy refers to
};

// Reads the ONNX file `onnxPath` (the model `g` was imported from) and returns the serialized
// ModelProto with the placement of `plan` on `c` written in as described above; `m` (optional)
// adds the step time and lower bound. Throws gp::Error(onnxPath, ...) when the file is not an
// ONNX model ("zoo:gnmt: not an ONNX model; annotated ONNX export needs an .onnx input") or
// is not the model `g` came from (no node maps to an op), and std::invalid_argument when the
// plan does not fit g / c.
std::string annotatedOnnx(const std::string& onnxPath, const Graph& g, const Plan& plan, const Cluster& c,
                          const Measurement* m, OnnxExportStats* stats = nullptr);

// The placement read back from an annotated model (the bytes annotatedOnnx returned, or a file
// read whole), per op of `g` (the graph the model imports to). Ops without a placement line
// have device "" and deviceIndex -1. Throws gp::Error(source, ...) if the bytes do not parse.
struct OnnxPlacement {
  std::string formatVersion;  // graphplace.format_version ("" if the model has none)
  std::string cluster;        // graphplace.cluster
  int32_t annotatedNodes = 0;
  std::vector<std::string> device;                            // per op
  std::vector<int32_t> deviceIndex;                           // per op
  std::vector<int32_t> priority;                              // per op; empty when no line has one
  std::vector<int32_t> fusionGroup;                           // per op, -1 = not fused; empty when no line has one
  std::vector<std::pair<std::string, std::string>> metadata;  // every graphplace.* metadata_props entry
};
OnnxPlacement readOnnxPlacement(const std::string& bytes, const Graph& g, const std::string& source = "ONNX model");

// Shorthand: the device name per op of g ("" where none).
std::vector<std::string> onnxPlacementDevices(const std::string& bytes, const Graph& g);

}  // namespace gp
