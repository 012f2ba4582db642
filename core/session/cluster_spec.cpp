#include "session/cluster_spec.h"

#include "base/file_text.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/cpu_cluster.h"
#include "optimize/cost_plugin.h"

namespace gp {

Cluster loadClusterSpec(const std::string& spec) {
  if (spec != "cpu") return loadCluster(spec);
  const std::string path = shippedCostModel("cpu_roofline.json");
  if (path.empty()) return cpuCluster(nullptr, "");
  const AnalyticCostModel fit = AnalyticCostModel::parse(readFileText(path, "a fitted roofline"), path);
  return cpuCluster(&fit, path);
}

}  // namespace gp
