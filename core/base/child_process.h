// Running untrusted work (a third-party parser or interpreter on a file we did not write) in a
// forked child process, so that its crash, hang or runaway memory costs the result, never the
// caller. The child runs one function and sends back the bytes it returns through a pipe; the
// parent waits at most `seconds` and, when `maxMemoryBytes` is set, samples the child's resident
// memory every 20 ms and kills it once it has grown that much past the caller's at the fork.
//
// Only the forking thread exists in the child: the work must not rely on other threads of the
// parent (a thread pool the parent started, a lock another thread held). On systems other than
// Linux, or where fork fails, runInChild reports NotStarted and the caller decides.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace gp {

struct ChildLimits {
  int seconds = 300;
  int64_t maxMemoryBytes = 0;  // growth of resident memory over the parent's; 0: unbounded
};

struct ChildResult {
  enum class End {
    Finished,    // the work returned; `output` holds what it returned
    TimedOut,    // killed after ChildLimits::seconds
    OverMemory,  // killed past ChildLimits::maxMemoryBytes
    Crashed,     // ended by a signal (`signal`)
    Failed,      // the work threw, or its result could not be sent back
    NotStarted,  // no child: fork or pipe failed, or not a POSIX system
  };
  End end = End::NotStarted;
  std::string output;
  int signal = 0;
};

// Runs `work` in a forked child (stderr to /dev/null) within `limits`.
ChildResult runInChild(const std::function<std::string()>& work, const ChildLimits& limits);

// Physical memory of this machine in bytes (0 if unknown).
int64_t physicalMemoryBytes();

}  // namespace gp
