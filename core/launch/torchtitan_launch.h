// torchtitan's TOML train configuration for a parallel plan, and a plan from one. Keys and the
// rules the framework asserts are torchtitan's at commit 9dec370ad26b5f8e9a7333a0e36165018262644b
// (its Dec 2024 H100 benchmarks ran it): torchtitan/config_manager.py, train_configs/*.toml,
// torchtitan/parallelisms/parallel_dims.py and parallelize_llama.py.
//
//   plan          torchtitan
//   dp            [training] data_parallel_shard_degree (ZeRO-3, and ZeRO-1 / 2 with a pipeline,
//                 where FSDP keeps the parameters gathered between micro-batches) or
//                 data_parallel_replicate_degree (ZeRO-0: DDP, 1-D only)
//   tp, pp, cp    [training] tensor_parallel_degree, [experimental] pipeline_parallel_degree,
//                 context_parallel_degree
//   micro-batches [training] batch_size (per replica: micro-batch x micro-batches),
//                 [experimental] pipeline_parallel_microbatches
//   chunks        [experimental] pipeline_parallel_split_points ("layers.K" at each chunk's start),
//                 pipeline_parallel_schedule 1F1B / Interleaved1F1B / GPipe
//   recompute     [activation_checkpoint] mode none / selective (op policy) / full
//   FP8           [float8] enable_float8_linear
//   TP overlap    [experimental] enable_async_tensor_parallel with [training] compile (async TP:
//                 it hides a share of the TP collectives, tpOverlapShare in training_setup.h)
#pragma once
#include <string>

#include "launch/launch_config.h"

namespace gp {

// Throws gp::Error("torchtitan", reason) for plans torchtitan rejects.
LaunchFile exportTorchtitan(const ParallelPlan& p, const LaunchContext& ctx);
// Whether `text` has a TOML table header ("[training]") on a line of its own without "--".
bool isTorchtitanToml(const std::string& text);
// [training] seq_len = N, 0 when absent.
int64_t torchtitanSeqLength(const std::string& text);

// A plan from a torchtitan TOML configuration for `stack` on `devices` GPUs; throws
// gp::Error(source, ...) for TOML errors (with the line), settings torchtitan rejects, or a model
// shape other than the stack's.
LaunchImport importTorchtitan(const std::string& text, const std::string& source, const LayerStack& stack, int devices);

}  // namespace gp
