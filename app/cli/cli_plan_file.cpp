#include "cli/cli_plan_file.h"

#include <iostream>
#include <stdexcept>

#include "cli/cli_calibration.h"
#include "cli/cli_fuse_option.h"
#include "cli/cli_model_options.h"
#include "io/model_loader.h"
#include "session/cluster_spec.h"

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

ModelPlan loadModelPlan(const Args& a, const std::string& command) {
  if (a.positional.size() != 1) throw std::invalid_argument(command + " needs exactly one MODEL");
  auto clusterSpec = a.value("--cluster");
  auto placementPath = a.value("--placement");
  if ((!clusterSpec || clusterSpec->empty()) && !placementPath)
    throw std::invalid_argument(command + " needs --cluster PRESET|FILE (presets: " + [] {
      std::string names = "cpu";
      for (const auto& n : clusterPresetNames()) names += ", " + n;
      return names;
    }() + ") or a --placement file");
  const FuseMode fuse = checkFuseOption(a.text("--fuse"));
  const LoadOptions loadOptions = loadOptionsFrom(a);
  ModelPlan mp{a.positional[0], loadModel(a.positional[0], loadOptions), {}, {}, {}, "single device"};
  mp.identity = ModelIdentity{mp.spec, modelSha256(mp.spec, loadOptions), mp.graph.numOps()};
  mp.plan = Plan::singleDevice(mp.graph.numOps());
  if (placementPath) {
    LoadedPlacement lp = readPlacement(*placementPath, mp.graph, mp.identity, a.has("--ignore-hash"));
    for (const auto& w : lp.warnings) std::cerr << "graphplace-cli: warning: " << *placementPath << ": " << w << "\n";
    mp.plan = std::move(lp.plan);
    mp.cluster = std::move(lp.cluster);
    mp.planName = *placementPath;
  }
  if (clusterSpec && !clusterSpec->empty()) {
    Cluster chosen = loadClusterSpec(*clusterSpec);
    if (placementPath)  // the plan names devices of the embedded cluster: find them by name here
      mapDevices(mp.plan, *mp.cluster, chosen, *placementPath);
    mp.cluster = std::move(chosen);
  }
  mp.planName += applyFuseOption(mp.graph, mp.plan, fuse, mp.planName);
  return mp;
}

}  // namespace gp::cli
