#include "cli/cli_plan_file.h"

#include <iostream>
#include <stdexcept>

namespace gp::cli {

void mapDevices(Plan& plan, const Cluster& from, const Cluster& to, const std::string& path) {
  for (int32_t& d : plan.device) {
    const std::string& name = from.device(d).name;
    d = to.findDevice(name);
    if (d < 0)
      throw std::invalid_argument(path + ": the placement uses device '" + name + "', cluster " + to.name() +
                                  " has no device of that name");
  }
}

Plan planFromFile(const std::string& path, const Graph& g, const ModelIdentity& identity, const Cluster& cluster,
                  bool ignoreHash) {
  LoadedPlacement lp = readPlacement(path, g, identity, ignoreHash);
  for (const auto& w : lp.warnings) std::cerr << "graphplace-cli: warning: " << path << ": " << w << "\n";
  mapDevices(lp.plan, lp.cluster, cluster, path);
  return std::move(lp.plan);
}

}  // namespace gp::cli
