// Megatron-LM launch arguments: what a plan becomes (checked against the rules Megatron-LM's
// validate_args asserts), the plan read back from them (export -> import gives the same plan),
// the framework's own refusals, what cannot be expressed, and command lines with a launcher.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "launch_test_stack.h"
#include "launch/megatron_launch.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

// Eight GPT layers of sequence 256, hidden 1024, 8 heads, in bf16.
const LayerStack& stack() { return gptest::launchStack(); }

// A plan costed as Megatron-LM runs it.
ParallelPlan plan(int dp, int tp, int pp, int v, int microbatches, Recompute r = Recompute::None) {
  ParallelPlan p = gptest::launchPlan(dp, tp, pp, v, microbatches, r);
  p.training.framework = TrainingFramework::Megatron;
  return p;
}

LaunchFile exported(const ParallelPlan& p, int64_t batch) {
  LaunchContext ctx = gptest::launchContext(batch);
  ctx.stepSeconds = 1.25, ctx.peakGiB = 40.5;
  return exportMegatron(p, ctx);
}

// The value after `flag` in the export, "" for a switch, "absent" when it is not there.
std::string flag(const LaunchFile& f, const std::string& name) {
  const std::vector<std::string> w = shellWords(f.text);
  const auto it = std::find(w.begin(), w.end(), name);
  if (it == w.end()) return "absent";
  return it + 1 == w.end() || (it + 1)->starts_with("--") || *(it + 1) == "torchrun" ? "" : *(it + 1);
}

void expectSamePlan(const ParallelPlan& a, const ParallelPlan& b) {
  EXPECT_TRUE(sameKnobs(a, b)) << planChanges(a, b, 64);
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (size_t i = 0; i < a.stages.size(); ++i) {
    EXPECT_EQ(a.stages[i].first, b.stages[i].first) << i;
    EXPECT_EQ(a.stages[i].last, b.stages[i].last) << i;
    EXPECT_EQ(a.stages[i].recompute, b.stages[i].recompute) << i;
  }
}

}  // namespace

TEST(MegatronLaunch, APlanBecomesTheFlagsMegatronAssertsOn) {
  ParallelPlan p = plan(2, 2, 4, 1, 16, Recompute::Full);
  p.zero = 1, p.overlapParamGather = true, p.sequenceParallel = true, p.overlapTpComm = true, p.fp8 = true;
  const LaunchFile f = exported(p, 64);
  EXPECT_TRUE(f.inexact.empty());
  EXPECT_EQ(flag(f, "--num-layers"), "8");
  EXPECT_EQ(flag(f, "--hidden-size"), "1024");
  EXPECT_EQ(flag(f, "--num-attention-heads"), "8");
  EXPECT_EQ(flag(f, "--seq-length"), "256");
  EXPECT_EQ(flag(f, "--tensor-model-parallel-size"), "2");
  EXPECT_EQ(flag(f, "--pipeline-model-parallel-size"), "4");
  EXPECT_EQ(flag(f, "--context-parallel-size"), "absent");
  // global batch = micro-batch x micro-batches x dp: 2 x 16 x 2.
  EXPECT_EQ(flag(f, "--micro-batch-size"), "2");
  EXPECT_EQ(flag(f, "--global-batch-size"), "64");
  EXPECT_EQ(flag(f, "--recompute-granularity"), "full");
  EXPECT_EQ(flag(f, "--recompute-method"), "uniform");
  EXPECT_EQ(flag(f, "--recompute-num-layers"), "1");
  // --overlap-param-gather needs the distributed optimizer and --overlap-grad-reduce.
  EXPECT_EQ(flag(f, "--use-distributed-optimizer"), "");
  EXPECT_EQ(flag(f, "--overlap-grad-reduce"), "");
  EXPECT_EQ(flag(f, "--overlap-param-gather"), "");
  EXPECT_EQ(flag(f, "--sequence-parallel"), "");
  EXPECT_EQ(flag(f, "--tp-comm-overlap"), "");
  EXPECT_EQ(flag(f, "--fp8-format"), "hybrid");
  EXPECT_EQ(flag(f, "--bf16"), "");
  EXPECT_EQ(flag(f, "--attention-backend"), "auto");
  // The launcher: 16 GPUs as 2 nodes of 8, the arguments passed on.
  EXPECT_NE(f.text.find("torchrun --nproc-per-node 8 --nnodes 2 pretrain_gpt.py \"${GRAPHPLACE_ARGS[@]}\" \"$@\""),
            std::string::npos);
  EXPECT_NE(f.text.find("simulated step 1.250 s, peak 40.5 GiB per GPU"), std::string::npos);
  EXPECT_NE(f.text.find("core_r0.11.0"), std::string::npos);
}

