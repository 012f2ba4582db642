// What a training step keeps for backward and what a fused attention kernel costs, against
// closed forms: Korthikanti et al. (2022)'s activation memory per GPT layer under tensor and
// sequence parallelism and selective recomputation, FlashAttention's kept output and softmax
// statistics, the fused kernel's time, and the attention cores found in the zoo's models.
#include <gtest/gtest.h>

#include "cost/cost_model.h"
#include "graph/precision.h"
#include "gpt_layer_task.h"
#include "optimize/parallel_corpus.h"
#include "parallel/attention_core.h"
#include "parallel/parallel_search.h"
#include "test_clusters.h"
#include "zoo/decoder_model.h"
#include "zoo/zoo.h"

using namespace gp;

namespace {

constexpr double kS = 256, kH = 1024, kA = 8;  // sequence, hidden, heads (of 128)

struct GptLayer : gptest::GptLayerTask {
  PartCost layer(int tp, bool sp, AttentionImpl attention) const {
    ParallelPlan p;
    p.dp = 4 / tp, p.tp = tp, p.sequenceParallel = sp, p.attention = attention;
    return GptLayerTask::layer(p, 1);
  }
};

}  // namespace

TEST(ActivationMemory, GptLayerKeepsKorthikantisBytes) {
  const GptLayer t;
  ASSERT_EQ(t.st.numLayers(), 4);
  EXPECT_EQ(t.st.seqLen, 256);
  ASSERT_EQ(t.st.layers[1].attention.size(), 1u);
  EXPECT_TRUE(t.st.layers[1].attention[0].causal);
  const double sh = kS * kH, as2 = kA * kS * kS;
  for (double tp : {1.0, 2.0, 4.0}) {
    const int t_ = static_cast<int>(tp);
    // 16-bit, no dropout: LayerNorm inputs 4sh, the QKV and MLP products' inputs 4sh (whole);
    // Q, K, V 6sh, the projection's input 2sh, GELU's input and output 16sh (split); the
    // probabilities 2as^2 (split).
    const PartCost unfused = t.layer(t_, false, AttentionImpl::Unfused);
    EXPECT_DOUBLE_EQ(unfused.saved, 8 * sh + 24 * sh / tp + 2 * as2 / tp) << "tp " << tp;
    EXPECT_DOUBLE_EQ(unfused.savedSelective, 8 * sh + 24 * sh / tp) << "tp " << tp;
    // FlashAttention keeps its output, which is the projection's input (counted once), and one
    // f32 per softmax row (4as) instead of the probabilities.
    const PartCost flash = t.layer(t_, false, AttentionImpl::Flash);
    EXPECT_DOUBLE_EQ(flash.saved, 8 * sh + 24 * sh / tp + 4 * kA * kS / tp) << "tp " << tp;
    EXPECT_DOUBLE_EQ(flash.savedSelective, flash.saved);
    if (t_ == 1) continue;
    // Sequence parallelism divides the whole tensors by tp too: 32sh/t + 2as^2/t.
    const PartCost sp = t.layer(t_, true, AttentionImpl::Unfused);
    EXPECT_DOUBLE_EQ(sp.saved, (32 * sh + 2 * as2) / tp) << "tp " << tp;
    EXPECT_DOUBLE_EQ(sp.savedSelective, 32 * sh / tp) << "tp " << tp;
    EXPECT_DOUBLE_EQ(t.layer(t_, true, AttentionImpl::Flash).saved, 32 * sh / tp + 4 * kA * kS / tp) << "tp " << tp;
    // The layer's input, all that full recomputation keeps: 2sh in 16-bit, / tp under SP.
    EXPECT_DOUBLE_EQ(unfused.input, 2 * sh);
    EXPECT_DOUBLE_EQ(sp.input, 2 * sh / tp);
  }
}

