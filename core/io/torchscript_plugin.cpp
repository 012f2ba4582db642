#include "io/torchscript_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "graph/error.h"

namespace gp {
namespace {

std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const char* env = std::getenv("GP_TORCHSCRIPT_PLUGIN"); env && *env) c.emplace_back(env);
#ifdef GP_TORCHSCRIPT_PLUGIN_BUILD_PATH
  c.emplace_back(GP_TORCHSCRIPT_PLUGIN_BUILD_PATH);
#endif
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    c.push_back((exe.parent_path() / kTorchScriptPluginFile).string());
    c.push_back((exe.parent_path().parent_path() / "lib" / "graphplace" / kTorchScriptPluginFile).string());
  }
  return c;
}

struct Plugin {
  TorchScriptImportFn fn = nullptr;
  std::string error;
};

const Plugin& plugin() {
  static Plugin p;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string& file : candidates()) {
      std::error_code ec;
      if (!std::filesystem::exists(file, ec)) {
        tried += (tried.empty() ? "" : ", ") + file;
        continue;
      }
      void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char* err = ::dlerror();
        p.error = "cannot load the LibTorch plugin " + file + ": " + (err ? err : "unknown error");
        return;
      }
      auto abi = reinterpret_cast<TorchScriptAbiFn>(::dlsym(handle, kTorchScriptAbiSymbol));
      if (!abi || abi() != torchScriptPluginAbi()) {
        p.error = "the LibTorch plugin " + file + " was built from another version of graphplace; rebuild it";
        return;
      }
      p.fn = reinterpret_cast<TorchScriptImportFn>(::dlsym(handle, kTorchScriptImportSymbol));
      if (!p.fn) p.error = "the LibTorch plugin " + file + " has no " + kTorchScriptImportSymbol;
      return;
    }
    p.error = "TorchScript import is not available: the LibTorch plugin " + std::string(kTorchScriptPluginFile) +
              " was not found (looked in " + tried + "; build with GP_WITH_TORCH=ON or set GP_TORCHSCRIPT_PLUGIN)";
  });
  return p;
}

}  // namespace

Graph importTorchScriptViaPlugin(const std::string& path, const ImportOptions& options) {
  const Plugin& p = plugin();
  if (!p.fn) throw Error(path, p.error);
  Graph g;
  p.fn(path, options, g);
  return g;
}

}  // namespace gp
