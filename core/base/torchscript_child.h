// Running LibTorch on a file we did not write (a TorchScript module, a policy or session archive)
// in a child process within the TorchScript bounds of base/input_limits.h: loading such a file
// runs its code (__setstate__, forward), which may never end or allocate without end.
#pragma once
#include <functional>
#include <string>

#include "base/child_process.h"

namespace gp {

// Runs `work` through runInChild with torchScriptSeconds() and torchScriptMemoryBytes(). A child
// past either bound, or ended by a signal, throws gp::Error(path, one line) whose text starts
// with `doing` ("importing it", "reading it") and names the variable that moves the bound.
// Otherwise returns the result: Finished, Failed or NotStarted, for the caller to handle.
// GP_TORCHSCRIPT_INPROCESS=1 starts no child (NotStarted): for debuggers, and for sanitizers
// whose allocator a fork can leave locked (scripts/leaks.sh).
ChildResult runTorchScriptInChild(const std::function<std::string()>& work, const std::string& path,
                                  const std::string& doing);

}  // namespace gp