TEST(ActivationMemory, SelectiveRecomputationRepeatsOnlyTheUnfusedAttentionCores) {
  const GptLayer t;
  const PartCost unfused = t.layer(2, false, AttentionImpl::Unfused);
  EXPECT_GT(unfused.coreForward, 0);
  EXPECT_LT(unfused.coreForward, unfused.forward);
  const double none = unfused.backwardTime(Recompute::None);
  EXPECT_NEAR(unfused.backwardTime(Recompute::Selective) - none, unfused.coreForward, 1e-9 * none);
  EXPECT_NEAR(unfused.backwardTime(Recompute::Full) - none, unfused.forwardTime(), 1e-9 * none);
  // A fused core recomputes its probabilities anyway: selective recomputation adds nothing.
  const PartCost flash = t.layer(2, false, AttentionImpl::Flash);
  EXPECT_EQ(flash.coreForward, 0);
  EXPECT_DOUBLE_EQ(flash.backwardTime(Recompute::Selective), flash.backwardTime(Recompute::None));
}

// Forward: half the FLOPs (causal) at 80 % of the GEMM rate; backward 2.5 x the FLOPs over twice
// the bytes at 70 %.
TEST(FusedAttention, IsOneKernelOfHalfTheFlopsWhenCausalAndTwoAndAHalfInBackward) {
  LayerStack st;
  st.model = "one core";
  StackPart layer;
  layer.name = "layer_0";
  StackAttention a;
  a.flops = 4e12, a.ioBytes = 3e9, a.dtype = DType::BF16, a.causal = true, a.sharded = true;
  layer.attention.push_back(a);
  st.layers.push_back(layer);
  const Graph g = makeZooModel("gpt_1_3b", {1, 64, 2, 256, 0});
  const Cluster c = loadCluster("8xH100-NVSwitch");
  const CostModel cost(g, c);
  const StageCostModel model(st, cost);
  for (int tp : {1, 2}) {
    const PartTimes t = model.partTimes(0, 2, tp, 1, false, AttentionImpl::Flash, false, 0);
    const double flops = 2 * 4e12 / tp * 0.5;
    const auto bytes = static_cast<int64_t>(2 * 3e9 / tp);
    EXPECT_DOUBLE_EQ(t.forward, cost.fusedTime(flops / 0.8, bytes, OpClass::MatMul, DType::BF16, 0)) << "tp " << tp;
    EXPECT_DOUBLE_EQ(t.backward, cost.fusedTime(2.5 * flops / 0.7, 2 * bytes, OpClass::MatMul, DType::BF16, 0)) << "tp " << tp;
    EXPECT_EQ(model.partTimes(0, 2, tp, 1, false, AttentionImpl::Unfused, false, 0).forward, 0);  // no unfused ops: nothing
  }
}

TEST(AttentionCores, ZooModelsHaveOnePerAttentionAndKnowWhichAreCausal) {
  struct Case {
    std::string model;
    size_t cores;
    size_t causal;
  };
  for (const Case& k : {Case{"gpt_1_3b", 2, 2}, Case{"bert_base", 2, 0}, Case{"llama3_8b", 2, 2}, Case{"t5_base", 6, 2}}) {
    const Graph g = makeZooModel(k.model, {1, 64, 2, 0, 0});
    const std::vector<AttentionCore> cores = findAttentionCores(g);
    size_t causal = 0;
    for (const AttentionCore& a : cores) {
      causal += a.causal;
      EXPECT_GE(a.ops.size(), 3u) << k.model;
      EXPECT_EQ(a.ops.front(), a.scores);
      EXPECT_EQ(a.ops.back(), a.context);
      EXPECT_EQ(g.shape(a.q).back(), g.shape(a.k).back()) << k.model;  // head dimension
      EXPECT_EQ(g.tensorBytes(a.out), g.tensorBytes(a.q)) << k.model;
    }
    // t5_base with 2 layers: encoder self-attention x 2, decoder self (causal) and cross x 2.
    EXPECT_EQ(cores.size(), k.cores) << k.model;
    EXPECT_EQ(causal, k.causal) << k.model;
  }
}

