#include "graph/graph.h"

#include <algorithm>
#include <numeric>

namespace gp {

std::string_view tensorKindName(TensorKind k) {
  switch (k) {
    case TensorKind::Activation: return "activation";
    case TensorKind::GraphInput: return "input";
    case TensorKind::Parameter: return "param";
  }
  return "?";
}

std::string_view opRoleName(OpRole r) {
  switch (r) {
    case OpRole::Forward: return "forward";
    case OpRole::Backward: return "backward";
    case OpRole::Update: return "update";
  }
  return "?";
}

Graph::Graph(const Graph& other) { *this = other; }

Graph& Graph::operator=(const Graph& other) {
  if (this == &other) return *this;
  name_ = other.name_;
  opName_ = other.opName_;
  opType_ = other.opType_;
  opTypes_ = other.opTypes_;
  opScope_ = other.opScope_;
  flops_ = other.flops_;
  bytesRead_ = other.bytesRead_;
  bytesWritten_ = other.bytesWritten_;
  paramBytes_ = other.paramBytes_;
  coloc_ = other.coloc_;
  colocNames_ = other.colocNames_;
  device_ = other.device_;
  role_ = other.role_;
  forwardOf_ = other.forwardOf_;
  inOff_ = other.inOff_;
  outOff_ = other.outOff_;
  fanInOff_ = other.fanInOff_;
  fanOutOff_ = other.fanOutOff_;
  in_ = other.in_;
  out_ = other.out_;
  fanIn_ = other.fanIn_;
  fanOut_ = other.fanOut_;
  topo_ = other.topo_;
  tName_ = other.tName_;
  tKind_ = other.tKind_;
  tProducer_ = other.tProducer_;
  tDType_ = other.tDType_;
  tRank_ = other.tRank_;
  tDimOff_ = other.tDimOff_;
  dims_ = other.dims_;
  tBytes_ = other.tBytes_;
  consOff_ = other.consOff_;
  cons_ = other.cons_;
  scopeName_ = other.scopeName_;
  scopeParent_ = other.scopeParent_;
  scopeDepth_ = other.scopeDepth_;
  rebuildLookups();  // the maps hold views into *our* strings
  return *this;
}

void Graph::rebuildLookups() {
  opByName_.clear();
  tensorByName_.clear();
  opByName_.reserve(opName_.size());
  tensorByName_.reserve(tName_.size());
  for (OpId i = 0; i < numOps(); ++i) opByName_.emplace(opName_[i], i);
  for (TensorId i = 0; i < numTensors(); ++i) tensorByName_.emplace(tName_[i], i);
}

double Graph::totalFlops() const { return std::accumulate(flops_.begin(), flops_.end(), 0.0); }

int64_t Graph::totalParamBytes() const {
  return std::accumulate(paramBytes_.begin(), paramBytes_.end(), int64_t{0});
}

std::span<const int64_t> Graph::shape(TensorId t) const {
  if (tRank_[t] < 0) return {};
  return {dims_.data() + tDimOff_[t], static_cast<size_t>(tRank_[t])};
}

OpId Graph::findOp(std::string_view name) const {
  auto it = opByName_.find(name);
  return it == opByName_.end() ? kNone : it->second;
}

TensorId Graph::findTensor(std::string_view name) const {
  auto it = tensorByName_.find(name);
  return it == tensorByName_.end() ? kNone : it->second;
}

int32_t Graph::maxScopeDepth() const {
  int32_t d = 0;
  for (OpId op = 0; op < numOps(); ++op) d = std::max(d, scopeDepth_[opScope_[op]]);
  return d;
}

namespace {
template <class T>
int64_t vecBytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}
int64_t stringsBytes(const std::vector<std::string>& v) {
  int64_t b = vecBytes(v);
  for (const auto& s : v)
    if (s.capacity() > 15) b += static_cast<int64_t>(s.capacity() + 1);
  return b;
}
template <class M>
int64_t mapBytes(const M& m) {
  // node (key + value + next pointer + hash) plus one bucket pointer per bucket
  return static_cast<int64_t>(m.size() * (sizeof(typename M::value_type) + 2 * sizeof(void*)) +
                              m.bucket_count() * sizeof(void*));
}
}  // namespace

int64_t Graph::memoryBytes() const {
  return stringsBytes(opName_) + vecBytes(opType_) + stringsBytes(opTypes_) + vecBytes(opScope_) +
         vecBytes(flops_) + vecBytes(bytesRead_) + vecBytes(bytesWritten_) + vecBytes(paramBytes_) +
         vecBytes(coloc_) + stringsBytes(colocNames_) + stringsBytes(device_) + vecBytes(role_) +
         vecBytes(forwardOf_) + vecBytes(inOff_) + vecBytes(outOff_) + vecBytes(fanInOff_) +
         vecBytes(fanOutOff_) + vecBytes(in_) + vecBytes(out_) + vecBytes(fanIn_) + vecBytes(fanOut_) +
         vecBytes(topo_) + stringsBytes(tName_) + vecBytes(tKind_) + vecBytes(tProducer_) +
         vecBytes(tDType_) + vecBytes(tRank_) + vecBytes(tDimOff_) + vecBytes(dims_) + vecBytes(tBytes_) +
         vecBytes(consOff_) + vecBytes(cons_) + stringsBytes(scopeName_) + vecBytes(scopeParent_) +
         vecBytes(scopeDepth_) + mapBytes(opByName_) + mapBytes(tensorByName_);
}

}  // namespace gp