TEST(MegatronLaunch, ExportThenImportGivesTheSamePlan) {
  std::vector<ParallelPlan> plans;
  plans.push_back(plan(16, 1, 1, 1, 4));  // data parallel only
  ParallelPlan p = plan(2, 2, 4, 1, 8, Recompute::Full);
  p.zero = 1, p.overlapParamGather = true, p.sequenceParallel = true, p.overlapTpComm = true;
  plans.push_back(p);
  p = plan(2, 1, 4, 2, 8, Recompute::Selective);  // interleaved: 8 chunks of 1 layer
  p.attention = AttentionImpl::Flash2, p.fp8 = true;
  plans.push_back(p);
  p = plan(2, 1, 2, 2, 4);  // interleaved at pp 2: with --overlap-p2p-comm
  p.attention = AttentionImpl::Unfused;
  plans.push_back(p);
  p = plan(8, 2, 1, 1, 2);  // FSDP2
  p.zero = 3, p.overlapParamGather = true;
  plans.push_back(p);
  p = plan(4, 1, 1, 1, 2);
  p.cp = 4;
  plans.push_back(p);
  p = plan(4, 1, 4, 1, 8);  // uneven: 1 layer first, 3 last, 2 between
  p.stages = {{0, 1, Recompute::None}, {1, 3, Recompute::None}, {3, 5, Recompute::None}, {5, 8, Recompute::None}};
  plans.push_back(p);
  for (const ParallelPlan& q : plans) {
    const int64_t batch = int64_t{q.dp} * q.microbatches * 2;
    const LaunchFile f = exported(q, batch);
    EXPECT_TRUE(f.inexact.empty()) << f.inexact.front();
    const LaunchImport back = importMegatron(f.text, "args.sh", stack(), q.devicesUsed());
    EXPECT_EQ(back.globalBatch, batch);
    EXPECT_EQ(back.seqLen, 256);
    EXPECT_TRUE(back.approximated.empty());
    expectSamePlan(q, back.plan);
  }
}

TEST(MegatronLaunch, RefusesWhatMegatronRejectsWithItsReason) {
  ParallelPlan p = plan(4, 1, 2, 1, 4);
  p.zero = 3;
  try {
    exported(p, 32);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "megatron: --use-torch-fsdp2 is not supported with pipeline parallelism (Megatron-LM core_r0.11.0, "
                 "megatron/training/arguments.py)");
  }
  p = plan(2, 1, 1, 1, 1);
  p.cp = 3;  // 256 is no multiple of 2 x 3
  EXPECT_THROW(exported(p, 2), Error);
  p = plan(8, 1, 1, 1, 1);
  p.expertParallel = true, p.zero = 3;
  EXPECT_THROW(exported(p, 8), Error);
}

TEST(MegatronLaunch, NamesWhatItCannotExpress) {
  ParallelPlan p = plan(2, 1, 2, 1, 4);
  p.zero = 2, p.schedule = PipeSchedule::GPipe;
  p.stages[0].recompute = Recompute::Full;  // stage 0 recomputes, stage 1 does not
  const LaunchFile f = exported(p, 16);
  ASSERT_EQ(f.inexact.size(), 3u);
  EXPECT_NE(f.inexact[0].find("GPipe"), std::string::npos);
  EXPECT_NE(f.inexact[1].find("recomputation that differs"), std::string::npos);
  EXPECT_NE(f.inexact[2].find("ZeRO-2"), std::string::npos);
  for (const std::string& n : f.inexact) EXPECT_NE(f.text.find("#   - " + n), std::string::npos);
  // Written as the nearest thing Megatron-LM runs: full recomputation everywhere, ZeRO-1.
  EXPECT_EQ(flag(f, "--recompute-granularity"), "full");
  EXPECT_EQ(flag(f, "--use-distributed-optimizer"), "");
}

