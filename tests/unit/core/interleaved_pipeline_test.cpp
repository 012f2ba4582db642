// Interleaved 1F1B (virtual stages) against Megatron-LM's order and Narayanan et al. 2021's
// closed forms: the bubble is (p-1)/(v m) of the busy time, and the first stage keeps
// p (1 + (p-1)/(p v)) stages' worth of activations (p with plain 1F1B).
#include <gtest/gtest.h>

#include <string>

#include "parallel/parallel_search.h"
#include "parallel/plan_knobs.h"
#include "uniform_stack.h"

using namespace gp;
using gptest::ToyModel;
using gptest::uniformStack;

namespace {

std::string orderText(const ParallelPlan& p, int stage) {
  std::string s;
  for (const PipelinePass& pass : pipelinePassOrder(p, stage))
    s += std::string(s.empty() ? "" : " ") + (pass.forward ? "F" : "B") + std::to_string(pass.chunk) + "." +
         std::to_string(pass.microbatch);
  return s;
}

ParallelPlan interleaved(int layers, int pp, int v, int m) {
  ParallelPlan p;
  p.pp = pp, p.virtualStages = v, p.microbatches = m;
  p.stages = evenStages(layers, pp * v);
  return p;
}

}  // namespace

TEST(InterleavedPipeline, PassOrderIsMegatrons) {
  // pp 2, v 2, 4 micro-batches: stage 0 holds chunks 0 and 2, stage 1 chunks 1 and 3. Stage 0
  // fills with 2 (p - 1) + (v - 1) p = 4 forwards, in groups of p micro-batches per chunk.
  const ParallelPlan p = interleaved(8, 2, 2, 4);
  EXPECT_EQ(orderText(p, 0),
            "F0.0 F0.1 F2.0 F2.1 F0.2 B2.0 F0.3 B2.1 F2.2 B0.0 F2.3 B0.1 B2.2 B2.3 B0.2 B0.3");
  EXPECT_EQ(orderText(p, 1),
            "F1.0 F1.1 F3.0 B3.0 F3.1 B3.1 F1.2 B1.0 F1.3 B1.1 F3.2 B3.2 F3.3 B3.3 B1.2 B1.3");
  // v = 1 is plain 1F1B.
  const ParallelPlan plain = interleaved(8, 2, 1, 3);
  EXPECT_EQ(orderText(plain, 0), "F0.0 F0.1 B0.0 F0.2 B0.1 B0.2");
  EXPECT_EQ(orderText(plain, 1), "F1.0 B1.0 F1.1 B1.1 F1.2 B1.2");
}

TEST(InterleavedPipeline, BubbleIsPMinusOneOverVTimesMOfTheBusyTime) {
  const LayerStack st = uniformStack(16);
  for (int pp : {2, 4})
    for (int v : {1, 2, 4})
      for (int m : {4, 8, 16}) {
        if (m % pp != 0) continue;
        ToyModel t(pp);
        const StageCostModel model(st, t.cost);
        const ParallelPlan plan = interleaved(st.numLayers(), pp, v, m);
        const ParallelMeasurement r = simulateParallel(model, m, plan, {true, false});
        ASSERT_TRUE(r.feasible) << r.problem;
        // Busy time per stage: m x (forward + backward) of its L / p layers; the bubble adds
        // (p - 1) / v of one stage's pass.
        const double pass = 3 * (16 / pp) * model.partForward(0, 1, 1, 0);
        EXPECT_NEAR(r.stepTime, (m + (pp - 1.0) / v) * pass, 1e-9 * r.stepTime) << "pp " << pp << " v " << v << " m " << m;
        EXPECT_NEAR(r.bubbleShare, (pp - 1.0) / (v * m + pp - 1), 1e-9) << "pp " << pp << " v " << v << " m " << m;
        EXPECT_NEAR(r.breakdown.bubble / (m * pass), (pp - 1.0) / (v * m), 1e-9);
        int passes = 0;
        for (const PipelineEvent& e : r.events)
          passes += e.kind == PipelineEvent::Kind::Forward || e.kind == PipelineEvent::Kind::Backward;
        EXPECT_EQ(passes, 2 * m * pp * v);
      }
}

