// DeepSpeed's ds_config.json (DeepSpeed v0.19.5): what a plan becomes, the plan read back
// (export -> import gives the same plan), DeepSpeed's own refusals with its reasons, and what it
// cannot express.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "launch_test_stack.h"
#include "launch/deepspeed_launch.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

const LayerStack& stack() { return gptest::launchStack(); }

LaunchFile exported(const ParallelPlan& p, int64_t batch) {
  LaunchContext ctx = gptest::launchContext(batch);
  return exportDeepSpeed(p, ctx);
}

ParallelPlan plan(int dp, int tp, int pp, int microbatches, int zero) {
  ParallelPlan p;
  p.dp = dp, p.tp = tp, p.pp = pp, p.microbatches = microbatches, p.zero = zero;
  p.stages = evenStages(stack().numLayers(), pp);
  p.training.framework = TrainingFramework::DeepSpeed;  // costed as DeepSpeed runs it
  return p;
}

}  // namespace

TEST(DeepSpeedLaunch, ExportThenImportGivesTheSamePlan) {
  std::vector<ParallelPlan> plans;
  ParallelPlan p = plan(16, 1, 1, 4, 3);
  p.overlapParamGather = true;
  plans.push_back(p);
  plans.push_back(plan(8, 2, 1, 2, 2));  // AutoTP
  p = plan(2, 1, 4, 8, 1);               // a pipeline, uneven
  p.stages = {{0, 1, Recompute::None}, {1, 3, Recompute::None}, {3, 5, Recompute::None}, {5, 8, Recompute::None}};
  plans.push_back(p);
  for (const ParallelPlan& q : plans) {
    const int64_t batch = int64_t{q.dp} * q.microbatches * 2;
    const LaunchFile f = exported(q, batch);
    const nlohmann::json j = nlohmann::json::parse(f.text);
    // DeepSpeed's _batch_assertion: train_batch_size = micro x accumulation x dp.
    EXPECT_EQ(j["train_batch_size"].get<int64_t>(),
              j["train_micro_batch_size_per_gpu"].get<int64_t>() * j["gradient_accumulation_steps"].get<int64_t>() * q.dp);
    const LaunchImport back = importDeepSpeed(f.text, "ds.json", stack(), q.devicesUsed());
    EXPECT_EQ(back.globalBatch, batch);
    EXPECT_TRUE(sameKnobs(q, back.plan)) << planChanges(q, back.plan, batch) << "\n" << f.text;
    ASSERT_EQ(q.stages.size(), back.plan.stages.size());
    for (size_t i = 0; i < q.stages.size(); ++i) EXPECT_EQ(q.stages[i].first, back.plan.stages[i].first);
  }
  const nlohmann::json j = nlohmann::json::parse(exported(plans[1], 32).text);
  EXPECT_EQ(j["zero_optimization"]["stage"], 2);
  EXPECT_EQ(j["tensor_parallel"]["autotp_size"], 2);
  EXPECT_EQ(j["bf16"]["enabled"], true);
}

TEST(DeepSpeedLaunch, RefusesAndNamesWhatItCannotExpress) {
  try {
    exported(plan(2, 1, 4, 8, 3), 32);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("deepspeed: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"),
              std::string::npos);
  }
  ParallelPlan p = plan(4, 2, 1, 1, 1);
  p.sequenceParallel = true, p.fp8 = true, p.cp = 2;
  for (PipeStage& s : p.stages) s.recompute = Recompute::Full;
  const LaunchFile f = exported(p, 8);
  EXPECT_EQ(f.inexact.size(), 4u);
  const nlohmann::json j = nlohmann::json::parse(f.text);
  EXPECT_EQ(j["graphplace"]["not_exactly_expressible"].size(), 4u);
  EXPECT_TRUE(j.contains("activation_checkpointing"));
  EXPECT_EQ(j["sequence_parallel_size"], 2);
}

TEST(DeepSpeedLaunch, ReadsAUsersConfigurationAndRejectsBadOnes) {
  const LaunchImport r = importDeepSpeed(
      R"({"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 3},
          "bf16": {"enabled": true}})",
      "ds.json", stack(), 16);
  EXPECT_EQ(r.plan.dp, 16);
  EXPECT_EQ(r.globalBatch, 128);
  EXPECT_EQ(r.plan.zero, 3);
  EXPECT_TRUE(r.plan.overlapParamGather);  // ZeRO-3's overlap_comm is on by default
  auto why = [&](const std::string& text) {
    try {
      importDeepSpeed(text, "ds.json", stack(), 8);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 3})"),
            "ds.json: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * "
            "world_size 64 != 4 * 3 * 8");
  EXPECT_EQ(why(R"({"optimizer": {}})"),
            "ds.json: not a DeepSpeed configuration (train_batch_size or train_micro_batch_size_per_gpu missing)");
  EXPECT_EQ(why(R"({"train_batch_size": 8, "zero_optimization": {"stage": 5}})"), "ds.json: zero_optimization.stage must be 0-3");
  EXPECT_NE(why("{\"train_batch_size\": ").find("ds.json"), std::string::npos);
}

// Hostile values are one line, never a narrowed integer or a library exception.
TEST(DeepSpeedLaunch, HostileValuesAreOneLine) {
  for (const char* text : {R"({"train_batch_size": 8, "zero_optimization": {"stage": 1, "overlap_comm": 5}})",
                           R"({"train_batch_size": 8, "tensor_parallel": {"autotp_size": 4294967296}})",
                           R"({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1099511627776, "gradient_accumulation_steps": 1048576})",
                           R"({"train_batch_size": 8.5})", R"({"train_batch_size": 8, "graphplace": {"plan": {"pp": 2}, "pipeline_parts": [0, 9, 8]}})"}) {
    try {
      importDeepSpeed(text, "ds.json", stack(), 8);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("ds.json: ")) << e.what();
    }
  }
}
