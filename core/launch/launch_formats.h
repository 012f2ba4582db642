// Every launch-configuration format by name: a plan written as one (exportLaunchConfig), and a
// configuration read as a plan whichever framework wrote it (importLaunchConfig), told by the
// content — a JSON object is DeepSpeed's, assignments to config.parallelism torchtitan's Python
// configuration, assignments to recipe. NeMo 2.0's recipe overrides, a TOML table header
// ("[training]") torchtitan's TOML, a top-level `model:` with parallel sizes NeMo 1.x's YAML,
// anything else a Megatron-LM argument list (with or without its launcher and script).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launch/launch_config.h"
#include "launch/launch_precision.h"

namespace gp {

// One launch-configuration format, everything about it in one row: its name (what --export
// takes), what a file dialog calls it (English; the app translates it in context
// "LaunchFormat"), its file pattern, the framework that runs it (megatron for megatron, nemo and
// nemo1 — NeMo trains through Megatron-Core —, torchtitan for both of its forms, deepspeed), and
// its functions: whether a text is one (tried in `detectOrder`; Megatron-LM's argument list takes
// anything), the sequence length it states (0: none), the precision it trains in, the plan as one,
// one as a plan.
struct LaunchFormat {
  std::string name;
  std::string description;  // "Megatron-LM arguments"
  std::string pattern;      // "*.sh"
  TrainingFramework framework;
  int detectOrder;
  bool (*detect)(const std::string& text);
  int64_t (*seqLength)(const std::string& text);
  std::optional<LaunchPrecision> (*precision)(const std::string& text, const std::string& source);
  LaunchFile (*write)(const ParallelPlan& p, const LaunchContext& ctx);
  LaunchImport (*read)(const std::string& text, const std::string& source, const LayerStack& stack, int devices);
};
// Every format, in the order a file dialog lists them.
const std::vector<LaunchFormat>& launchFormatTable();
// The row named `format`; std::invalid_argument naming the formats for another name.
const LaunchFormat& launchFormat(const std::string& format);
// Their names: megatron, nemo, nemo1, torchtitan, torchtitan-py, deepspeed.
const std::vector<std::string>& launchExportFormats();
// std::invalid_argument naming the formats when `format` is not one of them.
void checkLaunchExportFormat(const std::string& format);
// The framework that runs a file of `format` (its table row's).
TrainingFramework launchFormatFramework(const std::string& format);
// The plan as `format`; std::invalid_argument for a format not in launchExportFormats(),
// gp::Error("<framework>", reason) for a plan the framework rejects. A plan costed for another
// framework than the format's is written all the same, its framework named in inexact (the
// file's framework keeps its own buffers: its numbers are those of the plan read back).
LaunchFile exportLaunchConfig(const std::string& format, const ParallelPlan& p, const LaunchContext& ctx);

// Where LaunchFile::companion goes for an export written to `path`: "<dir>/<stem>_schedule.csv",
// the name the torchtitan Python configuration looks for beside itself.
std::string launchCompanionPath(const std::string& path);

// "deepspeed", "torchtitan-py", "nemo", "nemo1", "torchtitan" or "megatron".
std::string launchFormatOf(const std::string& text);
// The sequence length the configuration states, 0 when none (a model is built at it).
int64_t launchConfigSeqLength(const std::string& text);
// The plan for `stack` on `devices` GPUs; gp::Error(source, ...) for what the framework rejects
// or a sequence length other than the stack's.
LaunchImport importLaunchConfig(const std::string& text, const std::string& source, const LayerStack& stack, int devices);

}  // namespace gp
