// The model the launch-configuration tests export: eight GPT layers of sequence 256, hidden 1024,
// 8 heads, in bf16, and a context for it on two 8-GPU servers.
#pragma once
#include <cstdint>

#include "graph/precision.h"
#include "launch/launch_config.h"
#include "zoo/zoo.h"

namespace gptest {

inline const gp::LayerStack& launchStack() {
  struct Stack {
    gp::Graph g = gp::withPrecision(gp::makeZooModel("gpt_1_3b", {1, 256, 8, 1024, 0}), gp::Precision::BF16);
    gp::LayerStack st = gp::detectLayerStack(g, "zoo:gpt_1_3b");
  };
  static const Stack s;
  return s.st;
}

inline gp::LaunchContext launchContext(int64_t globalBatch) {
  gp::LaunchContext ctx;
  ctx.stack = &launchStack();
  ctx.globalBatch = globalBatch;
  ctx.devicesPerServer = 8;
  ctx.model = "zoo:gpt_1_3b";
  ctx.cluster = "2x8xH100-IB";
  return ctx;
}

// dp x tp x pp with v chunks per stage, evenly split, each recomputing as `r`; for torchtitan
// (`flashAttention2`) with FlashAttention-2, what its SDPA runs, and sequence parallelism with tp.
inline gp::ParallelPlan launchPlan(int dp, int tp, int pp, int v, int microbatches, gp::Recompute r, bool torchtitan = false) {
  gp::ParallelPlan p;
  p.dp = dp, p.tp = tp, p.pp = pp, p.virtualStages = v, p.microbatches = microbatches;
  p.stages = gp::evenStages(launchStack().numLayers(), pp * v, r);
  if (torchtitan) p.attention = gp::AttentionImpl::Flash2, p.sequenceParallel = tp > 1;
  return p;
}

}  // namespace gptest