TEST(MegatronLaunch, ReadsACommandLineWithItsLauncher) {
  const std::string cmd =
      "torchrun --nproc_per_node=8 --nnodes 2 --node_rank 0 pretrain_gpt.py \\\n"
      "  --num-layers 8 --hidden-size 1024 --num-attention-heads 8 --seq-length 256 \\\n"
      "  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel \\\n"
      "  --micro-batch-size 1 --global-batch-size 128 --use-distributed-optimizer --bf16 \\\n"
      "  --recompute-activations --data-path /data/my_text_document --lr 3e-4 --use-flash-attn\n";
  const LaunchImport r = importMegatron(cmd, "train.sh", stack(), 16);
  EXPECT_EQ(r.plan.dp, 4);
  EXPECT_EQ(r.plan.tp, 2);
  EXPECT_EQ(r.plan.pp, 2);
  EXPECT_EQ(r.plan.microbatches, 32);  // 128 / (1 x 4)
  EXPECT_EQ(r.globalBatch, 128);
  EXPECT_EQ(r.plan.zero, 1);
  EXPECT_TRUE(r.plan.sequenceParallel);
  EXPECT_EQ(r.plan.attention, AttentionImpl::Flash2);
  EXPECT_EQ(r.plan.stages[0].recompute, Recompute::Selective);
  // Bad input: one line naming the file and the problem.
  auto why = [&](const std::string& text, int devices) {
    try {
      importMegatron(text, "train.sh", stack(), devices);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why(cmd, 32), "train.sh: the launcher starts 16 processes (--nproc-per-node 8 x --nnodes 2); the cluster has 32 GPUs");
  EXPECT_EQ(why("--num-layers 80 --micro-batch-size 1", 8), "train.sh: --num-layers 80 but the model has 8 layers");
  EXPECT_EQ(why("--tensor-model-parallel-size 3 --micro-batch-size 1", 8),
            "train.sh: world size (8) is not divisible by tensor (3) x pipeline (1) x context (1) parallel sizes");
  EXPECT_EQ(why("--micro-batch-size 3 --global-batch-size 10", 2),
            "train.sh: global batch size (10) is not divisible by micro batch size (3) times data parallel size (2)");
  EXPECT_EQ(why("--tensor-model-parallel-size 2", 8), "train.sh: --micro-batch-size is missing (Megatron-LM asserts it is given)");
  EXPECT_EQ(why("--micro-batch-size two", 8), "train.sh: --micro-batch-size wants a whole number, got 'two'");
  EXPECT_EQ(why("{\"train_batch_size\": 8}", 8),
            "train.sh: no Megatron-LM arguments (--tensor-model-parallel-size, --micro-batch-size, ...) found");
  EXPECT_EQ(why("--micro-batch-size 1 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 2", 8),
            "train.sh: when the interleaved schedule is used, pipeline-model-parallel size should be greater than 2 (or 1 "
            "with --overlap-p2p-comm)");
  EXPECT_EQ(why("--micro-batch-size 1 --overlap-param-gather --use-distributed-optimizer", 8),
            "train.sh: Must use --overlap-param-gather with --overlap-grad-reduce");
}

TEST(MegatronLaunch, ShellWordsReadExportsAndCommandLines) {
  EXPECT_EQ(shellWords("ARGS=(\n  --a 1  # note\n  --b \"x y\"\n)\nrun \"${ARGS[@]}\""),
            (std::vector<std::string>{"--a", "1", "--b", "x y", "run", "${ARGS[@]}"}));
  EXPECT_EQ(shellWords("a \\\n b;c"), (std::vector<std::string>{"a", "b", "c"}));
}
