// The framework a plan trains with and the optimizer's knobs: bytes per parameter in closed form
// (Megatron-LM's own table), the loss, the offloaded step, the plans each framework refuses, the
// search keeping to them, and the launch formats reading and writing the knobs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "gpt_layer_task.h"
#include "launch_test_stack.h"
#include "launch/deepspeed_launch.h"
#include "launch/megatron_launch.h"
#include "parallel/optimizer_offload.h"
#include "parallel/parallel_search.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"
#include "parallel/stage_cost.h"
#include "launch/torchtitan_launch.h"

using namespace gp;

namespace {

const LayerStack& stack() { return gptest::launchStack(); }

TrainingSetup with(TrainingFramework f) {
  TrainingSetup s;
  s.framework = f;
  return s;
}

// Bytes per parameter on one of d devices under ZeRO `zero` while the optimizer steps (its
// gradient copy made), as Megatron-LM's table counts them.
double perParam(DType act, const TrainingSetup& s, int zero, int d) {
  const TrainingBytes tb = trainingBytesFor(act, s, zero);
  const StaticMemory m = staticMemoryParts(tb, zero, d, 1'000'000, 0);
  return (m.total() + m.step) / 1e6;
}

ParallelPlan plan16(int zero, TrainingFramework f) {
  ParallelPlan p = gptest::launchPlan(16, 1, 1, 1, 1, Recompute::None);
  p.zero = zero;
  p.training.framework = f;
  return p;
}

}  // namespace

TEST(TrainingSetup, BytesPerParameterAsEachFrameworkKeepsThem) {
  // Megatron-LM's docs/source/api-guide/dist_optimizer.md: bf16 parameters with fp32 gradients 18
  // bytes, 6 + 12 / d distributed; fp16 parameters and gradients 20, 4 + 16 / d.
  const TrainingSetup megatron = with(TrainingFramework::Megatron);
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, megatron, 0, 8), 18);
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, megatron, 1, 8), 6 + 12.0 / 8);
  EXPECT_DOUBLE_EQ(perParam(DType::F16, megatron, 0, 8), 20);
  EXPECT_DOUBLE_EQ(perParam(DType::F16, megatron, 1, 8), 4 + 16.0 / 8);
  // The fp32 copy of the fp16 gradients is made for the step only: beside the weights, not the
  // activations.
  const TrainingBytes fp16 = trainingBytesFor(DType::F16, megatron, 1);
  EXPECT_DOUBLE_EQ(fp16.stepCopy, 4);
  EXPECT_DOUBLE_EQ(staticMemoryParts(fp16, 1, 8, 1'000'000, 0).total() / 1e6, 4 + 12.0 / 8);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, megatron, 1).stepCopy, 0);  // its fp32 main gradients are the buffer
  // The data-parallel reduction moves the buffer: fp32 main gradients for Megatron-LM's bf16,
  // fp16 gradients for its fp16, torchtitan's float32 reduce_dtype, the generic 16-bit.
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, megatron, 1).reduce, 4);
  EXPECT_DOUBLE_EQ(fp16.reduce, 2);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, with(TrainingFramework::Torchtitan), 3).reduce, 4);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, {}, 0).reduce, 2);
  // The generic accounting: Rajbhandari et al.'s 16 (2 + 2 + 12), and 16 for fp32 (4 + 4 + 8).
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, {}, 0, 8), 16);
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, {}, 3, 8), 16.0 / 8);
  EXPECT_DOUBLE_EQ(perParam(DType::F32, {}, 0, 8), 16);
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, with(TrainingFramework::Torchtitan), 3, 8), 16.0 / 8);
  // DeepSpeed: fp16 adds the fp32 gradient copy to the optimizer's share; bf16 without ZeRO keeps
  // BF16_Optimizer's whole fp32 gradient buffer beside the bf16 gradients.
  const TrainingSetup ds = with(TrainingFramework::DeepSpeed);
  EXPECT_DOUBLE_EQ(perParam(DType::F16, ds, 0, 8), 20);
  EXPECT_DOUBLE_EQ(perParam(DType::F16, ds, 2, 8), 2 + 18.0 / 8);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, ds, 0).grad, 6);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, ds, 0).reduce, 4);  // BF16_Optimizer reduces its fp32 buffer
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, ds, 1, 8), 4 + 16.0 / 8);
  TrainingSetup dsFp32 = ds;
  dsFp32.gradAccumulation = GradAccumulation::Fp32;
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, dsFp32, 1, 8), 8 + 12.0 / 8);
  // Gradient accumulation stated: fp32 makes the gradients 4 bytes and drops the copy; 16-bit
  // keeps them 2 and Megatron's optimizer copies its shard to fp32.
  TrainingSetup m16 = megatron, gFp32;
  m16.gradAccumulation = GradAccumulation::Param;
  gFp32.gradAccumulation = GradAccumulation::Fp32;
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, m16, 1, 8), 4 + 16.0 / 8);
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, m16, 1).reduce, 2);  // --grad-reduce-in-bf16
  TrainingSetup t16 = with(TrainingFramework::Torchtitan);
  t16.gradAccumulation = GradAccumulation::Param;
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::BF16, t16, 3).reduce, 2);  // mixed_precision_reduce bfloat16
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, gFp32, 0, 8), 18);
  // Adam's moments in bf16 (4 bytes) or 8 bits (2), beside the fp32 master weights.
  TrainingSetup bf16Moments, eightBit;
  bf16Moments.optimizerStates = OptimizerStates::Bf16;
  eightBit.optimizerStates = OptimizerStates::Eight;
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, bf16Moments, 0, 8), 12);
  EXPECT_DOUBLE_EQ(perParam(DType::BF16, eightBit, 0, 8), 10);
  EXPECT_DOUBLE_EQ(perParam(DType::F32, eightBit, 0, 8), 10);
  // Offloaded: the optimizer's bytes in host memory, sharded as they were.
  TrainingSetup off = megatron;
  off.optimizerOffload = true;
  const TrainingBytes tb = trainingBytesFor(DType::BF16, off, 1);
  EXPECT_DOUBLE_EQ(tb.optimizer, 0);
  EXPECT_DOUBLE_EQ(tb.host, 12);
  TrainingSetup offFp16 = off;
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::F16, offFp16, 1).host, 16);  // CPU Adam's fp32 gradients beside it
  EXPECT_DOUBLE_EQ(trainingBytesFor(DType::F16, offFp16, 1).stepCopy, 0);
  const StaticMemory m = staticMemoryParts(tb, 1, 8, 1'000'000, 0);
  EXPECT_DOUBLE_EQ(m.total(), 6e6);
  EXPECT_DOUBLE_EQ(m.host, 12e6 / 8);
}