// Megatron-LM's published GPT-3 175B layout on H100s (tp 4 x pp 8, micro-batch 1, sequence
// 2048, 1F1B, the distributed optimizer as ZeRO-1) on 64 GPUs: with fused attention and
// sequence parallelism, as it is run, every stage fits an 80 GB H100 without recomputation;
// with unfused attention and without sequence parallelism the first stage does not.
TEST(ActivationMemory, PublishedGpt175bLayoutFitsWithFusedAttentionAndSequenceParallelism) {
  const auto task = zooParallelTask("gpt_175b", {}, "8x8xH100-IB", 256);
  ParallelPlan p;
  p.dp = 2, p.tp = 4, p.pp = 8, p.microbatches = 128, p.zero = 1, p.sequenceParallel = true;
  p.stages = evenStages(task->stack.numLayers(), 8);
  ASSERT_EQ(parallelPlanProblem(task->stack, task->c, 256, p), "");
  const ParallelMeasurement fused = simulateParallel(task->model, 256, p);
  EXPECT_TRUE(fused.feasible) << fused.problem;
  p.sequenceParallel = false, p.attention = AttentionImpl::Unfused;
  const ParallelMeasurement unfused = simulateParallel(task->model, 256, p);
  EXPECT_FALSE(unfused.feasible);
  EXPECT_GT(unfused.stages[0].activationMemory, 2 * fused.stages[0].activationMemory);
  EXPECT_EQ(unfused.stages[0].staticMemory, fused.stages[0].staticMemory);
  // Selective recomputation brings the unfused plan to the fused one's activations, less the
  // fused kernel's output and statistics (both without sequence parallelism), and costs time.
  p.attention = AttentionImpl::Flash;
  const ParallelMeasurement fusedNoSp = simulateParallel(task->model, 256, p);
  p.attention = AttentionImpl::Unfused;
  for (PipeStage& s : p.stages) s.recompute = Recompute::Selective;
  const ParallelMeasurement selective = simulateParallel(task->model, 256, p);
  EXPECT_LT(selective.stages[0].activationMemory, fusedNoSp.stages[0].activationMemory);
  EXPECT_GT(selective.stages[0].activationMemory, 0.9 * static_cast<double>(fusedNoSp.stages[0].activationMemory));
  EXPECT_GT(selective.stepTime, unfused.stepTime);
}

// A Llama layer (RMSNorm, rotary, grouped-query attention, SwiGLU) in bf16 keeps, per token:
// both norms' inputs and outputs, Q, K and V after the rotary embedding, the attention output
// (the projection's input), the gate product, SiLU's output, the up product and their product:
// 2h x 6 + K and V at the key width + 2f x 4, and FlashAttention's one f32 per softmax row.
// The rotary products keep only their cos / sin tables (graph inputs, not counted): autograd
// saves a product's input only for another input that needs a gradient.
TEST(ActivationMemory, LlamaLayerKeepsTheHandCount) {
  zoo::DecoderConfig cfg;
  cfg.name = "llama";
  cfg.hidden = 512, cfg.layers = 3, cfg.heads = 8, cfg.kvHeads = 2, cfg.headDim = 64, cfg.intermediate = 1376;
  cfg.vocab = 1000;
  const int64_t s = 128;
  const Graph g = withPrecision(zoo::decoderModel(cfg, 1, s), Precision::BF16);
  const LayerStack st = detectLayerStack(g, "llama");
  ASSERT_EQ(st.numLayers(), 3);
  const Cluster c = gptest::toyCluster(80, 1);
  const CostModel cost{g, c, gptest::exactCosts()};
  const StageCostModel model{st, cost};
  ParallelPlan p;
  p.stages = evenStages(st.numLayers(), 1);
  const std::vector<int> devices = planDevices(p, c);
  const PartCost layer = model.partCost(p, 1, 1, devices[0], stageGroups(p, devices, 0));
  const double h = 512, kv = 2 * 64, f = 1376;
  EXPECT_DOUBLE_EQ(layer.saved, s * (2 * h * 6 + 2 * 2 * kv + 2 * f * 4) + 4.0 * 8 * s);
}
