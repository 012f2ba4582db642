#include "optimize/learned_op_times.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "cost/cost_model.h"
#include "costmodel/cpu_cluster.h"
#include "costmodel/dataset_maker.h"

namespace gp {

bool clusterHasKind(const Cluster& c, const std::string& kind) {
  for (int d = 0; d < c.numDevices(); ++d)
    if (c.device(d).kind == kind) return true;
  return false;
}

void requireKernelModel(const std::string& modelPath, const LearnedModelInfo& info) {
  if (info.task != CostTask::Kernel)
    throw Error(modelPath, std::string("a ") + costTaskName(info.task) +
                               "-task model; --costs learned needs a kernel-task model (costmodel train on kernel data)");
}

LearnedOpTimes addLearnedOpTimes(const std::string& modelPath, const LearnedModelInfo& info, const Graph& g,
                                 const Cluster& c, CalibrationTable& table) {
  requireKernelModel(modelPath, info);
  LearnedOpTimes out;
  if (!clusterHasKind(c, info.deviceKind)) return out;
  const CostModel cost(g, c);
  const std::string& kind = info.deviceKind;
  std::vector<OpId> missing;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (!cost.isMetadata(op) && !table.lookup(CalibrationTable::signature(g, op, cost.opDType(op), kind)))
      missing.push_back(op);
  const KernelQueries q = kernelQueries(cost, missing, std::max(1, threadsOfCpuKind(kind)), kind);
  if (q.data.graphs.empty()) return out;
  const std::vector<std::vector<double>> predicted = predictCostsWith(modelPath, q.data);
  for (size_t i = 0; i < q.ops.size(); ++i) {
    const double seconds = predicted.at(i).at(0);
    if (!(seconds >= 0) || !std::isfinite(seconds))
      throw Error(modelPath, "predicted a time that is not a finite number for " + g.opName(q.ops[i].front()));
    const OpId op = q.ops[i].front();
    CalibrationTable::Entry e{std::string(g.opType(op)), {}, cost.opDType(op), kind, seconds};
    for (TensorId t : g.inputs(op)) {
      if (!g.hasShape(t)) {
        e.inputShapes.emplace_back(std::nullopt);
        continue;
      }
      const auto s = g.shape(t);
      e.inputShapes.emplace_back(std::vector<int64_t>(s.begin(), s.end()));
    }
    table.add(std::move(e));
    ++out.signatures;
    out.opTimes += static_cast<int64_t>(q.ops[i].size());
  }
  return out;
}

}  // namespace gp
