// Which fused attention kernel runs: `flash` is the GPU's fastest, `flash2` FlashAttention-2 at
// the device kind's flash2_attention_share of that rate. The kernels differ in time only: the
// other ops, what a layer keeps and the plan's memory are the same. Presets: H100 0.62 (the
// FlashAttention-3 paper's FlashAttention-2 against cuDNN), A100 1 (FlashAttention-2 is its
// fastest).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "gpt_layer_task.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

// The GPT task's cluster with its kind's FlashAttention-2 share set.
Cluster withFlash2Share(const Cluster& c, double share) {
  nlohmann::json j = nlohmann::json::parse(c.toJson());
  for (auto& [kind, spec] : j["device_kinds"].items()) spec["flash2_attention_share"] = share;
  return parseClusterJson(j.dump(), "flash2-cluster");
}

}  // namespace

TEST(AttentionKernel, FlashAttention2RunsTheAttentionAtItsShareAndNothingElseChanges) {
  const gptest::GptLayerTask t;
  const Cluster half = withFlash2Share(t.c, 0.5);
  EXPECT_EQ(half.device(0).flash2Share, 0.5);
  const CostModel cost(t.g, half, gptest::exactCosts());
  const StageCostModel model(t.st, cost);
  for (int tp : {1, 2}) {
    const PartTimes flash = model.partTimes(1, 2, tp, 1, false, AttentionImpl::Flash, false, 0);
    const PartTimes flash2 = model.partTimes(1, 2, tp, 1, false, AttentionImpl::Flash2, false, 0);
    ASSERT_GT(flash.attentionForward, 0);
    // Compute-bound at these sizes: twice the time at half the rate, forward and backward.
    EXPECT_NEAR(flash2.attentionForward, 2 * flash.attentionForward, 1e-9 * flash.attentionForward) << tp;
    EXPECT_NEAR(flash2.attentionBackward, 2 * flash.attentionBackward, 1e-9 * flash.attentionBackward) << tp;
    EXPECT_NEAR(flash2.forward - flash2.attentionForward, flash.forward - flash.attentionForward, 1e-12) << tp;
    EXPECT_NEAR(flash2.backward - flash2.attentionBackward, flash.backward - flash.attentionBackward, 1e-12) << tp;
  }
  // Where the share is not listed FlashAttention-2 is the fastest kernel: the same times.
  const PartTimes a = t.model.partTimes(1, 2, 1, 1, false, AttentionImpl::Flash, false, 0);
  const PartTimes b = t.model.partTimes(1, 2, 1, 1, false, AttentionImpl::Flash2, false, 0);
  EXPECT_EQ(a.forward, b.forward);
  EXPECT_EQ(a.backward, b.backward);
  // What a layer keeps is FlashAttention's either way.
  ParallelPlan p;
  p.dp = 4;
  const PartCost keptFlash = t.layer(p, 2);
  p.attention = AttentionImpl::Flash2;
  const PartCost keptFlash2 = t.layer(p, 2);
  EXPECT_EQ(keptFlash.saved, keptFlash2.saved);
  EXPECT_EQ(keptFlash.savedSelective, keptFlash2.savedSelective);
}

TEST(AttentionKernel, PresetsCarryTheShareAndFilesRoundTripIt) {
  EXPECT_EQ(loadCluster("8xH100-NVSwitch").device(0).flash2Share, 0.62);
  EXPECT_EQ(loadCluster("4xA100-NVLink").device(0).flash2Share, 1.0);
  const Cluster h100 = loadCluster("2x8xH100-IB");
  EXPECT_EQ(parseClusterJson(h100.toJson(), "again").device(3).flash2Share, 0.62);
  const gptest::GptLayerTask t;
  for (double bad : {0.01, 1.5}) {
    nlohmann::json j = nlohmann::json::parse(t.c.toJson());
    j["device_kinds"]["T"]["flash2_attention_share"] = bad;
    try {
      parseClusterJson(j.dump(), "c.json");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("'flash2_attention_share' must be in [0.05, 1]"), std::string::npos) << e.what();
    }
  }
}

TEST(AttentionKernel, PlansNameTheKernel) {
  ParallelPlan p;
  EXPECT_TRUE(planKnobNotes(p).empty());
  p.attention = AttentionImpl::Flash2;
  ASSERT_EQ(planKnobNotes(p).size(), 1u);
  EXPECT_EQ(planKnobNotes(p)[0], "FlashAttention-2");
  EXPECT_EQ(planKnobsJson(p)["attention"], "flash2");
  p.attention = AttentionImpl::Unfused;
  EXPECT_EQ(planKnobNotes(p)[0], "unfused attention");
  ParallelPlan q;
  readPlanKnobs(nlohmann::json{{"dp", 1}, {"tp", 1}, {"pp", 1}, {"microbatches", 1}, {"schedule", "1f1b"}, {"zero", 0},
                               {"attention", "flash2"}},
                q, "plan.json");
  EXPECT_EQ(q.attention, AttentionImpl::Flash2);
  EXPECT_EQ(parseAttentionImpl("flash2", "x"), AttentionImpl::Flash2);
  EXPECT_EQ(attentionImplName(AttentionImpl::Flash2), "flash2");
  EXPECT_TRUE(fusedAttention(AttentionImpl::Flash2));
  EXPECT_FALSE(fusedAttention(AttentionImpl::Unfused));
}
