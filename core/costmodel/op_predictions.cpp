#include "costmodel/op_predictions.h"

#include <cmath>
#include <span>
#include <string>
#include <unordered_map>

#include "base/error.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "costmodel/cost_features.h"

namespace gp {

int64_t canonicalConfig(const CostGraph& g, int32_t configWidth) {
  if (configWidth <= 0 || g.configRows() != 1) return -1;
  const auto rows = std::span<const float>(g.configFeatures);
  int64_t best = -1;
  int32_t bestThreads = 0;
  for (int64_t c = 0; c < g.numConfigs(); ++c) {
    const size_t at = static_cast<size_t>(c) * static_cast<size_t>(configWidth);
    if (at + static_cast<size_t>(configWidth) > rows.size()) break;
    const KernelConfig k = configOfRow(rows.subspan(at, static_cast<size_t>(configWidth)));
    const int32_t threads = static_cast<size_t>(c) < g.threads.size() ? g.threads[static_cast<size_t>(c)] : k.threads;
    if (k.layout == 0 && k.tiles == 1 && threads > bestThreads) best = c, bestThreads = threads;
  }
  return best;
}

std::vector<int32_t> kernelGraphOfOps(const CostModel& cost, const CostDataset& kernels) {
  const Graph& graph = cost.graph();
  std::unordered_map<std::string, int32_t> bySignature;
  for (size_t i = 0; i < kernels.graphs.size(); ++i) {
    const CostGraph& g = kernels.graphs[i];
    if (g.numNodes() == 1 && g.nodeSignature.size() == 1) bySignature.emplace(g.nodeSignature[0], static_cast<int32_t>(i));
  }
  std::vector<int32_t> out(static_cast<size_t>(graph.numOps()), -1);
  if (bySignature.empty() || kernels.task != CostTask::Kernel) return out;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (cost.isMetadata(op)) continue;
    const auto it = bySignature.find(CalibrationTable::signature(graph, op, cost.opDType(op), ""));
    if (it != bySignature.end()) out[static_cast<size_t>(op)] = it->second;
  }
  return out;
}

std::vector<double> opPredictionErrors(const CostModel& cost, const CostDataset& kernels,
                                       const std::vector<std::vector<double>>& predicted) {
  if (predicted.size() != kernels.graphs.size())
    throw Error("costmodel", std::to_string(predicted.size()) + " predicted graphs for " +
                                 std::to_string(kernels.graphs.size()) + " measured ones");
  std::vector<double> errorOfGraph(kernels.graphs.size(), std::nan(""));
  for (size_t i = 0; i < kernels.graphs.size(); ++i) {
    const CostGraph& g = kernels.graphs[i];
    if (predicted[i].size() != g.runtime.size())
      throw Error("costmodel", g.name + ": " + std::to_string(predicted[i].size()) + " predictions for " +
                                   std::to_string(g.runtime.size()) + " configurations");
    const int64_t c = canonicalConfig(g, kernels.configWidth);
    if (c < 0) continue;
    const double p = predicted[i][static_cast<size_t>(c)], m = g.runtime[static_cast<size_t>(c)];
    if (std::isfinite(p) && p > 0 && m > 0) errorOfGraph[i] = std::fabs(std::log(p / m));
  }
  const std::vector<int32_t> graphOf = kernelGraphOfOps(cost, kernels);
  std::vector<double> out(graphOf.size(), std::nan(""));
  for (size_t op = 0; op < graphOf.size(); ++op)
    if (graphOf[op] >= 0) out[op] = errorOfGraph[static_cast<size_t>(graphOf[op])];
  return out;
}

}  // namespace gp
