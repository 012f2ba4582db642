// loadCluster / clusterPresetNames: presets are the .json files of the cluster resource folder;
// "random:SEED[:DEVICES]" is a random cluster (cluster/random_cluster.h).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "cluster/cluster.h"
#include "cluster/random_cluster.h"
#include "graph/error.h"
#include "io/file_text.h"

namespace gp {
namespace fs = std::filesystem;

std::string clusterResourceDir() {
  std::error_code ec;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("GP_RESOURCE_DIR"); env != nullptr && *env != '\0')
    candidates.push_back(fs::path(env) / "clusters");
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    candidates.push_back(dir / ".." / "share" / "graphplace" / "clusters");
    // a build tree inside the source tree (build/release/app, build/release/tests/benchmarks, ...)
    for (fs::path up = dir; up.has_relative_path(); up = up.parent_path())
      candidates.push_back(up / "resources" / "clusters");
  }
  for (const fs::path& p : candidates)
    if (fs::is_directory(p, ec)) return fs::weakly_canonical(p, ec).string();
  return {};
}

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
  if (isPath) return parseClusterJson(readFileText(presetOrPath, "a cluster JSON file"), presetOrPath);
  std::string dir = clusterResourceDir();
  if (dir.empty())
    throw Error(presetOrPath, "cluster presets not found (set GP_RESOURCE_DIR to the folder holding clusters/)");
  fs::path file = fs::path(dir) / (presetOrPath + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    std::string known;
    for (const std::string& n : clusterPresetNames()) known += (known.empty() ? "" : ", ") + n;
    throw Error(presetOrPath,
                "unknown cluster preset (known: " + known + "; or give a .json path or random:SEED[:DEVICES])");
  }
  return parseClusterJson(readFileText(file.string(), "a cluster JSON file"), file.string());
}

}  // namespace gp
