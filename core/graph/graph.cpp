#include "graph/graph.h"

#include "graph/limits.h"

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

double Graph::totalFlops() const { return std::accumulate(flops_.begin(), flops_.end(), 0.0); }

int64_t Graph::totalParamBytes() const {
  int64_t sum = 0;
  for (int64_t b : paramBytes_) sum = saturatingAdd(sum, b);
  return sum;
}

std::span<const int64_t> Graph::shape(TensorId t) const {
  if (tRank_[t] < 0) return {};
  return {dims_.data() + tDimOff_[t], static_cast<size_t>(tRank_[t])};
}

const std::string& Graph::requestedDevice(OpId op) const {
  static const std::string none;
  return device_[op] == kNone ? none : deviceNames_[device_[op]];
}

OpId Graph::findOp(std::string_view name) const { return opIndex_.find(name, opName_); }

TensorId Graph::findTensor(std::string_view name) const { return tensorIndex_.find(name, tName_); }

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
}  // namespace

int64_t Graph::memoryBytes() const {
  return stringsBytes(opName_) + vecBytes(opType_) + stringsBytes(opTypes_) + vecBytes(opScope_) +
         vecBytes(flops_) + vecBytes(bytesRead_) + vecBytes(bytesWritten_) + vecBytes(paramBytes_) +
         vecBytes(coloc_) + stringsBytes(colocNames_) + vecBytes(device_) + stringsBytes(deviceNames_) + vecBytes(role_) +
         vecBytes(forwardOf_) + vecBytes(estimated_) + vecBytes(inOff_) + vecBytes(outOff_) + vecBytes(fanInOff_) +
         vecBytes(fanOutOff_) + vecBytes(in_) + vecBytes(out_) + vecBytes(fanIn_) + vecBytes(fanOut_) +
         vecBytes(topo_) + stringsBytes(tName_) + vecBytes(tKind_) + vecBytes(tProducer_) +
         vecBytes(tDType_) + vecBytes(tRank_) + vecBytes(tDimOff_) + vecBytes(dims_) + vecBytes(tBytes_) +
         vecBytes(consOff_) + vecBytes(cons_) + stringsBytes(scopeName_) + vecBytes(scopeParent_) +
         vecBytes(scopeDepth_) + opIndex_.memoryBytes() + tensorIndex_.memoryBytes();
}

}  // namespace gp
