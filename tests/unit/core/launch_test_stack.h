// The model the launch-configuration tests export: eight GPT layers of sequence 256, hidden 1024,
// 8 heads, in bf16, and a context for it on two 8-GPU servers.
#pragma once
#include <cstdint>

#include "graph/precision.h"
#include "parallel/launch_config.h"
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

}  // namespace gptest
