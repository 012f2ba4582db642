// torchtitan's Python configuration (torchtitan b5bcd76): what a plan becomes, the plan read back
// (export -> import gives the same plan), the schedule CSV, torchtitan's refusals and bad input.
#include <gtest/gtest.h>

#include "base/error.h"
#include "launch_test_stack.h"
#include "parallel/plan_knobs.h"
#include "launch/torchtitan_py_launch.h"

using namespace gp;

namespace {

const LayerStack& stack() { return gptest::launchStack(); }

// A plan costed as torchtitan runs it.
ParallelPlan plan(int dp, int tp, int pp, int v, int microbatches, Recompute r = Recompute::Full) {
  ParallelPlan p = gptest::launchPlan(dp, tp, pp, v, microbatches, r, /*torchtitan=*/true);
  p.training.framework = TrainingFramework::Torchtitan;
  return p;
}

LaunchFile exported(const ParallelPlan& p, int64_t batch) { return exportTorchtitanPython(p, gptest::launchContext(batch)); }

std::string why(const std::string& text, int devices) {
  try {
    importTorchtitanPython(text, "plan.py", stack(), devices);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST(TorchtitanPythonLaunch, ExportThenImportGivesTheSamePlan) {
  std::vector<ParallelPlan> plans;
  ParallelPlan p = plan(16, 1, 1, 1, 4);  // FSDP with gradient accumulation, FP8
  p.zero = 3, p.overlapParamGather = true, p.fp8 = true;
  plans.push_back(p);
  p = plan(4, 2, 1, 1, 1, Recompute::None);  // replicas beside TP (HSDP with one shard)
  plans.push_back(p);
  p = plan(2, 2, 4, 1, 8);  // FSDP + TP + PP
  p.zero = 1;
  plans.push_back(p);
  p = plan(2, 1, 4, 2, 8, Recompute::Selective);  // interleaved
  p.zero = 1;
  plans.push_back(p);
  p = plan(4, 1, 4, 1, 4);  // uneven stages, GPipe
  p.zero = 1, p.schedule = PipeSchedule::GPipe;
  p.stages = {{0, 1, Recompute::Full}, {1, 3, Recompute::Full}, {3, 5, Recompute::Full}, {5, 8, Recompute::Full}};
  plans.push_back(p);
  for (const ParallelPlan& q : plans) {
    const int64_t batch = int64_t{q.dp} * q.microbatches * 2;
    const LaunchFile f = exported(q, batch);
    const bool selective = q.stages[0].recompute == Recompute::Selective;
    EXPECT_EQ(f.inexact.size(), selective ? 1u : 0u) << f.text;
    const LaunchImport back = importTorchtitanPython(f.text, "plan.py", stack(), q.devicesUsed());
    EXPECT_EQ(back.globalBatch, batch);
    EXPECT_EQ(back.seqLen, 256);
    EXPECT_EQ(back.approximated.size(), (q.pp > 1 ? 1u : 0u) + (selective ? 1u : 0u))
        << (back.approximated.empty() ? "" : back.approximated.front());
    EXPECT_TRUE(sameKnobs(q, back.plan)) << planChanges(q, back.plan, batch) << "\n" << f.text;
    ASSERT_EQ(q.stages.size(), back.plan.stages.size());
    for (size_t i = 0; i < q.stages.size(); ++i) {
      EXPECT_EQ(q.stages[i].first, back.plan.stages[i].first);
      EXPECT_EQ(q.stages[i].recompute, back.plan.stages[i].recompute);
    }
    EXPECT_EQ(f.companion.empty(), q.pp == 1);
  }
  const LaunchFile f = exported(plans[2], 32);
  for (const char* line :
       {"config.training.num_tokens_per_microbatch_per_dp_rank = 512", "config.training.num_tokens_per_train_step = 8192",
        "config.parallelism.data_parallel_shard_degree = 2", "config.parallelism.num_pp_microbatches = 8",
        "config.parallelism.module_fqns_per_model_part = [[\"tok_embeddings\", \"layers.0\", \"layers.1\"], [\"layers.2\", "
        "\"layers.3\"], [\"layers.4\", \"layers.5\"], [\"layers.6\", \"layers.7\", \"norm\", \"lm_head\"]]",
        "config.parallelism.pipeline_parallel_schedule_csv = os.path.splitext(__file__)[0] + \"_schedule.csv\"",
        "config.activation_checkpoint = FullAC.Config()"})
    EXPECT_NE(f.text.find(line), std::string::npos) << line << "\n" << f.text;
}

// 1F1B on 2 ranks with 3 micro-batches: rank 0 warms up with 2 forwards, rank 1 with 1.
TEST(TorchtitanPythonLaunch, ScheduleCsvIsEachRanksPassOrder) {
  ParallelPlan p = plan(1, 1, 2, 1, 3);
  EXPECT_EQ(torchtitanScheduleCsv(p), "0F0,0F1,0B0,0F2,0B1,0B2\n1F0,1B0,1F1,1B1,1F2,1B2\n");
  p = plan(1, 1, 2, 1, 2);
  p.schedule = PipeSchedule::GPipe;
  EXPECT_EQ(torchtitanScheduleCsv(p), "0F0,0F1,0B1,0B0\n1F0,1F1,1B1,1B0\n");  // our GPipe: backwards last in, first out
  // Interleaved: rank 0 holds stages 0 and 2.
  p = plan(1, 1, 2, 2, 2);
  EXPECT_EQ(torchtitanScheduleCsv(p).substr(0, 8), "0F0,0F1,");
  EXPECT_NE(torchtitanScheduleCsv(p).find("2F0"), std::string::npos);
}

TEST(TorchtitanPythonLaunch, RefusesWhatTorchtitanRejectsAndBadInput) {
  ParallelPlan p = plan(8, 1, 1, 1, 1);
  p.overlapTpComm = true;
  EXPECT_THROW(exported(p, 8), Error);
  EXPECT_EQ(why("config.parallelism.data_parallel_shard_degree = 3\n", 8),
            "plan.py: Invalid parallel dims: dp_replicate(1) * dp_shard(3) * cp(1) * tp(1) * pp(1) != WORLD_SIZE(8)");
  EXPECT_EQ(why("config.parallelism.tensor_parallel_degree = two\n", 8),
            "plan.py: config.parallelism.tensor_parallel_degree must be an integer literal -1 .. 2^40, got 'two'");
  EXPECT_EQ(why("config.parallelism.expert_parallel_degree = 3\nconfig.parallelism.data_parallel_shard_degree = 8\n", 8),
            "plan.py: expert_parallel_degree (3) must divide dp_shard * cp * tp (8)");
  EXPECT_EQ(why("config.parallelism.tensor_parallel_degree = 2\nconfig.compile.enable_async_tensor_parallel = True\n", 8),
            "plan.py: Async TP requires compile.enable");
  EXPECT_EQ(why("config.parallelism.pipeline_parallel_degree = 2\n"
                "config.parallelism.module_fqns_per_model_part = [[\"layers.0\"], [\"layers.2\"]]\n",
                8),
            "plan.py: module_fqns_per_model_part: 'layers.2' is not the next of the model's 8 layers");
  EXPECT_EQ(why("config.parallelism.tensor_parallel_degree = 1\nconfig.training.num_tokens_per_microbatch_per_dp_rank = 300\n"
                "config.training.max_context_length = 256\n",
                8),
            "plan.py: num_tokens_per_microbatch_per_dp_rank 300 is not a whole number of 256-token samples");
  EXPECT_EQ(why("config.parallelism.tensor_parallel_degree = 1\nconfig.activation_checkpoint = Most()\n", 8),
            "plan.py: config.activation_checkpoint must be FullAC.Config(), SelectiveAC.Config(), MemoryBudgetAC.Config() or "
            "None, got 'Most()'");
  EXPECT_EQ(why("x = 1\n", 8), "plan.py: no torchtitan config.parallelism settings found");
  // A recipe that sets only part of the plan: torchtitan's defaults fill the rest.
  const LaunchImport r = importTorchtitanPython(
      "def f(config):\n    config.parallelism.tensor_parallel_degree = 2  # TP\n    config.training.max_context_length = 256\n", "r.py",
      stack(), 16);
  EXPECT_EQ(r.plan.dp, 8);
  EXPECT_EQ(r.plan.zero, 3);
  EXPECT_EQ(r.plan.stages[0].recompute, Recompute::Selective);  // Trainer.Config's default
  EXPECT_EQ(r.globalBatch, 8 * 64);                             // 16384 tokens per micro-batch
}
