// A parallel plan as a training framework's launch configuration, and back: what every target
// (megatron_launch.h, ...) shares. An export says, beside its text, every part of the plan the
// target cannot express exactly; an import says which of the file's settings the simulator
// reads differently from the framework. Combinations the framework itself rejects are
// gp::Error(target, the framework's reason) in both directions.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parallel/layer_stack.h"
#include "parallel/parallel_plan.h"

namespace gp {

// What an export needs besides the plan.
struct LaunchContext {
  const LayerStack* stack = nullptr;
  int64_t globalBatch = 0;
  int devicesPerServer = 1;   // for the launcher line (GPUs per node)
  std::string model;          // the model as the user named it
  std::string cluster;        // the cluster's name
  double stepSeconds = 0;     // the plan's simulated step (0: not stated in the header)
  double peakGiB = 0;         // its largest device memory
};

struct LaunchFile {
  std::string text;                  // the file's contents
  std::vector<std::string> inexact;  // one line per part of the plan the target cannot express exactly
  std::string companion;             // a second file the first refers to (torchtitan's schedule CSV), or ""
};

// A plan read from a launch configuration.
struct LaunchImport {
  ParallelPlan plan;
  int64_t globalBatch = 0;
  int64_t seqLen = 0;                // the configuration's sequence length, 0 when it states none
  std::vector<std::string> approximated;  // settings read approximately, one line each
};

// Parallel degrees and micro-batch counts an import accepts: 1 .. 2^20 (a larger value in a
// configuration is an error naming it, never a narrowed int).
inline constexpr int64_t kMaxLaunchCount = int64_t{1} << 20;
// `text` as a count 1 .. kMaxLaunchCount; else gp::Error naming `source` and `what`
// ("trainer.devices must be a whole number 1 .. 2^20, got 'x'").
int64_t launchCount(const std::string& text, const std::string& source, const std::string& what);

// The header comment every export starts with: what it is for (`title`: "Megatron-LM launch
// arguments"), the plan and its simulated step, whose names it uses, and what the target cannot
// express; every line a "#" comment.
std::string launchHeader(const ParallelPlan& p, const LaunchContext& ctx, const std::string& title, const std::string& names,
                         const std::string& target, const std::vector<std::string>& inexact);

// The shell words of `text`: whitespace-separated, quotes removed, backslash-newlines joined,
// comments (# to the end of the line) dropped, a bash array's parentheses and "NAME=(" dropped.
std::vector<std::string> shellWords(const std::string& text);

// The `<prefix><key> = <value>` lines of a Python file (a function that sets a configuration's
// fields: torchtitan's "config.", NeMo's "recipe."): key without the prefix, value as written up
// to a comment; later lines win.
std::map<std::string, std::string> pythonAssignments(const std::string& text, const std::string& prefix);
// A value of pythonAssignments without the quotes and blanks around it.
std::string unquoted(std::string v);
// `v` as a whole number above 0, else 0 (a sequence length a configuration states, or none).
int64_t positiveOrZero(const std::string& v);

}  // namespace gp
