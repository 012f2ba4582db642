// The software a parallel plan trains with and the optimizer choices its user makes: which
// framework runs it (what it keeps in memory per parameter, how it computes the loss, which
// plans it can run at all), whether the optimizer lives on the CPU, in what precision Adam's
// moments are kept and in what precision gradients accumulate.
//
// Bytes per parameter on the device, for 16-bit mixed precision (weights w, gradients g,
// optimizer o: fp32 master weights and Adam's moments, plus any fp32 copy of the gradients the
// optimizer makes; ZeRO shards them as stage_cost.h says):
//   generic, torchtitan  w 2, g 2, o 4 + s                 (Rajbhandari et al. 2020's 16 with s = 8;
//                                                           FSDP2's fp32 shards hold the same 16 / d)
//   megatron, bf16       w 2, g 4, o 4 + s                 (the fp32 main-gradient buffer:
//                                                           Megatron-LM's docs/source/api-guide/
//                                                           dist_optimizer.md, 18 and 6 + 12 / d)
//   megatron, fp16       w 2, g 2, o 8 + s                 (the fp32 copy of the gradient: 20 and 4 + 16 / d)
//   deepspeed, fp16      w 2, g 2, o 8 + s                 (FP16_Optimizer's fp32 gradients, ZeRO's fp32
//                                                           gradient partitions)
//   deepspeed, bf16      ZeRO 0, or 1 with fp32 accumulation: w 2, g 6, o 4 + s (BF16_Optimizer's
//                        whole fp32 gradient buffer beside the bf16 gradients); else as fp16
// with s the moments: 8 (fp32), 4 (bf16), 2 (8-bit). grad_accumulation "fp32" makes g 4 and
// drops the optimizer's copy; "16bit" makes g 2, the copy then made for megatron and deepspeed.
// The optimizer's fp32 copy of the gradient (Megatron-LM's _copy_model_grads_to_main_grads,
// DeepSpeed's single_partition_of_fp32_groups grads) is made when the step begins and dropped
// after it, when the activations are gone: it counts against them (stepCopy), not beside them.
// The data-parallel reduction moves the gradient buffer: 4 bytes per parameter where it is
// fp32 (Megatron-LM's main gradients, --grad-reduce-in-bf16 or NeMo's grad_reduce_in_fp32 =
// False making it 2; DeepSpeed's BF16_Optimizer; fp32 accumulation; fp32 training), else 2;
// torchtitan's FSDP2 reduces in float32 (mixed_precision_reduce) unless "16bit" says bfloat16.
// fp32 training: w 4, g 4, o s. An offloaded optimizer keeps o in host memory instead (sharded
// as on the device), and each step sends the gradients of its shard down and the updated 16-bit
// weights back over the host link (optimizer_offload.h).
//
// The loss: Megatron-LM's vocabulary-parallel cross-entropy (Megatron-LM and DeepSpeed's
// Megatron models) turns the logits into fp32 once and writes the softmax and then its
// gradient in place: 4 bytes per logit kept, 2 more in backward (the gradient cast back to
// 16 bits). PyTorch's cross_entropy on fp32 logits (torchtitan, the generic accounting) keeps
// its fp32 log-probabilities and makes two fp32 gradients in backward: 4 kept, 8 more.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "graph/dtype.h"

namespace gp {

enum class TrainingFramework : uint8_t { Generic, Megatron, DeepSpeed, Torchtitan };
std::string_view trainingFrameworkName(TrainingFramework f);  // "generic", "megatron", "deepspeed", "torchtitan"
// The framework by that name; throws gp::Error(source, ...) listing the names.
TrainingFramework parseTrainingFramework(std::string_view name, const std::string& source);

enum class OptimizerStates : uint8_t { Fp32, Bf16, Eight };  // Adam's moments: "fp32", "bf16", "8bit"
enum class GradAccumulation : uint8_t { Framework, Fp32, Param };  // "framework" (its default), "fp32", "16bit"

struct TrainingSetup {
  TrainingFramework framework = TrainingFramework::Generic;
  bool optimizerOffload = false;
  OptimizerStates optimizerStates = OptimizerStates::Fp32;
  GradAccumulation gradAccumulation = GradAccumulation::Framework;
  // Full recomputation's checkpoints (each part's input, per micro-batch in flight) kept in host
  // memory: written over the host link as forward makes them, read back as backward needs them,
  // both beside the pass's compute (DeepSpeed's activation_checkpointing.cpu_checkpointing).
  bool activationOffload = false;
  bool operator==(const TrainingSetup&) const = default;
};

struct TrainingBytes {
  double weight = 4, grad = 4, optimizer = 8;  // per parameter on the device
  double host = 0;                             // per parameter in host memory (an offloaded optimizer)
  double reduce = 4;  // per parameter the data-parallel gradient reduction moves: the buffer it reduces
  double stepCopy = 0;  // per parameter on the device only while the optimizer steps (its fp32 gradient copy)
};
// The table above for a model whose activations are `activationType` under ZeRO stage `zero`.
TrainingBytes trainingBytesFor(DType activationType, const TrainingSetup& s = {}, int zero = 0);

struct LossBytes {
  double kept = 4, working = 8;  // per logit: kept for backward, and more while backward runs
};
LossBytes lossBytesFor(TrainingFramework f);

// The share of the tensor-parallel collectives that TP communication overlap hides behind the
// products beside them (up to the products' time). Megatron-LM's --tp-comm-overlap
// (Transformer Engine's userbuffers: the collectives on their own SMs, ring-exchanged chunk by
// chunk) and the generic accounting hide all of it. torchtitan's async TP (symmetric-memory
// all-gathers and reduce-scatters fused with the products under torch.compile) hides
// kTorchtitanAsyncTpShare of it: the products are decomposed per rank, and the copies contend
// with them. Fitted on torchtitan's Dec 2024 Llama 3.1 70B pair on 256 H100s (829 -> 876
// tokens/s/GPU with async TP: 5.7 %), checked on its 2025 70B pairs and 405B row
// (docs/simulator-fidelity.md).
inline constexpr double kTorchtitanAsyncTpShare = 0.25;
double tpOverlapShare(TrainingFramework f);

// "" when the framework can run a plan of these degrees and knobs; else the framework's own
// reason: Megatron-LM has no ZeRO-2, no FSDP2 with pipeline or expert parallelism, offloads and
// keeps 16- or 8-bit moments only in its distributed optimizer (ZeRO-1), and no offload of
// recomputation's checkpoints; DeepSpeed has no TP communication overlap, no ZeRO-2 / 3 with
// pipelines, fp32 moments only and offloads only under ZeRO; torchtitan shards with FSDP2
// (ZeRO-3, or ZeRO-1 under pipelines), offloads only with it, keeps fp32 moments and offloads no
// checkpoints.
struct ParallelPlan;
std::string trainingSetupProblem(const ParallelPlan& p);

}  // namespace gp
