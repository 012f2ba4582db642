// --events FILE (optimize, pretrain): the run's event log (optimize/run_log.h) as the commands
// write it, rank 0 only in a distributed run.
#pragma once
#include <functional>
#include <memory>
#include <optional>

#include "cli/cli_args.h"
#include "optimize/optimize.h"
#include "optimize/run_log.h"

namespace gp::cli {

// The writer when --events is given and this process leads the run (else null).
std::unique_ptr<RunLogWriter> eventLogFrom(const Args& a, bool lead);

// Runs `run`; when it throws, an "error" event carries its message to the log first.
template <class F>
auto loggingErrors(RunLogWriter* log, F&& run) {
  try {
    return run();
  } catch (const std::exception& e) {
    if (log) {
      try {
        log->event("error", {{"message", e.what()}});
      } catch (const std::exception&) {
      }
    }
    throw;
  }
}

void logIteration(RunLogWriter& log, const IterationReport& it);
void logPretrainReport(RunLogWriter& log, const PretrainReport& r);

}  // namespace gp::cli
