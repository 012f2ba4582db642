#include "workspace.h"

namespace gp {

std::shared_ptr<const Workspace> withCluster(const Workspace& w, std::shared_ptr<const Cluster> c, QString label) {
  auto ws = std::make_shared<Workspace>(w);
  ws->cluster = std::move(c);
  ws->cost = std::make_shared<const CostModel>(*ws->graph, *ws->cluster);
  ws->clusterLabel = std::move(label);
  return ws;
}

std::shared_ptr<const Workspace> loadWorkspace(const QString& modelSpec, const LoadOptions& options,
                                               std::shared_ptr<const Cluster> cluster, QString clusterLabel) {
  auto ws = std::make_shared<Workspace>();
  const std::string spec = modelSpec.toStdString();
  ws->graph = std::make_shared<const Graph>(loadModel(spec, options));
  ws->cluster = std::move(cluster);
  ws->cost = std::make_shared<const CostModel>(*ws->graph, *ws->cluster);
  ws->modelSpec = modelSpec;
  ws->options = options;
  ws->identity = ModelIdentity{spec, modelSha256(spec, options), ws->graph->numOps()};
  ws->clusterLabel = std::move(clusterLabel);
  return ws;
}

}  // namespace gp
