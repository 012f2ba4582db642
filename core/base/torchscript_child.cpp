#include "base/torchscript_child.h"

#include <cstdlib>
#include <string_view>

#include "base/error.h"
#include "base/input_limits.h"

namespace gp {

ChildResult runTorchScriptInChild(const std::function<std::string()>& work, const std::string& path,
                                  const std::string& doing) {
  const char* inProcess = std::getenv("GP_TORCHSCRIPT_INPROCESS");
  if (inProcess != nullptr && std::string_view(inProcess) == "1") return {};
  const ChildLimits limits{.seconds = torchScriptSeconds(), .maxMemoryBytes = torchScriptMemoryBytes()};
  ChildResult r = runInChild(work, limits);
  using End = ChildResult::End;
  if (r.end == End::TimedOut)
    throw Error(path, doing + " ran longer than " + std::to_string(limits.seconds) + " s, over the limit (set " +
                          kTorchScriptSecondsVariable + " to allow more)");
  if (r.end == End::OverMemory)
    throw Error(path, doing + " took more than " + std::to_string(limits.maxMemoryBytes >> 20) +
                          " MiB of memory, over the limit (set " + kTorchScriptMemoryVariable + " to allow more)");
  if (r.end == End::Crashed) throw Error(path, "LibTorch crashed " + doing + " (signal " + std::to_string(r.signal) + ")");
  return r;
}

}  // namespace gp
