// Four GPT layers of sequence 256, hidden 1024, 8 heads (of 128) in bf16 on 4 toy devices (1 MB/s
// links, no latency: 1e6 bytes take 1 s), for closed-form tests of what a layer costs and keeps.
#pragma once
#include <cstdint>
#include <vector>

#include "cost/cost_model.h"
#include "graph/precision.h"
#include "parallel/stage_cost.h"
#include "test_clusters.h"
#include "zoo/zoo.h"

namespace gptest {

struct GptLayerTask {
  gp::Graph g = gp::withPrecision(gp::makeZooModel("gpt_1_3b", {1, 256, 4, 1024, 0}), gp::Precision::BF16);
  gp::LayerStack st = gp::detectLayerStack(g, "zoo:gpt_1_3b");
  gp::Cluster c = toyCluster(80, 4);
  gp::CostModel cost{g, c, exactCosts()};
  gp::StageCostModel model{st, cost};

  // Layer 1 of plan p (one stage over every layer) at micro-batch size mbs, on its first devices.
  gp::PartCost layer(gp::ParallelPlan p, int64_t mbs) const {
    p.stages = gp::evenStages(st.numLayers(), 1);
    const std::vector<int> devices = gp::planDevices(p, c);
    return model.partCost(p, 1, mbs, devices[0], gp::stageGroups(p, devices, 0));
  }
};

}  // namespace gptest
