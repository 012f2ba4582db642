// Megatron-LM / Megatron-Core launch arguments for a parallel plan, and a plan from them. Flag
// names and the rules the framework asserts are Megatron-LM core_r0.11.0's
// (megatron/training/arguments.py, validate_args, at commit 59055868f09f856e054882ac23b96280207d752a).
//
//   plan          Megatron-LM
//   tp, pp, cp    --tensor- / --pipeline-model-parallel-size, --context-parallel-size
//   dp            what is left of the launcher's processes
//   micro-batches --micro-batch-size (global batch / (dp x micro-batches)), --global-batch-size
//   v > 1         --num-layers-per-virtual-pipeline-stage (even chunks; --overlap-p2p-comm at pp 2)
//   uneven stages --decoder-first- / --decoder-last-pipeline-num-layers (the middle ones even)
//   recompute     full: --recompute-granularity full --recompute-method uniform --recompute-num-layers 1;
//                 selective: --recompute-granularity selective (the same on every stage)
//   ZeRO 1 / 2    --use-distributed-optimizer (ZeRO-2's gradient sharding is not expressible)
//   ZeRO 3        --use-torch-fsdp2 (not with pipelines or expert parallelism)
//   overlaps      --overlap-grad-reduce --overlap-param-gather, --tp-comm-overlap
//   SP, FP8       --sequence-parallel, --fp8-format hybrid
//   attention     flash: --attention-backend auto, flash2: flash, unfused: unfused
//   experts       --expert-model-parallel-size dp
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "launch/launch_config.h"

namespace gp {

// The plan as Megatron-LM flags, checked against Megatron-LM's rules, with what they cannot
// express; NeMo's configurations (nemo_launch.h) render the same settings under their names.
// Throws gp::Error(target, reason) for plans Megatron-LM rejects.
struct MegatronArgs {
  std::vector<std::pair<std::string, std::string>> list;  // flag, value ("" for a switch), in order
  std::vector<std::string> inexact;
};
MegatronArgs megatronArgs(const ParallelPlan& p, const LaunchContext& ctx, const char* target);

// Throws gp::Error("megatron", reason) for plans Megatron-LM rejects.
LaunchFile exportMegatron(const ParallelPlan& p, const LaunchContext& ctx);
// --seq-length N (or --seq-length=N) of an argument list, 0 when absent.
int64_t megatronSeqLength(const std::string& text);

// A plan from a Megatron-LM argument list (an exported file, or a command line with or without
// its launcher and script in front) for `stack` on `devices` GPUs. Throws gp::Error(source, ...)
// for arguments Megatron-LM rejects, a model shape other than the stack's, or a launcher whose
// process count is not `devices`.
LaunchImport importMegatron(const std::string& text, const std::string& source, const LayerStack& stack, int devices);

}  // namespace gp
