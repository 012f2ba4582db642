#include "launch/torchtitan_layout.h"

#include <algorithm>
#include <set>

#include "base/error.h"

namespace gp {

TorchtitanLayout torchtitanLayout(const ParallelPlan& p, int64_t globalBatch, bool current) {
  const std::string commit = current ? "b5bcd76" : "9dec370";
  auto reject = [&](const std::string& why, const char* file) {
    throw Error("torchtitan", why + " (torchtitan " + commit + ", " + file + ")");
  };
  auto num = [](int64_t v) { return std::to_string(v); };
  TorchtitanLayout l;
  if (p.expertParallel && !current)
    reject("torchtitan at this commit trains dense Llama models: no expert parallelism", "torchtitan/models");
  if (p.overlapTpComm && p.tp == 1)
    reject("async tensor parallelism needs tensor_parallel_degree > 1", current ? "torchtitan/config/configs.py" : "config_manager.py");
  // HSDP: FSDP over dp_shard x cp, replicated over dp_replicate.
  const int shardDp = p.shardSize() % p.cp == 0 ? std::max(1, p.shardSize() / p.cp) : p.dp;
  if (p.zero > 0 && shardDp < p.dp && p.shardSize() % p.cp != 0)
    l.inexact.push_back("a sharding group of " + num(p.shardSize()) + " that cp " + num(p.cp) +
                        " does not divide: torchtitan shards over dp_shard x cp, written as sharded over all replicas");
  if (p.zero == 3 || (p.zero > 0 && p.pp > 1)) {
    l.shard = shardDp;
    l.replicate = p.dp / shardDp;
    if (p.zero == 2 && p.pp > 1)
      l.inexact.push_back("ZeRO-2 with a pipeline: torchtitan's FSDP keeps parameters and gradients whole between "
                          "micro-batches (ZeRO-1's memory), written as FSDP");
  } else if (p.zero > 0) {
    l.shard = shardDp;
    l.replicate = p.dp / shardDp;
    l.inexact.push_back("ZeRO-" + num(p.zero) + ": torchtitan shards with FSDP (ZeRO-3) or replicates (DDP), written as FSDP "
                        "(less memory, parameters gathered every pass)");
  } else if (p.dp > 1) {
    if (!current && (p.tp > 1 || p.pp > 1 || p.cp > 1))
      reject("DDP has not supported > 1D parallelism: with tp, pp or cp the replicas shard (ZeRO-3)",
             "torchtitan/parallelisms/parallelize_llama.py");
    l.replicate = p.dp;
  }
  if (p.expertParallel && (int64_t{l.shard} * p.cp * p.tp) % p.dp != 0)
    reject("expert_parallel_degree (" + num(p.dp) + ") must divide dp_shard * cp * tp (" + num(int64_t{l.shard} * p.cp * p.tp) +
               ")",
           "torchtitan/distributed/parallel_dims.py");
  if (p.zero == 0 && p.cp > 1)
    l.inexact.push_back("ZeRO-0 with context parallelism: torchtitan applies FSDP over dp x cp (ZeRO-3)");
  if (p.zero == 3 && !p.overlapParamGather)
    l.inexact.push_back("ZeRO-3 without prefetching: FSDP2 prefetches the next layer's parameters (faster than the plan)");
  if (p.tp > 1 && !p.sequenceParallel && !current)
    l.inexact.push_back("tensor parallelism without sequence parallelism: torchtitan's runs the norms sequence-parallel");
  if (p.attention == AttentionImpl::Flash)
    l.inexact.push_back("attention: torchtitan calls scaled_dot_product_attention, which PyTorch up to 2.6 runs as "
                        "FlashAttention-2 on Hopper (the plan assumes the GPU's fastest kernel)");
  if (p.attention == AttentionImpl::Unfused)
    l.inexact.push_back("unfused attention: torchtitan always calls scaled_dot_product_attention (fused)");
  if (p.pp == 1 && p.microbatches > 1 && !current)
    l.inexact.push_back("gradient accumulation over " + num(p.microbatches) +
                        " micro-batches: torchtitan at this commit has none, written as one batch of " +
                        num(p.microbatchSize(globalBatch) * p.microbatches) + " per replica (more activation memory)");
  if (p.training.optimizerOffload) {
    l.cpuOffload = l.shard > 1;
    l.inexact.push_back(l.cpuOffload ? "the optimizer on the CPU: FSDP2's CPU offload moves the parameter and gradient shards "
                                       "there too (a little less GPU memory than the plan)"
                                     : "the optimizer on the CPU: torchtitan offloads under FSDP only, not written");
  }
  if (p.training.gradAccumulation == GradAccumulation::Param) l.reduce = "bfloat16";
  if (p.training.gradAccumulation == GradAccumulation::Fp32)
    l.inexact.push_back("fp32 gradient accumulation: FSDP2 keeps the unsharded gradients in bfloat16 and reduces them in "
                        "float32 (mixed_precision_reduce), written as that");
  if (p.training.optimizerStates != OptimizerStates::Fp32)
    l.inexact.push_back("16- or 8-bit Adam moments: torchtitan's AdamW keeps them in fp32, written as that");
  std::set<Recompute> kinds;
  for (const PipeStage& s : p.stages) kinds.insert(s.recompute);
  if (kinds.size() > 1)
    l.inexact.push_back("recomputation that differs between chunks: torchtitan checkpoints every block alike, written as full");
  l.recompute = kinds.size() > 1 ? Recompute::Full : kinds.empty() ? Recompute::None : *kinds.begin();
  if (l.recompute == Recompute::Selective)
    l.inexact.push_back("selective recomputation: torchtitan's op policy keeps the products' and attention's outputs and "
                        "recomputes the rest, where the plan recomputes the attention cores only");
  return l;
}

GradAccumulation torchtitanReduce(const std::string& value, const std::string& source, const std::string& key) {
  if (value == "float32") return GradAccumulation::Framework;
  if (value == "bfloat16") return GradAccumulation::Param;
  throw Error(source, key + " must be float32 or bfloat16, got '" + value + "'");
}

}  // namespace gp
