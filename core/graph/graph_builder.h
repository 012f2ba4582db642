// GraphBuilder: the one way to make a Graph. Importers and generators add graph inputs,
// parameters and ops in any order (inputs may name tensors produced later: forward
// references), then build() validates and freezes the graph.
//
//   GraphBuilder b("model.onnx");
//   TensorId x = b.addGraphInput({"x", {1, 3, 224, 224}});
//   TensorId w = b.addParameter({"w", {64, 3, 7, 7}});
//   OpId conv = b.addOp({.name = "/stem/conv", .type = "Conv", .inputs = {x, w},
//                        .outputs = {{"y", {1, 64, 112, 112}}}, .flops = 2.0 * 118013952});
//   Graph g = std::move(b).build();   // throws gp::Error on a cycle, dangling input, ...
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"
#include "graph/limits.h"

namespace gp {

struct TensorDesc {
  std::string name;             // empty: "<op name>:<output index>"
  std::vector<int64_t> shape;   // ignored when !shapeKnown
  DType dtype = DType::F32;
  bool shapeKnown = true;
  int64_t bytes = -1;           // -1: numel * dtype size (0 when the shape is unknown)
};

struct OpDesc {
  std::string name;
  std::string type;
  std::vector<TensorId> inputs;
  std::vector<TensorDesc> outputs;
  double flops = 0;
  int64_t bytesRead = -1;       // -1: sum of input tensor bytes
  int64_t bytesWritten = -1;    // -1: sum of output tensor bytes
  int64_t paramBytes = -1;      // -1: bytes of parameter inputs this op is the first user of
  std::string colocGroup;       // empty: none
  std::string device;           // device requested by the source; empty: none
  OpRole role = OpRole::Forward;
  OpId forwardOf = kNone;
  bool costEstimated = false;   // FLOPs / bytes are an estimate (a shape was unknown)
};

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string source = {}) : source_(std::move(source)) {}

  TensorId addGraphInput(TensorDesc t);
  TensorId addParameter(TensorDesc t);
  // A tensor by name: the existing one, or a forward reference that a later addOp output
  // (or graph input / parameter) of the same name must resolve before build().
  TensorId tensorRef(const std::string& name);
  OpId addOp(OpDesc op);
  void setSymbolicDims(std::vector<SymbolicDim> dims) { g_.symbolicDims_ = std::move(dims); }

  int32_t numOps() const { return static_cast<int32_t>(g_.opName_.size()); }
  std::span<const TensorId> outputsOf(OpId op) const { return g_.outputs(op); }
  TensorId output(OpId op, int i = 0) const { return g_.outputs(op)[i]; }
  bool hasTensor(std::string_view name) const { return g_.findTensor(name) != kNone; }
  bool hasOp(std::string_view name) const { return g_.findOp(name) != kNone; }
  // Shape/dtype/bytes of a tensor added so far (forward references: unknown shape).
  std::span<const int64_t> shapeOf(TensorId t) const;
  bool shapeKnown(TensorId t) const { return g_.tRank_[t] >= 0; }
  DType dtypeOf(TensorId t) const { return g_.tDType_[t]; }
  int64_t bytesOf(TensorId t) const { return g_.tBytes_[t]; }
  const std::string& source() const { return source_; }

  // Validates and freezes. Throws gp::Error naming the source and the problem.
  Graph build(std::string graphName = {}) &&;

 private:
  TensorId newTensor(TensorDesc&& t, TensorKind kind, OpId producer);
  // The forward reference named `name`: kNone if there is none; fails if already defined.
  TensorId pendingRef(const std::string& name, const std::string* byOp) const;
  void shrinkToFit();
  void setTensor(TensorId id, TensorDesc&& t, TensorKind kind, OpId producer);
  [[noreturn]] void fail(const std::string& problem) const;
  void deriveCsr();
  void deriveTopoOrder();
  void deriveScopes();
  void deriveBytes(const std::vector<int64_t>& requestedParamBytes);
  ScopeId internScope(std::string_view path);

  std::string source_;
  Graph g_;
  std::vector<uint8_t> resolved_;  // per tensor: 0 = forward reference only
  std::vector<int64_t> paramReq_;  // per op: requested paramBytes (-1 derive)
  std::unordered_map<std::string, int32_t> typeIds_, colocIds_, deviceIds_;
  std::unordered_map<std::string, ScopeId> scopeIds_;
};

// Scope path of an op name: "/encoder/layer_3/attn/MatMul" -> "encoder/layer_3/attn".
std::string_view scopeOfName(std::string_view opName);

}  // namespace gp
