#include "base/plugin_files.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace gp {

PluginFiles pluginFiles(const char* envVar, const char* buildPath, const char* fileName) {
  PluginFiles c;
  if (const char* env = std::getenv(envVar); env && *env) {
    c.files.emplace_back(env);
    c.explicitOnly = true;
    return c;
  }
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    c.files.push_back((exe.parent_path() / fileName).string());
    c.files.push_back((exe.parent_path().parent_path() / "lib" / "graphplace" / fileName).string());
  }
  if (buildPath) c.files.emplace_back(buildPath);
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

OpenedPlugin openPlugin(const std::string& file, const std::string& what, const char* abiSymbol, uint64_t abi,
                        const std::vector<const char*>& names, const std::string& loadHint) {
  static std::mutex mutex;
  static std::map<std::string, OpenedPlugin> cache;
  std::lock_guard lock(mutex);
  const std::string key = file + '\n' + abiSymbol;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  OpenedPlugin p;
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  using AbiFn = uint64_t (*)();
  if (!handle) {
    const char* err = ::dlerror();
    p.error = "cannot load " + what + " " + file + ": " + (err ? err : "unknown error") +
              (loadHint.empty() ? "" : " " + loadHint);
  } else if (auto fn = reinterpret_cast<AbiFn>(::dlsym(handle, abiSymbol)); !fn || fn() != abi) {
    p.error = what + " " + file + " was built from another version of graphplace; rebuild it";
  } else {
    for (const char* name : names) {
      void* sym = ::dlsym(handle, name);
      if (!sym) {
        p.error = what + " " + file + " has no " + name;
        p.symbols.clear();
        break;
      }
      p.symbols.push_back(sym);
    }
  }
  cache.emplace(key, p);
  return p;
}

}  // namespace gp
