// torchtitan's TOML train configuration (torchtitan 9dec370): what a plan becomes, the plan read
// back (export -> import gives the same plan), torchtitan's own refusals with its reasons, and
// what it cannot express.
#include <gtest/gtest.h>

#include "base/error.h"
#include "launch_test_stack.h"
#include "parallel/plan_knobs.h"
#include "launch/torchtitan_launch.h"

using namespace gp;

namespace {

const LayerStack& stack() { return gptest::launchStack(); }

// A plan costed as torchtitan runs it.
ParallelPlan plan(int dp, int tp, int pp, int v, int microbatches, Recompute r = Recompute::Full) {
  ParallelPlan p = gptest::launchPlan(dp, tp, pp, v, microbatches, r, /*torchtitan=*/true);
  p.training.framework = TrainingFramework::Torchtitan;
  return p;
}

LaunchFile exported(const ParallelPlan& p, int64_t batch) {
  LaunchContext ctx = gptest::launchContext(batch);
  return exportTorchtitan(p, ctx);
}

}  // namespace

TEST(TorchtitanLaunch, ExportThenImportGivesTheSamePlan) {
  std::vector<ParallelPlan> plans;
  ParallelPlan p = plan(16, 1, 1, 1, 1);  // FSDP
  p.zero = 3, p.overlapParamGather = true, p.fp8 = true;
  plans.push_back(p);
  p = plan(8, 1, 1, 1, 1, Recompute::None);  // DDP, 1-D
  plans.push_back(p);
  p = plan(2, 2, 4, 1, 8);  // FSDP + TP + PP: ZeRO-1 in memory
  p.zero = 1;
  plans.push_back(p);
  p = plan(2, 1, 4, 2, 8);  // interleaved
  p.zero = 1;
  plans.push_back(p);
  p = plan(2, 1, 1, 1, 1);  // FSDP over dp x cp
  p.cp = 4, p.zero = 3, p.overlapParamGather = true;
  plans.push_back(p);
  p = plan(4, 1, 4, 1, 4);  // uneven stages
  p.zero = 1, p.schedule = PipeSchedule::GPipe;
  p.stages = {{0, 1, Recompute::Full}, {1, 3, Recompute::Full}, {3, 5, Recompute::Full}, {5, 8, Recompute::Full}};
  plans.push_back(p);
  for (const ParallelPlan& q : plans) {
    const int64_t batch = int64_t{q.dp} * q.microbatches * 2;
    const LaunchFile f = exported(q, batch);
    EXPECT_TRUE(f.inexact.empty()) << f.inexact.front() << "\n" << f.text;
    const LaunchImport back = importTorchtitan(f.text, "train.toml", stack(), q.devicesUsed());
    EXPECT_EQ(back.globalBatch, batch);
    EXPECT_EQ(back.seqLen, 256);
    EXPECT_TRUE(back.approximated.empty()) << back.approximated.front();
    EXPECT_TRUE(sameKnobs(q, back.plan)) << planChanges(q, back.plan, batch) << "\n" << f.text;
    ASSERT_EQ(q.stages.size(), back.plan.stages.size());
    for (size_t i = 0; i < q.stages.size(); ++i) {
      EXPECT_EQ(q.stages[i].first, back.plan.stages[i].first);
      EXPECT_EQ(q.stages[i].recompute, back.plan.stages[i].recompute);
    }
  }
  // The keys torchtitan reads, as it names them.
  const LaunchFile f = exported(plans[2], 32);
  for (const char* key : {"batch_size = 16", "seq_len = 256", "data_parallel_shard_degree = 2", "tensor_parallel_degree = 2",
                          "pipeline_parallel_degree = 4", "pipeline_parallel_split_points = [\"layers.2\", \"layers.4\", \"layers.6\"]",
                          "pipeline_parallel_schedule = \"1F1B\"", "pipeline_parallel_microbatches = 8", "mode = \"full\""})
    EXPECT_NE(f.text.find(key), std::string::npos) << key << "\n" << f.text;
}

