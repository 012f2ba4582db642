// Entry point of the LibTorch plugin (libgp_torchscript.so). The model loader dlopen()s it the
// first time a TorchScript file is opened, so programs that never read one never pay for
// loading LibTorch (~0.5 s and ~150 MB at start-up).
#include "io/torchscript_import.h"
#include "io/torchscript_plugin.h"

extern "C" void gp_torchscript_import(const std::string& path, const gp::ImportOptions& options, gp::Graph& out) {
  out = gp::importTorchScript(path, options);
}

extern "C" uint64_t gp_torchscript_abi() { return gp::torchScriptPluginAbi(); }
