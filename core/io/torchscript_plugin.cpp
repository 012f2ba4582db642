#include "io/torchscript_plugin.h"

#include <string>

#include "base/error.h"
#include "base/plugin_files.h"
#include "base/torchscript_child.h"
#include "io/json_io.h"

namespace gp {
namespace {

#ifdef GP_TORCHSCRIPT_PLUGIN_BUILD_PATH
constexpr const char* kBuildPath = GP_TORCHSCRIPT_PLUGIN_BUILD_PATH;
#else
constexpr const char* kBuildPath = nullptr;
#endif

struct Plugin {
  TorchScriptImportFn fn = nullptr;
  std::string error;
};

Plugin plugin() {
  const PluginFiles c = pluginFiles("GP_TORCHSCRIPT_PLUGIN", kBuildPath, kTorchScriptPluginFile);
  std::string tried;
  const std::string file = firstExisting(c, tried);
  Plugin p;
  if (file.empty()) {
    p.error = c.explicitOnly ? "the LibTorch plugin named by GP_TORCHSCRIPT_PLUGIN does not exist: " + tried
                             : "TorchScript import is not available: the LibTorch plugin " +
                                   std::string(kTorchScriptPluginFile) + " was not found (looked in " + tried +
                                   "; build with GP_WITH_TORCH=ON or set GP_TORCHSCRIPT_PLUGIN)";
    return p;
  }
  const OpenedPlugin o =
      openPlugin(file, "the LibTorch plugin", kTorchScriptAbiSymbol, torchScriptPluginAbi(), {kTorchScriptImportSymbol});
  p.error = o.error;
  if (o.error.empty()) p.fn = reinterpret_cast<TorchScriptImportFn>(o.symbols[0]);
  return p;
}

}  // namespace

Graph importTorchScriptViaPlugin(const std::string& path, const ImportOptions& options) {
  const Plugin p = plugin();
  if (!p.fn) throw Error(path, p.error);
  Graph g;
  ImportOptions childOptions = options;
  childOptions.threads = 1;
  // The child's answer: 'G' and the graph as graphplace JSON, or 'E' and the problem.
  const ChildResult r = runTorchScriptInChild(
      [&] {
        std::string answer;
        try {
          p.fn(path, childOptions, g);
          answer = 'G';
          answer += graphToJson(g);
        } catch (const Error& e) {
          answer = 'E';
          answer += e.problem();
        } catch (const std::exception& e) {
          answer = 'E';
          answer += e.what();
        }
        return answer;
      },
      path, "importing it");
  if (r.end == ChildResult::End::NotStarted) {
    p.fn(path, options, g);
    return g;
  }
  if (r.end == ChildResult::End::Failed) throw Error(path, "the TorchScript import process failed");
  if (r.output.empty()) throw Error(path, "the TorchScript import process sent nothing back");
  if (r.output[0] == 'E') throw Error(path, r.output.substr(1));
  return parseGraphJson(r.output.substr(1), path);
}

}  // namespace gp
