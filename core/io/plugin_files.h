// Where an on-demand plugin (libgp_rl.so, libgp_profile.so) may be, in the order its loader
// tries them: the file named by an environment variable (then only that one), the build tree's
// copy, beside the program, and ../lib/graphplace from the program's folder (installed).
#pragma once
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

}  // namespace gp
