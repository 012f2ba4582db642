#include "parallel/training_setup.h"

#include "base/error.h"
#include "parallel/parallel_plan.h"

namespace gp {

std::string_view trainingFrameworkName(TrainingFramework f) {
  switch (f) {
    case TrainingFramework::Generic: return "generic";
    case TrainingFramework::Megatron: return "megatron";
    case TrainingFramework::DeepSpeed: return "deepspeed";
    case TrainingFramework::Torchtitan: return "torchtitan";
  }
  return "generic";
}

TrainingFramework parseTrainingFramework(std::string_view name, const std::string& source) {
  for (TrainingFramework f : {TrainingFramework::Generic, TrainingFramework::Megatron, TrainingFramework::DeepSpeed,
                              TrainingFramework::Torchtitan})
    if (name == trainingFrameworkName(f)) return f;
  throw Error(source, "unknown training framework '" + std::string(name) + "' (generic, megatron, deepspeed, torchtitan)");
}

TrainingBytes trainingBytesFor(DType activationType, const TrainingSetup& s, int zero) {
  const double moments = s.optimizerStates == OptimizerStates::Fp32 ? 8 : s.optimizerStates == OptimizerStates::Bf16 ? 4 : 2;
  TrainingBytes b;
  double reduce = 0;  // when not the gradient buffer: the precision the framework reduces in
  if (dtypeSize(activationType) != 2) {
    b = {4, 4, moments};  // fp32: the weights are the master weights
  } else {
    b = {2, 2, 4 + moments};
    const bool fp16 = activationType == DType::F16;
    constexpr double kFp32Copy = 4;  // an fp32 copy of the gradient, sharded with the optimizer
    switch (s.framework) {
      case TrainingFramework::Generic:
        if (s.gradAccumulation == GradAccumulation::Fp32) b.grad = 4;
        break;
      case TrainingFramework::Torchtitan:  // FSDP2's reduce_dtype: mixed_precision_reduce, float32 by default
        if (s.gradAccumulation == GradAccumulation::Fp32) b.grad = 4;
        if (s.gradAccumulation != GradAccumulation::Param) reduce = 4;
        break;
      case TrainingFramework::Megatron:
        if (s.gradAccumulation == GradAccumulation::Fp32 || (!fp16 && s.gradAccumulation == GradAccumulation::Framework))
          b.grad = 4;  // the main-gradient buffer
        else
          b.stepCopy = kFp32Copy;
        break;
      case TrainingFramework::DeepSpeed:
        if (!fp16 && s.gradAccumulation != GradAccumulation::Param &&
            (zero == 0 || (zero == 1 && s.gradAccumulation == GradAccumulation::Fp32))) {
          b.grad = 2 + 4;  // BF16_Optimizer: the bf16 gradients and the whole fp32 accumulation buffer
          reduce = 4;      // which it reduces
        } else {
          b.stepCopy = kFp32Copy;
        }
        break;
    }
  }
  b.reduce = reduce > 0 ? reduce : b.grad;
  if (s.optimizerOffload) b.host = b.optimizer + b.stepCopy, b.optimizer = 0, b.stepCopy = 0;  // CPU Adam's fp32 gradients
  return b;
}

LossBytes lossBytesFor(TrainingFramework f) {
  if (f == TrainingFramework::Megatron || f == TrainingFramework::DeepSpeed) return {4, 2};
  return {4, 8};
}

double tpOverlapShare(TrainingFramework f) { return f == TrainingFramework::Torchtitan ? kTorchtitanAsyncTpShare : 1.0; }

std::string trainingSetupProblem(const ParallelPlan& p) {
  const TrainingSetup& s = p.training;
  switch (s.framework) {
    case TrainingFramework::Generic: break;
    case TrainingFramework::Megatron:
      if (p.zero == 2) return "Megatron-LM has no ZeRO-2: its distributed optimizer (ZeRO-1) keeps the whole gradient buffer";
      if (p.zero == 3 && p.pp > 1) return "--use-torch-fsdp2 is not supported with pipeline parallelism (Megatron-LM)";
      if (p.zero == 3 && p.expertParallel) return "--use-torch-fsdp2 is not supported with expert parallelism (Megatron-LM)";
      if (s.optimizerOffload && p.zero != 1) return "--optimizer-cpu-offload needs --use-distributed-optimizer (Megatron-LM's ZeRO-1)";
      if (s.activationOffload)
        return "Megatron-LM offloads no recomputation checkpoints (--cpu-offloading moves whole layers' activations, "
               "without recomputation)";
      if (s.optimizerStates != OptimizerStates::Fp32 && p.zero != 1)
        return "--use-precision-aware-optimizer (16- or 8-bit moments) needs --use-distributed-optimizer (Megatron-LM's ZeRO-1)";
      break;
    case TrainingFramework::DeepSpeed:
      if (p.overlapTpComm) return "DeepSpeed has no tensor-parallel communication overlap";
      if (p.pp > 1 && p.zero >= 2) return "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism (DeepSpeed)";
      if (s.optimizerStates != OptimizerStates::Fp32) return "DeepSpeed's Adam keeps its moments in fp32";
      if (s.optimizerOffload && p.zero == 0) return "zero_optimization.offload_optimizer needs ZeRO stage 1, 2 or 3 (DeepSpeed)";
      break;
    case TrainingFramework::Torchtitan:
      if (p.zero == 2) return "torchtitan shards with FSDP2: ZeRO-3, or ZeRO-1 under pipeline parallelism, not ZeRO-2";
      if (p.zero == 1 && p.pp == 1) return "torchtitan shards with FSDP2, which reshards after forward without pipelines: ZeRO-3, not ZeRO-1";
      if (s.optimizerOffload && p.zero != 3) return "torchtitan offloads (training.enable_cpu_offload) only under FSDP2 (ZeRO-3)";
      if (s.activationOffload) return "torchtitan offloads no recomputation checkpoints";
      if (s.optimizerStates != OptimizerStates::Fp32) return "torchtitan's AdamW keeps its moments in fp32";
      break;
  }
  return "";
}

}  // namespace gp
