// A DeepSpeed configuration (ds_config.json) for a parallel plan, and a plan from one. Keys and
// the rules the framework asserts are DeepSpeed v0.19.5's (cf44300453eb0af79ed84ed8f1cb49d57478bd76):
// deepspeed/runtime/constants.py, config.py (_batch_assertion), pipe/engine.py,
// tensor_parallel/config.py, activation_checkpointing/config.py.
//
//   plan            DeepSpeed
//   micro-batches   train_batch_size = train_micro_batch_size_per_gpu x gradient_accumulation_steps x dp
//   ZeRO 0-3        zero_optimization.stage; overlapped gathers: zero_optimization.overlap_comm
//   tp              tensor_parallel.autotp_size (AutoTP), its overlap tensor_parallel.tp_overlap_comm
//   full recompute  activation_checkpointing (the model checkpoints its layers)
//   checkpoints offloaded  activation_checkpointing.cpu_checkpointing with partition_activations
//   precision       bf16.enabled / fp16.enabled
//   pp              the PipelineModule the model is wrapped in: num_stages and its layer partition,
//                   written under "graphplace" (DeepSpeed reads no pipeline from its configuration)
#pragma once
#include <string>

#include "launch/launch_config.h"

namespace gp {

// Throws gp::Error("deepspeed", reason) for plans DeepSpeed rejects.
LaunchFile exportDeepSpeed(const ParallelPlan& p, const LaunchContext& ctx);
// Whether `text` is a JSON object (its first non-blank character a '{').
bool isDeepSpeedJson(const std::string& text);

// A plan from a DeepSpeed JSON configuration for `stack` on `devices` GPUs (the pipeline from a
// "graphplace" section where there is one, else none); throws gp::Error(source, ...).
LaunchImport importDeepSpeed(const std::string& text, const std::string& source, const LayerStack& stack, int devices);

}  // namespace gp
