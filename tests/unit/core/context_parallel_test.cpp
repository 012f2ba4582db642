// Context parallelism (ring attention) against closed forms: every op runs 1 / cp of the tokens,
// the keys and values of the whole sequence pass each rank of the ring ((cp - 1) / cp of them
// over its link forward, twice that backward), exposed only where they outlast the attention
// kernels; gradients are synchronised over dp x cp; the plan rules' one-line reasons.
#include <gtest/gtest.h>

#include "gpt_layer_task.h"
#include "graph/precision.h"
#include "parallel/parallel_search.h"
#include "parallel/plan_knobs.h"
#include "test_clusters.h"
#include "zoo/zoo.h"

using namespace gp;

namespace {

struct GptTask : gptest::GptLayerTask {
  ParallelPlan plan(int dp, int cp, int tp = 1) const {
    ParallelPlan p;
    p.dp = dp, p.cp = cp, p.tp = tp;
    p.stages = evenStages(st.numLayers(), 1);
    return p;
  }
};

}  // namespace

TEST(ContextParallel, EachRankRunsItsShareOfTheTokens) {
  const GptTask t;
  // A micro-batch of 2 over 2 context ranks costs each what a micro-batch of 1 does alone.
  for (int part : {-1, 0, 3, 4}) {
    const PartTimes split = t.model.partTimes(part, 2, 1, 2, false, AttentionImpl::Flash, false, 0);
    const PartTimes alone = t.model.partTimes(part, 1, 1, 1, false, AttentionImpl::Flash, false, 0);
    EXPECT_EQ(split.forward, alone.forward) << part;
    EXPECT_EQ(split.backward, alone.backward) << part;
  }
  // What a layer keeps for backward and sends on: 1 / cp.
  const PartCost one = t.layer(t.plan(4, 1), 4), four = t.layer(t.plan(1, 4), 4);
  EXPECT_DOUBLE_EQ(four.saved, one.saved / 4);
  EXPECT_DOUBLE_EQ(four.input, one.input / 4);
}

TEST(ContextParallel, RingAttentionPassesTheSequencesKeysAndValues) {
  const GptTask t;
  // K and V of one layer per sample: 2 x 256 tokens x 1024 x 2 bytes.
  const double kv = 2.0 * 256 * 1024 * 2;
  EXPECT_DOUBLE_EQ(t.model.ringKvBytes(0, 1), kv);
  EXPECT_DOUBLE_EQ(t.model.ringKvBytes(0, 2), kv / 2);  // the TP shard's heads
  for (int cp : {2, 4}) {
    const PartCost pc = t.layer(t.plan(4 / cp, cp), 1);
    // A ring all-gather: (cp - 1) / cp of the micro-batch's keys and values over each link.
    EXPECT_NEAR(pc.ringForward, (cp - 1.0) / cp * kv / 1e6, 1e-12) << cp;
    const PartTimes times = t.model.partTimes(1, 1, 1, cp, false, AttentionImpl::Flash, false, 0);
    // Overlapped with the attention kernels: only the rest blocks, twice over in backward.
    EXPECT_NEAR(pc.arForward, std::max(0.0, pc.ringForward - times.attentionForward), 1e-12);
    EXPECT_NEAR(pc.arBackward, std::max(0.0, 2 * pc.ringForward - times.attentionBackward), 1e-12);
    // All of it is context-parallel communication (tp 1: no TP collectives).
    EXPECT_EQ(pc.cpForward, pc.arForward);
    EXPECT_EQ(pc.cpBackward, pc.arBackward);
    EXPECT_EQ(pc.tpForward + pc.tpBackward, 0);
  }
  EXPECT_EQ(t.layer(t.plan(4, 1), 1).ringForward, 0);
  // The step's collectives by kind add up to those inside its passes: with cp 2 x tp 2, ring
  // attention and TP all-reduces, each counted as its own kind.
  const ParallelMeasurement m = simulateParallel(t.model, 4, t.plan(1, 2, 2));
  ASSERT_TRUE(m.feasible) << m.problem;
  const StepBreakdown& b = m.breakdown;
  EXPECT_GT(b.tpComm, 0);
  EXPECT_EQ(b.epComm, 0);
  EXPECT_EQ(b.zeroGather, 0);
  EXPECT_NEAR(b.tpComm + b.cpComm + b.epComm + b.zeroGather, b.passComm, 1e-12 * (1 + b.passComm));
}

TEST(ContextParallel, GradientsSynchroniseOverDpTimesCp) {
  const GptTask t;
  ParallelPlan p = t.plan(2, 2);
  const std::vector<int> devices = planDevices(p, t.c);
  // Ranks: ((stage x dp + replica) x cp + c) x tp + shard.
  EXPECT_EQ(cpGroups(p, devices, 0), (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(dpGroups(p, devices, 0), (std::vector<std::vector<int>>{{0, 1, 2, 3}}));
  EXPECT_EQ(tpGroups(p, devices, 0).size(), 4u);
  // ZeRO-1 shards the optimizer state over all four.
  p.zero = 1;
  const ParallelMeasurement z = simulateParallel(t.model, 8, p);
  ASSERT_TRUE(z.feasible) << z.problem;
  p.zero = 0;
  const ParallelMeasurement none = simulateParallel(t.model, 8, p);
  EXPECT_NEAR(z.memory[0].statics.optimizer, none.memory[0].statics.optimizer / 4, 16);
}

TEST(ContextParallel, PlanRulesAndFile) {
  const GptTask t;
  ParallelPlan p = t.plan(1, 4);
  EXPECT_EQ(parallelPlanProblem(t.st, t.c, 4, p), "");
  ParallelPlan bad = t.plan(1, 2, 2);
  bad.sequenceParallel = true;
  EXPECT_EQ(parallelPlanProblem(t.st, t.c, 4, bad), "");  // 256 = 2 x 2 x 2 x 32
  bad = t.plan(2, 3);
  EXPECT_EQ(parallelPlanProblem(t.st, t.c, 4, bad),
            "dp x cp x tp x pp = 2 x 3 x 1 x 1 = 6 devices, but the cluster has 4 (a plan uses every device)");
  LayerStack odd = t.st;
  odd.seqLen = 250;
  EXPECT_EQ(parallelPlanProblem(odd, t.c, 4, p),
            "the sequence of 250 tokens does not split into 2 x cp = 8 equal chunks (context parallelism)");
  LayerStack noAttention = t.st;
  noAttention.heads = 0;
  EXPECT_EQ(parallelPlanProblem(noAttention, t.c, 4, p),
            "context parallelism splits attention's sequence: this model has no attention");
  const std::string text = parallelPlanJson({"zoo:gpt_1_3b", t.c.name(), 4, p}, t.c);
  EXPECT_NE(text.find("\"cp\": 4"), std::string::npos);
  EXPECT_TRUE(sameKnobs(parseParallelPlanJson(text, "plan.json", t.c).plan, p));
  // The search offers cp wherever 2 cp chunks divide the sequence.
  bool offered = false;
  for (const PlanShape& s : planShapes(t.st, t.c, 4, false)) offered = offered || s.cp == 4;
  EXPECT_TRUE(offered);
}
