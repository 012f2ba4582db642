// Launch configurations as files, for every front end: a plan written as a framework's file with
// its companion (torchtitan's schedule CSV, written first so the configuration never names a
// missing file), and a framework's file read as a plan for a task
// (launch/launch_formats.h holds the formats themselves).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "launch/launch_config.h"
#include "parallel/parallel_search.h"
#include "parallel/parallel_task.h"

namespace gp {

// What an export's header states: the task's stack and cluster, the batch, the model as the user
// named it, and the plan's simulated step and largest device memory when `m` fits.
LaunchContext launchContextFor(const ParallelTask& t, const std::string& model, int64_t globalBatch,
                               const ParallelMeasurement& m);
// Writes the plan as `format` to `path` atomically (gp::Error naming the file); returns what the
// format cannot express exactly, one line each.
std::vector<std::string> writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p,
                                           const LaunchContext& ctx);
// The plan a launch configuration file states for the task's stack on its devices; gp::Error
// naming the file.
LaunchImport readLaunchConfigFile(const std::string& path, const ParallelTask& t);

}  // namespace gp