TEST(TorchtitanLaunch, RefusesAndNamesWhatItCannotExpress) {
  ParallelPlan p = plan(4, 2, 1, 1, 1);  // DDP with TP
  try {
    exported(p, 8);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("torchtitan: DDP has not supported > 1D parallelism"), std::string::npos) << e.what();
  }
  p = plan(8, 1, 1, 1, 4, Recompute::Selective);
  p.zero = 1, p.attention = AttentionImpl::Flash;
  const LaunchFile f = exported(p, 64);
  ASSERT_EQ(f.inexact.size(), 4u);
  EXPECT_NE(f.inexact[0].find("ZeRO-1"), std::string::npos);
  EXPECT_NE(f.inexact[1].find("FlashAttention-2"), std::string::npos);
  EXPECT_NE(f.inexact[2].find("gradient accumulation"), std::string::npos);
  EXPECT_NE(f.inexact[3].find("op policy"), std::string::npos);
  EXPECT_NE(f.text.find("batch_size = 8"), std::string::npos);  // 2 x 4 in one batch
}

TEST(TorchtitanLaunch, ReadsTheBenchmarksConfigurationsAndRejectsBadOnes) {
  // torchtitan's own train_configs/llama3_8b.toml shape: FSDP over what is left, op-level SAC.
  const std::string cfg =
      "[model]\nname = \"llama3\"\nflavor = \"8B\"\n\n[training]\nbatch_size = 1\nseq_len = 256\n"
      "data_parallel_replicate_degree = 1\ndata_parallel_shard_degree = -1\ntensor_parallel_degree = 1\ncompile = false\n\n"
      "[experimental]\ncontext_parallel_degree = 1\npipeline_parallel_degree = 1\n\n[activation_checkpoint]\nmode = 'selective'\n"
      "selective_ac_option = 'op'\n\n[float8]\nenable_float8_linear = false\n";
  const LaunchImport r = importTorchtitan(cfg, "llama3_8b.toml", stack(), 64);
  EXPECT_EQ(r.plan.dp, 64);
  EXPECT_EQ(r.plan.zero, 3);
  EXPECT_EQ(r.globalBatch, 64);
  EXPECT_EQ(r.plan.stages[0].recompute, Recompute::Selective);
  ASSERT_EQ(r.approximated.size(), 1u);
  auto why = [&](const std::string& text, int devices) {
    try {
      importTorchtitan(text, "t.toml", stack(), devices);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why("[training]\nbatch_size = 1\n[bad\n", 8).substr(0, 15), "t.toml: line 3:");
  EXPECT_EQ(why("[training]\ndata_parallel_shard_degree = 3\n", 8),
            "t.toml: Invalid parallel dims: dp_replicate(1) * dp_shard(3) * cp(1) * tp(1) * pp(1) != WORLD_SIZE(8)");
  EXPECT_EQ(why("[training]\ndata_parallel_replicate_degree = 4\ndata_parallel_shard_degree = 1\ntensor_parallel_degree = 2\n", 8),
            "t.toml: DDP has not supported > 1D parallelism");
  EXPECT_EQ(why("[training]\ntensor_parallel_degree = 2\n[experimental]\nenable_async_tensor_parallel = true\n", 8),
            "t.toml: Async TP requires --training.compile");
  EXPECT_EQ(why("[training]\nbatch_size = 3\n[experimental]\npipeline_parallel_degree = 2\n"
                "pipeline_parallel_split_points = [\"layers.4\"]\n", 8),
            "t.toml: the local batch 3 does not split into pipeline_parallel_microbatches 2");
  EXPECT_EQ(why("[experimental]\npipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"layers.9\"]\n", 8),
            "t.toml: pipeline_parallel_split_points: 'layers.9' is not a layer after the one before (layers.1 .. layers.7)");
  EXPECT_EQ(why("[training]\nbatch_size = 1\n[activation_checkpoint]\nmode = 'most'\n", 8),
            "t.toml: [activation_checkpoint] mode must be none, selective or full, got 'most'");
}
