// NeMo configurations: the Megatron-LM settings under NeMo 2.0's recipe names and NeMo 1.x's YAML
// keys, the same refusals (named for the target), and what NeMo 1.x cannot express beyond them.
#include <gtest/gtest.h>

#include "base/error.h"
#include "launch_test_stack.h"
#include "launch/launch_formats.h"
#include "launch/nemo_launch.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

LaunchContext context(const LayerStack&, int64_t batch) { return gptest::launchContext(batch); }

}  // namespace

TEST(NemoLaunch, RecipeOverridesAndYamlKeysCarryThePlan) {
  const struct {
    const LayerStack& st = gptest::launchStack();
  } s;
  ParallelPlan p;
  p.dp = 2, p.tp = 2, p.pp = 4, p.virtualStages = 2, p.microbatches = 8, p.zero = 1, p.overlapParamGather = true;
  p.sequenceParallel = true, p.overlapTpComm = true, p.fp8 = true;
  p.stages = evenStages(s.st.numLayers(), 8, Recompute::Full);
  const LaunchFile two = exportNemo(p, context(s.st, 32));
  EXPECT_TRUE(two.inexact.empty());
  for (const char* line : {"recipe.trainer.devices = 8", "recipe.trainer.num_nodes = 2",
                           "recipe.trainer.strategy.tensor_model_parallel_size = 2",
                           "recipe.trainer.strategy.pipeline_model_parallel_size = 4",
                           "recipe.trainer.strategy.virtual_pipeline_model_parallel_size = 2",
                           "recipe.trainer.strategy.sequence_parallel = True", "recipe.data.micro_batch_size = 2",
                           "recipe.data.global_batch_size = 32", "recipe.model.config.recompute_granularity = \"full\"",
                           "recipe.model.config.recompute_method = \"uniform\"", "recipe.optim.config.use_distributed_optimizer = True",
                           "recipe.trainer.strategy.ddp.overlap_param_gather = True", "recipe.trainer.plugins = bf16_with_fp8_mixed()",
                           "recipe.model.config.attention_backend = AttnBackend.auto",
                           "run.Config(MegatronCommOverlapCallback, tp_comm_overlap=True))", "def apply_graphplace_plan(recipe):"})
    EXPECT_NE(two.text.find(line), std::string::npos) << line << "\n" << two.text;
  const LaunchFile one = exportNemo1(p, context(s.st, 32));
  EXPECT_TRUE(one.inexact.empty());
  for (const char* line : {"trainer:\n  devices: 8\n  num_nodes: 2\n  precision: bf16\n", "  micro_batch_size: 2\n",
                           "  global_batch_size: 32\n", "  virtual_pipeline_model_parallel_size: 2\n", "  sequence_parallel: true\n",
                           "  activations_checkpoint_granularity: full\n", "  fp8: true\n", "  ub_tp_comm_overlap: true\n",
                           "    name: distributed_fused_adam\n", "    overlap_param_sync: true\n"})
    EXPECT_NE(one.text.find(line), std::string::npos) << line << "\n" << one.text;
}

TEST(NemoLaunch, RefusesAsMegatronDoesAndNamesWhatYamlCannotExpress) {
  const struct {
    const LayerStack& st = gptest::launchStack();
  } s;
  ParallelPlan p;
  p.dp = 2, p.pp = 4, p.microbatches = 4, p.zero = 3;
  p.stages = evenStages(s.st.numLayers(), 4);
  try {
    exportNemo(p, context(s.st, 16));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("nemo: --use-torch-fsdp2 is not supported with pipeline parallelism")) << e.what();
  }
  p.zero = 1;
  p.stages = {{0, 1, Recompute::None}, {1, 3, Recompute::None}, {3, 5, Recompute::None}, {5, 8, Recompute::None}};
  const LaunchFile two = exportNemo(p, context(s.st, 16));
  EXPECT_NE(two.text.find("recipe.trainer.strategy.num_layers_in_first_pipeline_stage = 1"), std::string::npos) << two.text;
  const LaunchFile one = exportNemo1(p, context(s.st, 16));
  ASSERT_EQ(one.inexact.size(), 1u);
  EXPECT_NE(one.inexact[0].find("uneven first / last stages"), std::string::npos);
}

// NeMo 2.0 overrides read back: the same plan, through Megatron-LM's checks; bad values name
// NeMo's field.
TEST(NemoLaunch, RecipeOverridesReadBackAsThePlan) {
  ParallelPlan p = gptest::launchPlan(2, 2, 2, 2, 8, Recompute::Full);
  p.sequenceParallel = true, p.overlapTpComm = true, p.zero = 1;
  p.training.framework = TrainingFramework::Megatron;  // NeMo trains through Megatron-Core
  const LaunchFile f = exportNemo(p, gptest::launchContext(64));
  ASSERT_TRUE(f.inexact.empty()) << f.inexact.front();
  const LaunchImport back = importLaunchConfig(f.text, "recipe.py", gptest::launchStack(), 16);
  EXPECT_EQ(back.globalBatch, 64);
  EXPECT_TRUE(sameKnobs(p, back.plan)) << planChanges(p, back.plan, 64) << "\n" << f.text;
  auto why = [](const std::string& text) {
    try {
      importNemo(text, "r.py", gptest::launchStack(), 16);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why("def f(recipe):\n    recipe.data.global_batch_size = compute()\n"),
            "r.py: recipe.data.global_batch_size must be a literal, got 'compute()'");
  EXPECT_EQ(why("    recipe.trainer.strategy.sequence_parallel = yes\n    recipe.data.global_batch_size = 8\n"),
            "r.py: recipe.trainer.strategy.sequence_parallel must be True or False, got 'yes'");
  EXPECT_EQ(why("    recipe.trainer.max_steps = 10\n"),
            "r.py: no NeMo recipe settings (recipe.trainer.strategy..., recipe.data...) found");
}

// NeMo 1.x YAML read back: the same plan; YAML that does not parse is one line with its line.
TEST(NemoLaunch, YamlReadsBackAsThePlan) {
  ParallelPlan p = gptest::launchPlan(2, 2, 4, 1, 8, Recompute::Full);
  p.sequenceParallel = true, p.zero = 1, p.overlapParamGather = true;
  p.training.framework = TrainingFramework::Megatron;
  const LaunchFile f = exportNemo1(p, gptest::launchContext(64));
  const LaunchImport back = importLaunchConfig(f.text, "megatron_gpt_config.yaml", gptest::launchStack(), 16);
  EXPECT_EQ(back.globalBatch, 64);
  EXPECT_EQ(back.seqLen, 256);
  EXPECT_EQ(launchConfigSeqLength(f.text), 256);
  EXPECT_TRUE(back.approximated.empty()) << back.approximated.front();
  EXPECT_TRUE(sameKnobs(p, back.plan)) << planChanges(p, back.plan, 64) << "\n" << f.text;
  auto why = [](const std::string& text) {
    try {
      importNemo1(text, "c.yaml", gptest::launchStack(), 16);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why("model:\n  tensor_model_parallel_size: [1\n").substr(0, 14), "c.yaml: line 3");
  EXPECT_EQ(why("model:\n  sequence_parallel: maybe\n  tensor_model_parallel_size: 2\n  micro_batch_size: 1\n"),
            "c.yaml: model.sequence_parallel must be true or false, got 'maybe'");
  EXPECT_EQ(why(std::string(200, '[')), "c.yaml: the YAML nests deeper than a NeMo configuration does");
  EXPECT_EQ(why("trainer:\n  devices: 8\n"), "c.yaml: no NeMo 1.x model: section with parallel sizes found");
}
