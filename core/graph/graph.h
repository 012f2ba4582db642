// Graph: the computation-graph IR every part of graphplace reads.
//
// Ops and tensors are stored as struct-of-arrays indexed by integer ids; fan-in/fan-out,
// op inputs/outputs and tensor consumers are CSR arrays. A Graph is immutable once built:
// make one with GraphBuilder (graph/graph_builder.h), which validates it (cycles, dangling
// inputs, duplicate names) and derives CSR, topological order, scopes and byte counts.
//
// Conventions: FLOPs count a multiply-add as 2; bytes are bytes. An "edge" is a distinct
// (producer op -> consumer op) pair; several tensors between the same pair count once.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/dtype.h"
#include "graph/name_index.h"

namespace gp {

using OpId = int32_t;
using TensorId = int32_t;
using ScopeId = int32_t;
constexpr int32_t kNone = -1;

enum class TensorKind : uint8_t { Activation, GraphInput, Parameter };
enum class OpRole : uint8_t { Forward, Backward, Update };

// A symbolic dimension of the model's inputs (ONNX dim_param such as "batch_size") and the
// value the import used for it: the one the user bound, else 1.
struct SymbolicDim {
  std::string name;
  int64_t value = 1;
  bool bound = false;  // the user gave the value
};

std::string_view tensorKindName(TensorKind k);
std::string_view opRoleName(OpRole r);

enum class Precision : uint8_t;  // graph/precision.h

class Graph {
 public:
  // ---- graph-wide ----
  const std::string& name() const { return name_; }
  int32_t numOps() const { return static_cast<int32_t>(opName_.size()); }
  int32_t numTensors() const { return static_cast<int32_t>(tName_.size()); }
  int64_t numEdges() const { return static_cast<int64_t>(fanIn_.size()); }
  double totalFlops() const;
  int64_t totalParamBytes() const;
  // Approximate heap footprint of this Graph, in bytes.
  int64_t memoryBytes() const;

  // ---- ops ----
  const std::string& opName(OpId op) const { return opName_[op]; }
  std::string_view opType(OpId op) const { return opTypes_[opType_[op]]; }
  int32_t opTypeId(OpId op) const { return opType_[op]; }
  const std::vector<std::string>& opTypeNames() const { return opTypes_; }
  ScopeId opScope(OpId op) const { return opScope_[op]; }
  double flops(OpId op) const { return flops_[op]; }
  int64_t bytesRead(OpId op) const { return bytesRead_[op]; }
  int64_t bytesWritten(OpId op) const { return bytesWritten_[op]; }
  int64_t paramBytes(OpId op) const { return paramBytes_[op]; }
  // Colocation group index (kNone if the op is free); names in colocGroupNames().
  int32_t colocGroup(OpId op) const { return coloc_[op]; }
  const std::vector<std::string>& colocGroupNames() const { return colocNames_; }
  // Device requested by the source file (e.g. a DOT `device` attribute); empty if none.
  const std::string& requestedDevice(OpId op) const;
  OpRole role(OpId op) const { return role_[op]; }
  // For a backward/update op, the forward op it was derived from; kNone otherwise.
  OpId forwardOf(OpId op) const { return forwardOf_[op]; }
  // Whether the op's FLOPs / bytes are an estimate: the importer could not learn a shape its
  // cost formula needs (the op's inputs and outputs say which are unknown).
  bool costEstimated(OpId op) const { return !estimated_.empty() && estimated_[op] != 0; }
  int32_t numEstimatedOps() const { return numEstimated_; }
  // The symbolic input dimensions of an imported model and the values used (empty if none).
  const std::vector<SymbolicDim>& symbolicDims() const { return symbolicDims_; }
  // Whether f32 matrix products and convolutions run with TF32 math (graph/precision.h).
  bool tf32Math() const { return tf32Math_; }

