#include "base/resource_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace gp {
namespace fs = std::filesystem;

std::string findResourceDir(const std::string& name, const std::string& sourcePath) {
  std::error_code ec;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("GP_RESOURCE_DIR"); env != nullptr && *env != '\0')
    candidates.push_back(fs::path(env) / name);
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    candidates.push_back(dir / ".." / "share" / "graphplace" / name);
    for (fs::path up = dir; up.has_relative_path(); up = up.parent_path()) candidates.push_back(up / sourcePath);
  }
#ifdef GP_SOURCE_DIR
  candidates.push_back(fs::path(GP_SOURCE_DIR) / sourcePath);
#endif
  for (const fs::path& p : candidates)
    if (fs::is_directory(p, ec)) return fs::weakly_canonical(p, ec).string();
  return {};
}

std::string findResourceFile(const std::string& name, const std::string& file) {
  const std::string dir = findResourceDir(name, "resources/" + name);
  if (dir.empty()) return {};
  const fs::path path = fs::path(dir) / file;
  std::error_code ec;
  return fs::is_regular_file(path, ec) ? path.string() : std::string();
}

}  // namespace gp
