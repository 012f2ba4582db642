#include "io/plugin_files.h"

#include <cstdlib>
#include <filesystem>

namespace gp {

PluginFiles pluginFiles(const char* envVar, const char* buildPath, const char* fileName) {
  PluginFiles c;
  if (const char* env = std::getenv(envVar); env && *env) {
    c.files.emplace_back(env);
    c.explicitOnly = true;
    return c;
  }
  if (buildPath) c.files.emplace_back(buildPath);
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    c.files.push_back((exe.parent_path() / fileName).string());
    c.files.push_back((exe.parent_path().parent_path() / "lib" / "graphplace" / fileName).string());
  }
  return c;
}

std::string firstExisting(const PluginFiles& c, std::string& tried) {
  tried.clear();
  for (const std::string& file : c.files) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) return file;
    tried += (tried.empty() ? "" : ", ") + file;
  }
  return {};
}

}  // namespace gp
