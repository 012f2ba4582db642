#include "session/launch_files.h"

#include <algorithm>

#include "base/file_text.h"
#include "launch/launch_formats.h"

namespace gp {

LaunchContext launchContextFor(const ParallelTask& t, const std::string& model, int64_t globalBatch,
                               const ParallelMeasurement& m) {
  LaunchContext ctx;
  ctx.stack = &t.stack;
  ctx.globalBatch = globalBatch;
  ctx.devicesPerServer = devicesPerServer(t.c);
  ctx.model = model;
  ctx.cluster = t.c.name();
  if (m.feasible && m.stepTime > 0) {
    ctx.stepSeconds = m.stepTime;
    for (int64_t bytes : m.peakMemory) ctx.peakGiB = std::max(ctx.peakGiB, static_cast<double>(bytes) / (1u << 30));
  }
  return ctx;
}

std::vector<std::string> writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p,
                                           const LaunchContext& ctx) {
  const LaunchFile f = exportLaunchConfig(format, p, ctx);
  if (!f.companion.empty()) writeTextFileAtomically(launchCompanionPath(path), f.companion);
  writeTextFileAtomically(path, f.text);
  return f.inexact;
}

LaunchImport readLaunchConfigFile(const std::string& path, const ParallelTask& t) {
  return importLaunchConfig(readFileText(path, "launch configuration"), path, t.stack, t.c.numDevices());
}

}  // namespace gp
