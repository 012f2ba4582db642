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