TEST(TrainingSetup, LossAndOffloadedStepInClosedForm) {
  EXPECT_DOUBLE_EQ(lossBytesFor(TrainingFramework::Megatron).kept, 4);
  EXPECT_DOUBLE_EQ(lossBytesFor(TrainingFramework::Megatron).working, 2);
  EXPECT_DOUBLE_EQ(lossBytesFor(TrainingFramework::DeepSpeed).working, 2);
  EXPECT_DOUBLE_EQ(lossBytesFor(TrainingFramework::Generic).working, 8);
  EXPECT_DOUBLE_EQ(lossBytesFor(TrainingFramework::Torchtitan).kept, 4);
  // A billion parameters on an H100 (PCIe 5): 2 + 2 bytes each over 48 GB/s, then 30 bytes each
  // at the CPU's 25 GB/s.
  const Cluster h100 = loadCluster("8xH100-NVSwitch"), a100 = loadCluster("4xA100-NVLink");
  EXPECT_DOUBLE_EQ(hostLinkBandwidth(h100.device(0)), 48e9);
  EXPECT_DOUBLE_EQ(hostLinkBandwidth(a100.device(0)), 24e9);
  const TrainingBytes tb{2, 2, 0, 12};
  EXPECT_NEAR(offloadedUpdateSeconds(1e9, tb, h100.device(0)), 4e9 / 48e9 + 30e9 / 25e9, 1e-12);
  EXPECT_DOUBLE_EQ(offloadedUpdateSeconds(0, tb, h100.device(0)), 0);
}

TEST(TrainingSetup, TheSimulatedStepFollowsTheFramework) {
  const Cluster c = loadCluster("2x8xH100-IB");
  const Graph g = withPrecision(makeZooModel("gpt_1_3b", {1, 256, 8, 1024, 0}), Precision::BF16);
  const CostModel cost(g, c);
  const StageCostModel model(stack(), cost);
  const ParallelMeasurement generic = simulateParallel(model, 16, plan16(1, TrainingFramework::Generic));
  const ParallelMeasurement megatron = simulateParallel(model, 16, plan16(1, TrainingFramework::Megatron));
  ASSERT_TRUE(generic.feasible && megatron.feasible) << generic.problem << megatron.problem;
  // fp32 main gradients: twice the gradient bytes; the fused loss keeps 6 bytes per logit, not 12.
  EXPECT_NEAR(megatron.memory[0].statics.gradients, 2 * generic.memory[0].statics.gradients, 1);
  EXPECT_LT(megatron.memory[0].activations, generic.memory[0].activations);
  // The optimizer offloaded: none of it on the GPUs, all of it in host memory, and a slower step.
  ParallelPlan off = plan16(1, TrainingFramework::Megatron);
  off.training.optimizerOffload = true;
  const ParallelMeasurement o = simulateParallel(model, 16, off);
  ASSERT_TRUE(o.feasible) << o.problem;
  EXPECT_DOUBLE_EQ(o.memory[0].statics.optimizer, 0);
  EXPECT_NEAR(o.memory[0].statics.host, megatron.memory[0].statics.optimizer, 1);
  EXPECT_GT(o.breakdown.optimizer, 10 * megatron.breakdown.optimizer);
  EXPECT_GT(o.stepTime, megatron.stepTime);
}

