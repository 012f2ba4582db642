// Options and Ctrl-C handling shared by `optimize`, `pretrain` and `bench --optimize`.
#pragma once
#include <atomic>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "optimize/optimize.h"

namespace gp::cli {

// The search's options (cli/cli_option_tables.h: optimizeOptionSpecs) as OptimizeOptions.
OptimizeOptions optimizeOptionsFrom(const Args& a);
// --distributed (a switch; the caller lists it) and --dist-timeout SECONDS: this process as one
// rank of a distributed run, read from the launcher's variables (gp::Error for bad ones).
// Returns whether this process leads (prints the run and writes its files): rank 0, or no run.
bool distributedFrom(const Args& a, std::optional<DistEnv>& env, double& timeoutSeconds);
// "a,b,,c" -> {"a", "b", "c"}
std::vector<std::string> splitList(const std::string& text);

// While alive, Ctrl-C sets interrupted() (the optimizer then stops and reports its best plan);
// a second Ctrl-C kills.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  const std::atomic<bool>* flag() const;

 private:
  void (*previous_)(int);
};

}  // namespace gp::cli
