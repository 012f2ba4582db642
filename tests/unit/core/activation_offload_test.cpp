// Activation offload against closed forms: full recomputation's checkpoints leave the GPU for host
// memory (the GPU keeps two layers' checkpoints beside the recomputed layer), their copies over
// the host link add only what outlasts each pass; the plan rule and the frameworks' refusals;
// DeepSpeed's cpu_checkpointing read and written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "gpt_layer_task.h"
#include "launch_test_stack.h"
#include "launch/deepspeed_launch.h"
#include "parallel/optimizer_offload.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

ParallelPlan fullRecompute(int dp, int pp) {
  ParallelPlan p;
  p.dp = dp, p.pp = pp, p.microbatches = 4;
  p.stages = evenStages(4, pp, Recompute::Full);
  return p;
}

}  // namespace

TEST(ActivationOffload, CheckpointsLeaveTheGpuForHostMemory) {
  const gptest::GptLayerTask t;
  ParallelPlan kept = fullRecompute(2, 2), off = kept;
  off.training.activationOffload = true;
  ASSERT_EQ(parallelPlanProblem(t.st, t.c, 16, off), "");
  const std::vector<int> devices = t.model.rankDevices(kept);
  for (int stage = 0; stage < 2; ++stage) {
    const StageCost a = t.model.stageCost(kept, stage, 2, devices), b = t.model.stageCost(off, stage, 2, devices);
    // Each part's input per micro-batch, all of them to the host; the GPU keeps two of them more.
    double inputs = 0, largest = 0;
    for (int part = stage == 0 ? -1 : 2; part <= (stage == 0 ? 1 : 4); ++part) {
      const PartCost pc = t.model.partCost(kept, part, 2, devices[0], stageGroups(kept, devices, stage));
      inputs += pc.input, largest = std::max(largest, pc.input);
    }
    EXPECT_NEAR(b.hostKeptPerMicrobatch, inputs, 1e-9 * inputs);
    EXPECT_NEAR(b.keptPerMicrobatch, a.keptPerMicrobatch - inputs, 1e-6);  // the loss's buffers stay (last stage)
    if (stage == 0) EXPECT_NEAR(b.keptPerMicrobatch, 0, 1e-6);
    EXPECT_NEAR(b.workingSet, a.workingSet + 2 * largest, 1e-9 * a.workingSet);
    // The copies over the host link (24 GB/s on an unnamed GPU) beside the passes.
    const double copy = inputs / hostLinkBandwidth(t.c.device(0));
    EXPECT_NEAR(b.forward, a.forward + std::max(0.0, copy - a.forward), 1e-12);
    EXPECT_NEAR(b.backward, a.backward + std::max(0.0, copy - a.backward), 1e-12);
  }
  const ParallelMeasurement mk = simulateParallel(t.model, 16, kept), mo = simulateParallel(t.model, 16, off);
  ASSERT_TRUE(mk.feasible && mo.feasible);
  for (size_t s = 0; s < 2; ++s) {
    // Stage 0 holds two micro-batches' checkpoints under 1F1B, and keeps two parts' instead; the
    // last stage holds one micro-batch's and gains nothing.
    if (s == 0) EXPECT_LT(mo.memory[s].activations, mk.memory[s].activations);
    else EXPECT_EQ(mo.memory[s].activations, mk.memory[s].activations);
    EXPECT_GT(mo.memory[s].hostActivations, 0);
    EXPECT_EQ(mk.memory[s].hostActivations, 0);
  }
  EXPECT_GE(mo.stepTime, mk.stepTime);
}

TEST(ActivationOffload, PlanRuleFrameworksAndDeepSpeed) {
  const gptest::GptLayerTask t;
  ParallelPlan p = fullRecompute(4, 1);
  p.training.activationOffload = true;
  p.stages[0].recompute = Recompute::Selective;
  EXPECT_EQ(parallelPlanProblem(t.st, t.c, 16, p),
            "activation offload keeps full recomputation's checkpoints in host memory: every stage must recompute full");
  p.stages[0].recompute = Recompute::Full;
  p.training.framework = TrainingFramework::Megatron;
  EXPECT_NE(trainingSetupProblem(p).find("Megatron-LM offloads no recomputation checkpoints"), std::string::npos);
  p.training.framework = TrainingFramework::Torchtitan;
  p.zero = 3;
  EXPECT_EQ(trainingSetupProblem(p), "torchtitan offloads no recomputation checkpoints");
  // In the knob table: plan files and summaries.
  p.training.framework = TrainingFramework::DeepSpeed;
  p.zero = 1;
  EXPECT_EQ(planKnobsJson(p)["activation_offload"], true);
  // The searches choose recomputation per stage: a plan's offload is not carried into them.
  EXPECT_FALSE(FixedKnobs::of(p).training.activationOffload);
  EXPECT_EQ(FixedKnobs::of(p).training.framework, TrainingFramework::DeepSpeed);
  // DeepSpeed: written as cpu_checkpointing with partition_activations, read back.
  const LayerStack& st = gptest::launchStack();
  ParallelPlan ds = gptest::launchPlan(16, 1, 1, 1, 1, Recompute::Full);
  ds.zero = 1, ds.training.framework = TrainingFramework::DeepSpeed, ds.training.activationOffload = true;
  LaunchContext ctx;
  ctx.stack = &st, ctx.globalBatch = 64, ctx.devicesPerServer = 8, ctx.model = "zoo:gpt_1_3b", ctx.cluster = "2x8xH100-IB";
  const LaunchFile f = exportDeepSpeed(ds, ctx);
  const nlohmann::json j = nlohmann::json::parse(f.text);
  EXPECT_EQ(j["activation_checkpointing"]["cpu_checkpointing"], true);
  EXPECT_EQ(j["activation_checkpointing"]["partition_activations"], true);
  const LaunchImport back = importDeepSpeed(f.text, "ds_config.json", st, 16);
  EXPECT_TRUE(back.plan.training.activationOffload);
  nlohmann::json bad = j;
  bad["activation_checkpointing"]["partition_activations"] = false;
  try {
    importDeepSpeed(bad.dump(), "ds_config.json", st, 16);
    ADD_FAILURE() << "cpu_checkpointing without partition_activations accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "ds_config.json: activation_checkpointing.cpu_checkpointing offloads partitioned activations: it needs "
                 "partition_activations");
  }
}