TEST(TrainingSetup, TpOverlapHidesTheFrameworksShareOfTheCollectives) {
  const gptest::GptLayerTask t;
  ParallelPlan p;
  p.tp = 4, p.sequenceParallel = true;
  const PartCost blocking = t.layer(p, 2);
  const PartTimes times = t.model.partTimes(1, 2, 4, 1, true, AttentionImpl::Flash, false, 0);
  ASSERT_GT(blocking.arForward, 0);
  p.overlapTpComm = true;
  for (auto [f, share] : {std::pair{TrainingFramework::Megatron, 1.0}, std::pair{TrainingFramework::Generic, 1.0},
                          std::pair{TrainingFramework::Torchtitan, kTorchtitanAsyncTpShare}}) {
    p.training.framework = f;
    const PartCost pc = t.layer(p, 2);
    EXPECT_NEAR(pc.arForward, blocking.arForward - share * std::min(blocking.arForward, times.productsForward), 1e-12)
        << trainingFrameworkName(f);
    EXPECT_NEAR(pc.arBackward, blocking.arBackward - share * std::min(blocking.arBackward, 2 * times.productsForward),
                1e-12)
        << trainingFrameworkName(f);
  }
  // torchtitan's async TP, read from its file, is the overlap.
  const LaunchImport r = importTorchtitan(
      "[training]\ntensor_parallel_degree = 2\ncompile = true\n[experimental]\nenable_async_tensor_parallel = true\n",
      "train.toml", stack(), 8);
  EXPECT_TRUE(r.plan.overlapTpComm);
  EXPECT_TRUE(r.plan.sequenceParallel);
}

TEST(TrainingSetup, FrameworksRefuseWhatTheyCannotRun) {
  const Cluster c = loadCluster("2x8xH100-IB");
  EXPECT_EQ(trainingSetupProblem(plan16(2, TrainingFramework::Generic)), "");
  EXPECT_NE(trainingSetupProblem(plan16(2, TrainingFramework::Megatron)).find("no ZeRO-2"), std::string::npos);
  EXPECT_NE(trainingSetupProblem(plan16(1, TrainingFramework::Torchtitan)).find("ZeRO-3, not ZeRO-1"), std::string::npos);
  EXPECT_EQ(trainingSetupProblem(plan16(3, TrainingFramework::Torchtitan)), "");
  ParallelPlan ds8 = plan16(1, TrainingFramework::DeepSpeed);
  ds8.training.optimizerStates = OptimizerStates::Eight;
  EXPECT_EQ(trainingSetupProblem(ds8), "DeepSpeed's Adam keeps its moments in fp32");
  ParallelPlan offZero0 = plan16(0, TrainingFramework::Megatron);
  offZero0.training.optimizerOffload = true;
  EXPECT_NE(parallelPlanProblem(stack(), c, 16, offZero0).find("--optimizer-cpu-offload"), std::string::npos);
  // The exact search searches what the framework runs: no ZeRO-2 under Megatron-LM, no ZeRO-1 or
  // 2 without a pipeline under torchtitan.
  FixedKnobs megatron, titan;
  megatron.training.framework = TrainingFramework::Megatron;
  titan.training.framework = TrainingFramework::Torchtitan;
  int zero2 = 0, titanZero1 = 0;
  for (const PlanShape& s : planShapes(stack(), c, 16, true, megatron)) zero2 += s.zero == 2;
  for (const PlanShape& s : planShapes(stack(), c, 16, true, titan)) titanZero1 += (s.zero == 1 || s.zero == 2) && s.pp == 1;
  EXPECT_EQ(zero2, 0);
  EXPECT_EQ(titanZero1, 0);
  EXPECT_GT(planShapes(stack(), c, 16, true, megatron).size(), 0u);
}

