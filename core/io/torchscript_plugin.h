// Loading the TorchScript importer plugin on demand (see torchscript_module.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "graph/graph.h"
#include "graph/import_options.h"

namespace gp {

// The symbol the plugin exports. Exceptions (gp::Error) propagate through it.
using TorchScriptImportFn = void (*)(const std::string& path, const ImportOptions& options, Graph& out);
inline constexpr const char* kTorchScriptImportSymbol = "gp_torchscript_import";
inline constexpr const char* kTorchScriptPluginFile = "libgp_torchscript.so";
// A plugin built from other headers must not be called: both sides compute this from the
// headers they were built with, and the loader refuses a mismatch.
inline constexpr const char* kTorchScriptAbiSymbol = "gp_torchscript_abi";
using TorchScriptAbiFn = uint64_t (*)();
inline constexpr uint64_t torchScriptPluginAbi() {
  constexpr uint64_t kVersion = 1;
  return (kVersion << 48) ^ (uint64_t{sizeof(Graph)} << 16) ^ uint64_t{sizeof(ImportOptions)};
}

// Imports through the plugin, loading it on first use. Looks in $GP_TORCHSCRIPT_PLUGIN, the
// build tree, next to the executable, and in <exe>/../lib/graphplace. Throws gp::Error(path,
// ...) when the plugin cannot be found or loaded.
//
// A TorchScript file is code (its forward runs once to learn the shapes, its __setstate__ runs
// on load), so the import runs in a forked child process (base/torchscript_child.h) within the
// bounds of base/input_limits.h, and sends the graph back as graphplace JSON: a module that
// loops forever, allocates without end or crashes LibTorch gives a one-line error, and the
// caller's open work survives. Where no child starts (GP_TORCHSCRIPT_INPROCESS=1, or fork
// failed) the import runs in this process, unbounded.
Graph importTorchScriptViaPlugin(const std::string& path, const ImportOptions& options);

}  // namespace gp
