// Workspace: what one open document measures against — the graph, the cluster, the optional
// calibration table and the cost model built on them — as one immutable, shared bundle. Background jobs hold a
// shared_ptr<const Workspace>, so the document can move on (open another model, change the
// cluster) while a job still reads the old one.
#pragma once
#include <QString>
#include <memory>
#include <string>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "graph/graph.h"
#include "io/model_loader.h"
#include "io/placement_file.h"

namespace gp {

struct Workspace {
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Cluster> cluster;
  std::shared_ptr<const CalibrationTable> calibration;  // null: roofline times only
  std::shared_ptr<const CostModel> cost;  // points into *graph and *cluster, built with *calibration
  QString modelSpec;                      // a path or zoo:NAME, as the user gave it
  LoadOptions options;
  ModelIdentity identity;                 // path, SHA-256, op count (placement files record it)
  QString clusterLabel;                   // preset name or cluster file path
  QString calibrationLabel;               // the calibration table's file path (empty: none)
  // An LLM: it opens in the Parallel Plan view (llm_first.h), decided when it is loaded.
  bool parallelFirst = false;

  bool modelIsOnnx() const { return modelSpec.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive); }
};

// The same graph with another cluster (a new cost model, the same calibration table).
std::shared_ptr<const Workspace> withCluster(const Workspace& w, std::shared_ptr<const Cluster> c, QString label);
// The same graph and cluster with another calibration table (null: none).
std::shared_ptr<const Workspace> withCalibration(const Workspace& w, std::shared_ptr<const CalibrationTable> table,
                                                 QString label);
// Loads the model (slow: call off the UI thread) and builds the workspace. Throws gp::Error.
std::shared_ptr<const Workspace> loadWorkspace(const QString& modelSpec, const LoadOptions& options,
                                               std::shared_ptr<const Cluster> cluster, QString clusterLabel,
                                               std::shared_ptr<const CalibrationTable> calibration = nullptr,
                                               QString calibrationLabel = {});

}  // namespace gp
