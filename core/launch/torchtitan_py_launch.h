// torchtitan's current Python configuration for a parallel plan, its pipeline schedule as the
// CSV torchtitan runs, and a plan from such a configuration. Names and rules are torchtitan's at
// commit b5bcd76c66d0acb1a08b176d9639425bc55e0b2a: torchtitan/config/configs.py (TrainingConfig,
// ParallelismConfig, CompileConfig), torchtitan/trainer.py (Trainer.Config's
// activation_checkpoint), torchtitan/distributed/activation_checkpoint.py (FullAC, SelectiveAC),
// torchtitan/distributed/parallel_dims.py (the degrees' checks) and pipeline_parallel.py
// (module_fqns_per_model_part, pipeline_parallel_schedule_csv loaded by PyTorch's
// _PipelineScheduleRuntime._load_csv in its compute-only form).
//
// The export is a function `graphplace_plan(config)` that sets the plan on a recipe's
// Trainer.Config (config_registry style) with one `config.<section>.<key> = value` line per
// setting; the import reads those lines back. With a pipeline the export has a companion: one
// CSV row per pipeline rank, its passes in the plan's order ("<stage>F<micro-batch>",
// "<stage>B<micro-batch>"; stage k lives on rank k mod pp, torchtitan's loop style).
#pragma once
#include <string>

#include "launch/launch_config.h"

namespace gp {

// Throws gp::Error("torchtitan", reason) for plans torchtitan rejects. LaunchFile::companion holds
// the schedule CSV when the plan pipelines (written beside the .py as <name>_schedule.csv).
LaunchFile exportTorchtitanPython(const ParallelPlan& p, const LaunchContext& ctx);

// The schedule CSV alone: row r is pipeline rank r's passes.
std::string torchtitanScheduleCsv(const ParallelPlan& p);

// Whether `text` looks like a torchtitan Python configuration (assignments to config.parallelism).
bool isTorchtitanPython(const std::string& text);

// config.training.max_context_length, 0 when absent or not a positive integer literal.
int64_t torchtitanPythonSeqLength(const std::string& text);

// A plan from the `config.<section>.<key> = value` lines of a torchtitan Python configuration;
// gp::Error(source, ...) for values torchtitan rejects or that are not literals.
LaunchImport importTorchtitanPython(const std::string& text, const std::string& source, const LayerStack& stack,
                                    int devices);

}  // namespace gp
