// The distributed optimizer's overlapped parameter gather: the all-gather of ZeRO-1's updated
// weights hides behind the next step's first forward pass through the chunk, so the step shrinks
// by the smaller of the two.
#include <gtest/gtest.h>

#include <algorithm>

#include "parallel/pipeline_sim.h"
#include "uniform_stack.h"

using namespace gp;

TEST(ParamGatherOverlap, TheNextForwardHidesTheGather) {
  gp::LayerStack st = gptest::uniformStack(4);
  for (StackPart& p : st.layers) p.params = 10'000;  // 40 kB of f32 weights per layer to gather
  gptest::ToyModel t(2);
  const StageCostModel model(st, t.cost);
  ParallelPlan p;
  p.dp = 2, p.zero = 1, p.microbatches = 1;
  p.stages = evenStages(4, 1);
  const ParallelMeasurement exposed = simulateParallel(model, 2, p, {true, false});
  p.overlapParamGather = true;
  const ParallelMeasurement overlapped = simulateParallel(model, 2, p, {true, false});
  ASSERT_TRUE(exposed.feasible && overlapped.feasible);
  double gather = 0;
  for (const PipelineEvent& e : exposed.events)
    if (e.kind == PipelineEvent::Kind::ParamGather) gather += e.end - e.start;
  ASSERT_GT(gather, 0);
  const double forward = exposed.stages[0].forward;
  EXPECT_NEAR(exposed.stepTime - overlapped.stepTime, std::min(gather, forward), 1e-9 * exposed.stepTime);
}

// ZeRO-3 with the gather overlapped (FSDP's prefetch): each layer's weights are gathered while
// the layer before computes, so a pass waits only for what outlasts the layer's compute.
TEST(ParamGatherOverlap, ZeRO3PrefetchHidesTheGatherBehindTheLayersCompute) {
  gp::LayerStack st = gptest::uniformStack(4);
  // 1 ms forward and 2 ms backward per sample per layer; the gather of 3,000 f32 weights over
  // dp 2 moves 6 kB per rank at 1 MB/s: 6 ms, longer than either.
  for (StackPart& p : st.layers) p.params = 3'000;
  gptest::ToyModel t(2);
  const StageCostModel model(st, t.cost);
  ParallelPlan p;
  p.dp = 2, p.zero = 3, p.microbatches = 1;
  p.stages = evenStages(4, 1);
  const std::vector<int> devices = planDevices(p, t.c);
  const StageGroups groups = stageGroups(p, devices, 0);
  const PartCost exposed = model.partCost(p, 1, 1, devices[0], groups);
  ASSERT_NEAR(exposed.gather, 6e-3, 1e-9);
  EXPECT_EQ(exposed.gatherBackward, exposed.gather);
  p.overlapParamGather = true;
  const PartCost hidden = model.partCost(p, 1, 1, devices[0], groups);
  EXPECT_NEAR(hidden.gather, 6e-3 - exposed.forward, 1e-9);
  EXPECT_NEAR(hidden.gatherBackward, 6e-3 - exposed.backward, 1e-9);
  EXPECT_NEAR(exposed.passTime(Recompute::None) - hidden.passTime(Recompute::None), exposed.forward + exposed.backward, 1e-9);
  // The step's ZeRO-3 gathers shrink by as much, layer by layer (the prologue and epilogue hold
  // no weights here).
  const StageCost a = model.stageCost(p, 0, 1, devices);
  p.overlapParamGather = false;
  const StageCost b = model.stageCost(p, 0, 1, devices);
  EXPECT_NEAR(b.zeroGather - a.zeroGather, 4 * (exposed.forward + exposed.backward), 1e-9);
}