TEST(TrainingSetup, KnobsInPlanFiles) {
  ParallelPlan p = plan16(1, TrainingFramework::Megatron);
  p.training.optimizerOffload = true;
  p.training.optimizerStates = OptimizerStates::Eight;
  p.training.gradAccumulation = GradAccumulation::Fp32;
  const nlohmann::ordered_json j = planKnobsJson(p);
  EXPECT_EQ(j["framework"], "megatron");
  EXPECT_EQ(j["optimizer_offload"], true);
  EXPECT_EQ(j["optimizer_states"], "8bit");
  EXPECT_EQ(j["grad_accumulation"], "fp32");
  ParallelPlan back;
  readPlanKnobs(nlohmann::json::parse(j.dump()), back, "plan.json");
  EXPECT_EQ(back.training, p.training);
  EXPECT_EQ(planChanges(plan16(1, TrainingFramework::Generic), plan16(1, TrainingFramework::DeepSpeed), 16),
            "framework generic -> deepspeed");
  nlohmann::json bad = nlohmann::json::parse(j.dump());
  bad["framework"] = "jax";
  try {
    readPlanKnobs(bad, back, "plan.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"framework\" must be \"generic\", \"megatron\", \"deepspeed\" or \"torchtitan\""),
              std::string::npos)
        << e.what();
  }
}

TEST(TrainingSetup, LaunchFormatsReadAndWriteTheOptimizer) {
  const LaunchContext ctx = gptest::launchContext(16);
  // Megatron-LM: the framework itself, CPU offload through the precision-aware optimizer, its moments.
  ParallelPlan m = plan16(1, TrainingFramework::Megatron);
  m.training.optimizerOffload = true;
  m.training.optimizerStates = OptimizerStates::Bf16;
  const LaunchFile mf = exportMegatron(m, ctx);
  for (const char* flag : {"--optimizer-cpu-offload", "--use-precision-aware-optimizer", "--exp-avg-dtype bf16", "--exp-avg-sq-dtype bf16"})
    EXPECT_NE(mf.text.find(flag), std::string::npos) << flag << "\n" << mf.text;
  const LaunchImport mi = importMegatron(mf.text, "m.sh", stack(), 16);
  EXPECT_EQ(mi.plan.training, m.training);
  EXPECT_EQ(importMegatron("--micro-batch-size 1 --use-distributed-optimizer", "m.sh", stack(), 16).plan.training.framework,
            TrainingFramework::Megatron);
  try {
    importMegatron("--micro-batch-size 1 --use-distributed-optimizer --optimizer-cpu-offload", "m.sh", stack(), 16);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--use-precision-aware-optimizer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(importMegatron("--micro-batch-size 1 --fp16 --accumulate-allreduce-grads-in-fp32", "m.sh", stack(), 16)
                .plan.training.gradAccumulation,
            GradAccumulation::Fp32);

  // DeepSpeed: offload_optimizer and grad_accum_dtype; 8-bit moments are not DeepSpeed's (inexact).
  ParallelPlan d = plan16(2, TrainingFramework::DeepSpeed);
  d.training.optimizerOffload = true;
  d.training.gradAccumulation = GradAccumulation::Fp32;
  const nlohmann::json dj = nlohmann::json::parse(exportDeepSpeed(d, ctx).text);
  EXPECT_EQ(dj["zero_optimization"]["offload_optimizer"]["device"], "cpu");
  EXPECT_EQ(dj["data_types"]["grad_accum_dtype"], "fp32");
  EXPECT_EQ(importDeepSpeed(dj.dump(), "ds.json", stack(), 16).plan.training, d.training);
  ParallelPlan g = plan16(1, TrainingFramework::Generic);
  g.training.optimizerStates = OptimizerStates::Eight;
  const LaunchFile gf = exportDeepSpeed(g, ctx);
  ASSERT_FALSE(gf.inexact.empty());
  EXPECT_NE(gf.inexact.front().find("fp32"), std::string::npos) << gf.inexact.front();
  EXPECT_THROW(importDeepSpeed(R"({"train_batch_size": 16, "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}}})",
                               "ds.json", stack(), 16),
               Error);

  // torchtitan: enable_cpu_offload under FSDP.
  ParallelPlan t = plan16(3, TrainingFramework::Torchtitan);
  t.overlapParamGather = true;
  t.attention = AttentionImpl::Flash2;
  t.training.optimizerOffload = true;
  const LaunchFile tf = exportTorchtitan(t, ctx);
  EXPECT_NE(tf.text.find("enable_cpu_offload = true\n"), std::string::npos) << tf.text;
  const LaunchImport ti = importTorchtitan(tf.text, "t.toml", stack(), 16);
  EXPECT_EQ(ti.plan.training, t.training);
}
