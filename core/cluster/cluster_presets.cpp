// loadCluster / clusterPresetNames: presets are the .json files of the cluster resource folder;
// "random:SEED[:DEVICES]" is a random cluster (cluster/random_cluster.h); "<N>x<server>" N copies of
// a multi-server preset's server (cluster/scaled_cluster.h).
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cluster/cluster.h"
#include "cluster/random_cluster.h"
#include "cluster/scaled_cluster.h"
#include "base/error.h"
#include "base/file_text.h"
#include "base/resource_dir.h"

namespace gp {
namespace fs = std::filesystem;

std::string clusterResourceDir() { return findResourceDir("clusters", "resources/clusters"); }

std::vector<std::string> clusterPresetNames() {
  std::vector<std::string> names;
  std::string dir = clusterResourceDir();
  if (dir.empty()) return names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Cluster loadCluster(const std::string& presetOrPath) {
  if (isRandomClusterSpec(presetOrPath)) return randomClusterFromSpec(presetOrPath);
  bool isPath =
      presetOrPath.find('/') != std::string::npos || (presetOrPath.size() > 5 && presetOrPath.ends_with(".json"));
  std::error_code ec;
  if (isPath) {
    if (!fs::is_regular_file(presetOrPath, ec))
      if (auto scaled = scaledCluster(presetOrPath)) return std::move(*scaled);
    return parseClusterJson(readFileText(presetOrPath, "a cluster JSON file"), presetOrPath);
  }
  std::string dir = clusterResourceDir();
  if (dir.empty())
    throw Error(presetOrPath, "cluster presets not found (set GP_RESOURCE_DIR to the folder holding clusters/)");
  fs::path file = fs::path(dir) / (presetOrPath + ".json");
  if (!fs::is_regular_file(file, ec))
    if (auto scaled = scaledCluster(presetOrPath)) return std::move(*scaled);
  if (!fs::is_regular_file(file, ec)) {
    std::string known;
    for (const std::string& n : clusterPresetNames()) known += (known.empty() ? "" : ", ") + n;
    throw Error(presetOrPath,
                "unknown cluster preset (known: " + known +
                    "; N servers of a multi-server preset: e.g. 128x8xH100-IB; or give a .json path or random:SEED[:DEVICES])");
  }
  return parseClusterJson(readFileText(file.string(), "a cluster JSON file"), file.string());
}

}  // namespace gp
