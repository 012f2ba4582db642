#include "graph/graph_stats.h"

#include <algorithm>

#include "graph/limits.h"

namespace gp {

GraphStats computeStats(const Graph& g) {
  GraphStats s;
  s.ops = g.numOps();
  s.edges = g.numEdges();
  s.tensors = g.numTensors();
  s.flops = g.totalFlops();
  s.residentBytes = g.totalParamBytes();
  for (TensorId t = 0; t < g.numTensors(); ++t)
    if (g.tensorKind(t) == TensorKind::Parameter) s.paramBytes = saturatingAdd(s.paramBytes, g.tensorBytes(t));
  s.scopes = g.numScopes();
  s.scopeDepth = g.maxScopeDepth();
  std::vector<int32_t> perType(g.opTypeNames().size(), 0);
  for (OpId op = 0; op < g.numOps(); ++op) {
    ++perType[g.opTypeId(op)];
    s.activationBytes = saturatingAdd(s.activationBytes, g.bytesWritten(op));
    switch (g.role(op)) {
      case OpRole::Forward: ++s.forwardOps; break;
      case OpRole::Backward: ++s.backwardOps; break;
      case OpRole::Update: ++s.updateOps; break;
    }
  }
  for (size_t t = 0; t < perType.size(); ++t)
    if (perType[t] > 0) s.opTypes.emplace_back(g.opTypeNames()[t], perType[t]);
  std::sort(s.opTypes.begin(), s.opTypes.end(),
            [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  return s;
}

}  // namespace gp
