// Tensor shapes and element types of an ONNX graph as the ONNX importer sees them, and pinning
// of symbolic input dimensions (ONNX shape inference itself: onnxio/onnx_infer.h).
//
// Dimension rule: a dimension without a concrete value (a symbolic one such as "batch", or one
// shape inference could not resolve, e.g. a data-dependent size) counts as 1. Users import
// models exported with a dynamic batch axis and want the batch-1 cost rather than a failure;
// to import at another size they pass ImportOptions::inputShape. Only a tensor whose *rank*
// is unknown has an unknown shape.
#pragma once
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graph/dtype.h"
#include "graph/graph.h"

namespace gp::onnxio {

struct TensorInfo {
  int32_t elemType = 0;       // onnx::TensorProto_DataType; 0: unknown
  bool shapeKnown = false;    // rank known
  std::vector<int64_t> dims;  // dimensions without a value are 1 (see the rule above)
  bool symbolic = false;      // some dimension had no value (and counts as 1)
  bool notTensor = false;     // a sequence, map or optional: no shape of its own
};

// name -> TensorInfo for one graph; a subgraph's table falls back to its parent's.
class ShapeTable {
 public:
  explicit ShapeTable(const ShapeTable* parent = nullptr) : parent_(parent) {}
  // Records what the graph declares: inputs, outputs, value_info, initializers and the
  // outputs of Constant nodes. A known shape is never replaced by an unknown one.
  void addGraph(const onnx::GraphProto& g);
  void set(const std::string& name, TensorInfo info);
  // The tensor's info from this table or a parent; nullptr if nothing is known.
  const TensorInfo* find(const std::string& name) const;
  // The tensor's dims if its shape is known, else nullptr.
  const std::vector<int64_t>* shape(const std::string& name) const;

 private:
  const ShapeTable* parent_;
  std::unordered_map<std::string, TensorInfo> map_;
};

TensorInfo infoFromType(const onnx::TypeProto& type);
TensorInfo infoFromTensor(const onnx::TensorProto& tensor);
DType dtypeOf(int32_t onnxElemType);
// Bytes per element of an ONNX element type (0 for strings and unknown types).
int elemSize(int32_t onnxElemType);
// numel * element size; 0 when the shape is unknown, -1 when it overflows or a dim is negative.
int64_t tensorBytes(const TensorInfo& info);

// Names of the graph's initializers (dense and sparse).
std::unordered_set<std::string> initializerNames(const onnx::GraphProto& g);

// Gives every real graph input (one that is not an initializer) concrete dimensions: a symbolic
// one (dim_param) takes its value from `dims`, else 1; a missing one becomes 1. Declared
// intermediate and output dimensions with one of those names take the same value. With a
// non-empty inputShape, the first real input takes that shape instead and every declared
// intermediate/output shape is dropped so that inference recomputes them. `symbolic` receives
// the inputs' symbolic dimensions in first-seen order with the values used. Returns whether
// anything changed. Throws std::invalid_argument when `dims` names a dimension no input has.
bool pinInputShapes(onnx::GraphProto& g, const std::unordered_set<std::string>& initializers,
                    const std::vector<int64_t>& inputShape, const std::map<std::string, int64_t>& dims,
                    std::vector<SymbolicDim>& symbolic);

}  // namespace gp::onnxio