TEST(InterleavedPipeline, FirstStageKeepsOnePlusPMinusOneOverPVStagesMore) {
  // Each layer keeps 1 MB per micro-batch: a stage of L / p layers keeps K = L / p MB per
  // micro-batch in flight. 1F1B's first stage holds p micro-batches: p K. Interleaved, it holds
  // 2 (p - 1) + (v - 1) p + 1 chunks of K / v each: p K (1 + (p - 1) / (p v)).
  LayerStack st = uniformStack(16);
  for (StackPart& part : st.layers) part.ops[0].savedBytes = 1e6;
  const int pp = 4, m = 16;
  ToyModel t(pp);
  const StageCostModel model(st, t.cost);
  const double K = 16.0 / pp * 1e6;
  for (int v : {1, 2, 4}) {
    const ParallelMeasurement r = simulateParallel(model, m, interleaved(16, pp, v, m));
    ASSERT_TRUE(r.feasible) << r.problem;
    ASSERT_EQ(r.memory.size(), 4u);
    const double first = v == 1 ? pp * K : pp * K * (1 + (pp - 1.0) / (pp * v));
    EXPECT_NEAR(static_cast<double>(r.memory[0].activations), first, 1) << "v " << v;
    // The last stage fills with 2 (p - 1 - (p - 1)) + (v - 1) p = (v - 1) p chunks, + 1.
    EXPECT_NEAR(static_cast<double>(r.memory[3].activations), ((v - 1) * pp + 1) * K / v, 1) << "v " << v;
  }
}

TEST(InterleavedPipeline, PlanRulesAreMegatronsAndTheFileKeepsTheChunks) {
  const LayerStack st = uniformStack(16);
  ToyModel t(4);
  ParallelPlan p = interleaved(16, 4, 2, 8);
  EXPECT_EQ(parallelPlanProblem(st, t.c, 8, p), "");
  ParallelPlan bad = p;
  bad.microbatches = 6;
  EXPECT_EQ(parallelPlanProblem(st, t.c, 6, bad),
            "the number of micro-batches (6) is not divisible by pp (4) when using the interleaved schedule");
  bad = p, bad.schedule = PipeSchedule::GPipe;
  EXPECT_EQ(parallelPlanProblem(st, t.c, 8, bad), "virtual stages run the interleaved 1F1B schedule: the schedule must be 1f1b");
  bad = p, bad.stages = evenStages(16, 4);
  EXPECT_EQ(parallelPlanProblem(st, t.c, 8, bad), "the plan has 4 stages for pp x virtual stages = 8");
  bad = interleaved(16, 4, 8, 8);
  EXPECT_EQ(parallelPlanProblem(st, t.c, 8, bad), "pp x virtual stages = 32 exceeds the 16 layers (each chunk needs at least one)");
  ToyModel one(1);
  bad = interleaved(16, 1, 2, 8);
  EXPECT_EQ(parallelPlanProblem(st, one.c, 8, bad), "virtual stages interleave a pipeline: they need pp > 1");
  // The plan file: "virtual_stages" and one [first, last] per chunk; files without it have v = 1.
  const std::string text = parallelPlanJson({"uniform", t.c.name(), 8, p}, t.c);
  EXPECT_NE(text.find("\"virtual_stages\": 2"), std::string::npos);
  const ParallelPlanFile f = parseParallelPlanJson(text, "plan.json", t.c);
  EXPECT_TRUE(sameKnobs(f.plan, p));
  EXPECT_EQ(f.plan.stages.size(), 8u);
  std::string old = text;
  old.erase(old.find("\"virtual_stages\": 2,"), 20);
  EXPECT_EQ(parseParallelPlanJson(old, "old.json", t.c).plan.virtualStages, 1);
}

TEST(InterleavedPipeline, TheExactSearchWeighsEveryInterleaving) {
  // 4 stages, 4 micro-batches: 1F1B's bubble is 3 / 7 of the step, v = 4 cuts it to 3 / 19.
  const LayerStack st = uniformStack(16);
  ToyModel t(4);
  const StageCostModel model(st, t.cost);
  int interleavedShapes = 0;
  for (const PlanShape& s : planShapes(st, t.c, 4, false))
    if (s.virtualStages > 1) {
      ++interleavedShapes;
      EXPECT_EQ(s.schedule, PipeSchedule::OneFOneB);
      EXPECT_EQ(s.microbatches % s.pp, 0);
      EXPECT_EQ(16 % (s.pp * s.virtualStages), 0);
    }
  // pp 2 x dp 2: v 2, 4, 8 with 2 micro-batches, ZeRO 0-3; pp 2 x tp 2: v 2, 4, 8 with 2 or 4;
  // pp 4: v 2, 4 with 4.
  EXPECT_EQ(interleavedShapes, 3 * 4 + 3 * 2 + 2);
  const ParallelResult r = exactSearch(model, 4, {});
  ASSERT_TRUE(r.found);
  const ParallelMeasurement v1 = simulateParallel(model, 4, interleaved(16, 4, 1, 4));
  const ParallelMeasurement v4 = simulateParallel(model, 4, interleaved(16, 4, 4, 4));
  ASSERT_TRUE(v1.feasible && v4.feasible);
  EXPECT_NEAR(v4.stepTime / v1.stepTime, (4 + 3.0 / 4) / (4 + 3), 1e-9);
  EXPECT_LE(r.measurement.stepTime, v4.stepTime * (1 + 1e-12));
}
