#include "workspace.h"

#include "llm_first.h"

namespace gp {

namespace {
std::shared_ptr<const CostModel> costModel(const Workspace& ws) {
  return std::make_shared<const CostModel>(*ws.graph, *ws.cluster, CostParams{}, ws.calibration.get());
}
}  // namespace

std::shared_ptr<const Workspace> withCluster(const Workspace& w, std::shared_ptr<const Cluster> c, QString label) {
  auto ws = std::make_shared<Workspace>(w);
  ws->cluster = std::move(c);
  ws->cost = costModel(*ws);
  ws->clusterLabel = std::move(label);
  return ws;
}

std::shared_ptr<const Workspace> withCalibration(const Workspace& w, std::shared_ptr<const CalibrationTable> table,
                                                 QString label) {
  auto ws = std::make_shared<Workspace>(w);
  ws->calibration = std::move(table);
  ws->calibrationLabel = ws->calibration ? std::move(label) : QString();
  ws->cost = costModel(*ws);
  return ws;
}

std::shared_ptr<const Workspace> loadWorkspace(const QString& modelSpec, const LoadOptions& options,
                                               std::shared_ptr<const Cluster> cluster, QString clusterLabel,
                                               std::shared_ptr<const CalibrationTable> calibration,
                                               QString calibrationLabel) {
  auto ws = std::make_shared<Workspace>();
  const std::string spec = modelSpec.toStdString();
  ws->graph = std::make_shared<const Graph>(loadModel(spec, options));
  ws->cluster = std::move(cluster);
  ws->calibration = std::move(calibration);
  ws->calibrationLabel = ws->calibration ? std::move(calibrationLabel) : QString();
  ws->cost = costModel(*ws);
  ws->modelSpec = modelSpec;
  ws->options = options;
  ws->identity = ModelIdentity{spec, modelSha256(spec, options), ws->graph->numOps()};
  ws->clusterLabel = std::move(clusterLabel);
  ws->parallelFirst = opensAsParallelPlan(spec, *ws->graph, options.mode, *ws->cluster);
  return ws;
}

}  // namespace gp
