#include "cli/cli_launch.h"

#include <stdexcept>

#include "base/file_text.h"
#include "parallel/launch_formats.h"

namespace gp::cli {

void checkExportFormat(const std::string& format) { checkLaunchExportFormat(format); }

int64_t configSeqLength(const std::string& path) {
  return launchConfigSeqLength(readFileText(path, "launch configuration"));
}

LaunchImport readLaunchConfig(const std::string& path, const LayerStack& stack, int devices) {
  return importLaunchConfig(readFileText(path, "launch configuration"), path, stack, devices);
}

void writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p, const LaunchContext& ctx,
                       std::ostream& err) {
  const LaunchFile f = exportLaunchConfig(format, p, ctx);
  // the schedule the .py names: written first, so the .py never names a missing file
  if (!f.companion.empty()) writeTextFileAtomically(launchCompanionPath(path), f.companion);
  writeTextFileAtomically(path, f.text);
  for (const std::string& n : f.inexact) err << "graphplace-cli: " << path << ": not exactly expressible in " << format << ": " << n << "\n";
}

}  // namespace gp::cli
