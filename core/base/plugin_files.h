// On-demand plugins (libgp_rl.so, libgp_profile.so, libgp_torchscript.so): where one may be, in
// the order its loader tries them — the file named by an environment variable (then only that
// one), beside the program, ../lib/graphplace from the program's folder (installed), and the
// build tree's copy — and opening one: dlopen(), the ABI check, the entry points. An installed
// program thus loads its installed plugins even while the build tree it came from exists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gp {

struct PluginFiles {
  std::vector<std::string> files;
  bool explicitOnly = false;  // the environment variable was set: only that file
};

// `buildPath` may be nullptr (the plugin was not built in this tree).
PluginFiles pluginFiles(const char* envVar, const char* buildPath, const char* fileName);

// The first of `c.files` that exists, or "" (then `tried` lists every file looked for).
std::string firstExisting(const PluginFiles& c, std::string& tried);

struct OpenedPlugin {
  std::vector<void*> symbols;  // the address of each requested name, in order (all set when error is "")
  std::string error;           // one line, or ""
};

// dlopen()s `file` and checks that it was built from these headers (its `abiSymbol`, a
// uint64_t (*)(), returns `abi`), then looks up `names`. Once per file and ABI symbol for the
// life of the process (dlopen'ed libraries stay loaded): later calls return the first result. A
// plugin of several products has an ABI symbol per product, each checked on its own. `what` names
// the plugin in errors ("the optimizer plugin"); `loadHint` follows a dlopen failure's message.
OpenedPlugin openPlugin(const std::string& file, const std::string& what, const char* abiSymbol, uint64_t abi,
                        const std::vector<const char*>& names, const std::string& loadHint = "");

}  // namespace gp
