// The arithmetic a launch configuration trains in, as its framework reads it — so that a user's
// own file is simulated in its own precision (on a V100, fp16 runs on tensor cores and fp32 does
// not), not in the tool's default:
//   Megatron-LM   --bf16 / --fp16, neither: fp32 (the framework's default)
//   NeMo 2.0      recipe.trainer.plugins = bf16_mixed() / fp16_mixed() (bf16_with_fp8_mixed: bf16)
//   NeMo 1.x      trainer.precision: bf16 / bf16-mixed, 16 / 16-mixed, 32
//   DeepSpeed     "bf16": {"enabled": true} / "fp16": {"enabled": true}, neither: fp32
//   torchtitan    [training] mixed_precision_param = "bfloat16" / "float32" (TOML), or
//                 config.training.mixed_precision_param (Python); absent: bfloat16, its default
// FP8 products are a knob of the plan (ParallelPlan::fp8), read by the importers; their master
// weights and the layers around them stay in the precision read here.
#pragma once
#include <optional>
#include <string>

#include "graph/precision.h"

namespace gp {

struct LaunchPrecision {
  Precision precision = Precision::FP32;
  std::string said;  // what the file says, as written ("--bf16", "trainer.precision: 16-mixed", "no --bf16 or --fp16")
};

// The precision `text` trains in; nullopt where the file states none and its framework's default
// is not known from it (a NeMo 2.0 recipe without plugins: the recipe's own). gp::Error(source, ...)
// for a value its framework does not accept ("mixed_precision_param must be bfloat16 or float32").
std::optional<LaunchPrecision> launchConfigPrecision(const std::string& text, const std::string& source);

// The same for a file known to be of one format (launch/launch_formats.h's table calls these).
std::optional<LaunchPrecision> megatronPrecision(const std::string& text, const std::string& source);
std::optional<LaunchPrecision> nemoPrecision(const std::string& text, const std::string& source);
std::optional<LaunchPrecision> nemo1Precision(const std::string& text, const std::string& source);
std::optional<LaunchPrecision> torchtitanPrecision(const std::string& text, const std::string& source);
std::optional<LaunchPrecision> torchtitanPythonPrecision(const std::string& text, const std::string& source);
std::optional<LaunchPrecision> deepspeedPrecision(const std::string& text, const std::string& source);

}  // namespace gp