  std::span<const TensorId> inputs(OpId op) const { return slice(inOff_, in_, op); }
  std::span<const TensorId> outputs(OpId op) const { return slice(outOff_, out_, op); }
  std::span<const OpId> fanIn(OpId op) const { return slice(fanInOff_, fanIn_, op); }
  std::span<const OpId> fanOut(OpId op) const { return slice(fanOutOff_, fanOut_, op); }
  // All ops, producers before consumers (Kahn order, ties by op id).
  std::span<const OpId> topoOrder() const { return topo_; }
  OpId findOp(std::string_view name) const;  // kNone if absent

  // ---- tensors ----
  const std::string& tensorName(TensorId t) const { return tName_[t]; }
  TensorKind tensorKind(TensorId t) const { return tKind_[t]; }
  OpId producer(TensorId t) const { return tProducer_[t]; }
  DType dtype(TensorId t) const { return tDType_[t]; }
  bool hasShape(TensorId t) const { return tRank_[t] >= 0; }
  std::span<const int64_t> shape(TensorId t) const;
  int64_t tensorBytes(TensorId t) const { return tBytes_[t]; }
  std::span<const OpId> consumers(TensorId t) const { return slice(consOff_, cons_, t); }
  TensorId findTensor(std::string_view name) const;  // kNone if absent

  // ---- scopes (hierarchy from op names "a/b/c/Op" -> scope "a/b/c") ----
  int32_t numScopes() const { return static_cast<int32_t>(scopeName_.size()); }
  const std::string& scopeName(ScopeId s) const { return scopeName_[s]; }  // root is ""
  ScopeId scopeParent(ScopeId s) const { return scopeParent_[s]; }          // root: kNone
  int32_t scopeDepth(ScopeId s) const { return scopeDepth_[s]; }            // root: 0
  int32_t maxScopeDepth() const;

 private:
  friend class GraphBuilder;
  friend Graph withPrecision(const Graph& g, Precision p);
  template <class T>
  static std::span<const T> slice(const std::vector<int32_t>& off, const std::vector<T>& v, int32_t i) {
    return {v.data() + off[i], static_cast<size_t>(off[i + 1] - off[i])};
  }

  std::string name_;
  // ops
  std::vector<std::string> opName_;
  std::vector<int32_t> opType_;
  std::vector<std::string> opTypes_;
  std::vector<ScopeId> opScope_;
  std::vector<double> flops_;
  std::vector<int64_t> bytesRead_, bytesWritten_, paramBytes_;
  std::vector<int32_t> coloc_;
  std::vector<std::string> colocNames_;
  std::vector<int32_t> device_;  // index into deviceNames_, kNone if none
  std::vector<std::string> deviceNames_;
  std::vector<OpRole> role_;
  std::vector<OpId> forwardOf_;
  std::vector<uint8_t> estimated_;  // empty when no op's cost is estimated
  int32_t numEstimated_ = 0;
  std::vector<SymbolicDim> symbolicDims_;
  bool tf32Math_ = false;
  std::vector<int32_t> inOff_{0}, outOff_{0}, fanInOff_, fanOutOff_;
  std::vector<TensorId> in_, out_;
  std::vector<OpId> fanIn_, fanOut_, topo_;
  // tensors
  std::vector<std::string> tName_;
  std::vector<TensorKind> tKind_;
  std::vector<OpId> tProducer_;
  std::vector<DType> tDType_;
  std::vector<int8_t> tRank_;
  std::vector<uint32_t> tDimOff_;
  std::vector<int64_t> dims_;
  std::vector<int64_t> tBytes_;
  std::vector<int32_t> consOff_;
  std::vector<OpId> cons_;
  // scopes
  std::vector<std::string> scopeName_;
  std::vector<ScopeId> scopeParent_;
  std::vector<int32_t> scopeDepth_;
  // lookups (ids over opName_ / tName_)
  NameIndex opIndex_, tensorIndex_;
};

}  // namespace gp
