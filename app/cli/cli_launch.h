// parallelize's launch configurations: --config FILE reads a framework's configuration as the
// user's plan — a DeepSpeed JSON, a torchtitan TOML or Python configuration, or else a
// Megatron-LM argument list (with or without its launcher and script) — and --export FORMAT
// --out FILE writes the best plan as one (core/parallel/launch_formats.h).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "parallel/launch_config.h"

namespace gp::cli {

// Throws std::invalid_argument for a format --export does not write.
void checkExportFormat(const std::string& format);
// The sequence length the configuration states, 0 when none: the model is built at it.
int64_t configSeqLength(const std::string& path);
LaunchImport readLaunchConfig(const std::string& path, const LayerStack& stack, int devices);
// Writes the export atomically to `path`; prints what the target cannot express to `err`.
void writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p, const LaunchContext& ctx,
                       std::ostream& err);

}  // namespace gp::cli
