// Parallel training plans against closed forms: the pipeline bubble (p-1)/(m+p-1) on uniform
// stages, ring and hierarchical all-reduce times from the cluster's own link figures, ZeRO's
// memory per stage, the plan rules' one-line reasons, and a plan file's round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "base/error.h"
#include "cost/cost_model.h"
#include "graph/precision.h"
#include "optimize/parallel_corpus.h"
#include "parallel/memory_verdict.h"
#include "parallel/parallel_search.h"
#include "parallel/plan_knobs.h"
#include "test_clusters.h"
#include "test_graphs.h"
#include "uniform_stack.h"
#include "zoo/layers.h"
#include "zoo/zoo.h"

using namespace gp;
using gptest::ToyModel;
using gptest::uniformStack;


TEST(ParallelPipeline, BubbleShareIsExactlyTheClosedFormOnUniformStages) {
  const LayerStack st = uniformStack(8);
  for (PipeSchedule sched : {PipeSchedule::GPipe, PipeSchedule::OneFOneB})
    for (int pp : {2, 4, 8})
      for (int m : {1, 3, 8, 16}) {
        ToyModel t(pp);
        const StageCostModel model(st, t.cost);
        ParallelPlan plan;
        plan.pp = pp, plan.microbatches = m, plan.schedule = sched;
        plan.stages = evenStages(st.numLayers(), pp);
        const ParallelMeasurement r = simulateParallel(model, m, plan, {true, false});
        ASSERT_TRUE(r.feasible) << r.problem;
        const double expected = static_cast<double>(pp - 1) / (m + pp - 1);
        EXPECT_NEAR(r.bubbleShare, expected, 1e-12) << pipeScheduleName(sched) << " pp " << pp << " m " << m;
        // Step = (m + p - 1) x (forward + backward) of one stage; backward = 2 x forward.
        const double pass = 3 * (8 / pp) * model.partForward(0, 1, 1, 0);
        EXPECT_NEAR(r.stepTime, (m + pp - 1) * pass, 1e-12 * r.stepTime);
        int passes = 0, sends = 0, updates = 0;
        for (const PipelineEvent& e : r.events) {
          passes += e.kind == PipelineEvent::Kind::Forward || e.kind == PipelineEvent::Kind::Backward;
          sends += e.kind == PipelineEvent::Kind::Send;
          updates += e.kind == PipelineEvent::Kind::Update;
        }
        EXPECT_EQ(passes, 2 * m * pp);
        // The step's breakdown: m passes of compute and (p - 1) passes of bubble on the last stage.
        const StepBreakdown& b = r.breakdown;
        EXPECT_NEAR(b.compute, m * pass, 1e-12 * r.stepTime);
        EXPECT_NEAR(b.bubble, (pp - 1) * pass, 1e-12 * r.stepTime);
        EXPECT_EQ(b.recompute + b.passComm + b.optimizer, 0);
        EXPECT_NEAR(b.compute + b.bubble + b.dpExposed, r.stepTime, 1e-12 * r.stepTime);
        EXPECT_EQ(sends, 2 * m * (pp - 1));  // empty: nothing crosses a stage boundary
        EXPECT_EQ(updates, pp);
      }
}

TEST(ParallelPipeline, OneFOneBKeepsFewerMicrobatchesInFlightThanGPipe) {
  ToyModel t(4);
  LayerStack st = uniformStack(4);
  for (StackPart& p : st.layers) p.ops[0].savedBytes = 1e6;
  const StageCostModel model(st, t.cost);
  ParallelPlan plan;
  plan.pp = 4, plan.microbatches = 16, plan.stages = evenStages(4, 4);
  plan.schedule = PipeSchedule::GPipe;
  const auto gpipe = simulateParallel(model, 16, plan);
  plan.schedule = PipeSchedule::OneFOneB;
  const auto ofob = simulateParallel(model, 16, plan);
  // GPipe keeps all 16 micro-batches' activations; 1F1B keeps pp - stage of them.
  EXPECT_EQ(gpipe.stages[0].activationMemory, 16'000'000);
  EXPECT_EQ(ofob.stages[0].activationMemory, 4'000'000);
  EXPECT_EQ(ofob.stages[3].activationMemory, 1'000'000);
}

TEST(ParallelCollectives, RingAllReduceInsideOneNvSwitchServer) {
  const Cluster c = loadCluster("8xH100-NVSwitch");
  const std::vector<int> servers = serverOf(c);
  const std::vector<std::vector<int>> group{{0, 1, 2, 3, 4, 5, 6, 7}};
  const double S = 1 << 30;
  const CollectiveCost ar = collectiveCost(c, Collective::AllReduce, group, S, servers);
  const double bw = c.routeBandwidth(0, 1), lat = c.routeLatency(0, 1);
  EXPECT_NEAR(ar.time, 2.0 * 7 / 8 * S / bw + 14 * lat, 1e-12);
  EXPECT_FALSE(ar.hierarchical);
  const CollectiveCost ag = collectiveCost(c, Collective::AllGather, group, S, servers);
  EXPECT_NEAR(ag.time, 7.0 / 8 * S / bw + 7 * lat, 1e-12);
  // Two rings at once on disjoint GPUs do not slow each other down.
  const std::vector<std::vector<int>> two{{0, 1, 2, 3}, {4, 5, 6, 7}};
  EXPECT_NEAR(collectiveCost(c, Collective::AllReduce, two, S, servers).time, 2.0 * 3 / 4 * S / bw + 6 * lat, 1e-12);
}

TEST(ParallelCollectives, AllToAllLoadsEachGpuLinkWithWhatItSends) {
  const Cluster c = loadCluster("8xH100-NVSwitch");
  const std::vector<std::vector<int>> group{{0, 1, 2, 3, 4, 5, 6, 7}};
  const double S = 1 << 30;
  // Every GPU sends S/8 to each of 7 others through its one NVSwitch link.
  const CollectiveCost a2a = collectiveCost(c, Collective::AllToAll, group, S, serverOf(c));
  EXPECT_NEAR(a2a.time, 7.0 / 8 * S / c.routeBandwidth(0, 1) + c.routeLatency(0, 1), 1e-12);
}

TEST(ParallelCollectives, AllReduceAcrossServersRunsHierarchically) {
  const Cluster c = loadCluster("2x8xH100-IB");
  const std::vector<int> servers = serverOf(c);
  std::vector<std::vector<int>> group(1);
  for (int d : serverOrder(c)) group[0].push_back(d);
  const double S = 1 << 30;
  const CollectiveCost ar = collectiveCost(c, Collective::AllReduce, group, S, servers);
  const int a0 = group[0][0], a1 = group[0][1], b0 = group[0][8];
  const double intraBw = c.routeBandwidth(a0, a1), intraLat = c.routeLatency(a0, a1);
  const double interBw = c.routeBandwidth(a0, b0), interLat = c.routeLatency(a0, b0);
  // Reduce-scatter inside each server, all-reduce of S/8 between the two servers (8 rings of
  // two, each GPU on its own NIC), all-gather inside each server.
  const double intra = 7.0 / 8 * S / intraBw + 7 * intraLat;
  const double inter = 2.0 * 1 / 2 * (S / 8) / interBw + 2 * interLat;
  EXPECT_TRUE(ar.hierarchical);
  EXPECT_NEAR(ar.time, intra + inter + intra, 1e-12);
  // The flat ring would cross the network with the whole tensor.
  EXPECT_GT(2.0 * 15 / 16 * S / interBw, ar.time);
}

TEST(ParallelMemory, ZeroStagesFollowTheZeroPaper) {
  const TrainingBytes mixed = trainingBytesFor(DType::BF16);
  EXPECT_EQ(mixed.weight, 2);
  EXPECT_EQ(mixed.grad, 2);
  EXPECT_EQ(mixed.optimizer, 12);
  const int64_t P = 1'000'000'000;
  // Rajbhandari et al. 2020, Figure 1: (2 + 2 + K) P, (2 + 2) P + K P / N, 2 P + (2 + K) P / N,
  // (2 + 2 + K) P / N with K = 12 and N = 64.
  EXPECT_EQ(staticMemoryBytes(mixed, 0, 64, P, 0), 16 * P);
  EXPECT_EQ(staticMemoryBytes(mixed, 1, 64, P, 0), 4 * P + 12 * P / 64);
  EXPECT_EQ(staticMemoryBytes(mixed, 2, 64, P, 0), 2 * P + 14 * P / 64);
  EXPECT_EQ(staticMemoryBytes(mixed, 3, 64, P, 0), 16 * P / 64);
  // ZeRO-3 also holds two layers' gathered 16-bit weights.
  EXPECT_EQ(staticMemoryBytes(mixed, 3, 64, P, 1000), 16 * P / 64 + 4000);
  const TrainingBytes fp32 = trainingBytesFor(DType::F32);
  EXPECT_EQ(staticMemoryBytes(fp32, 0, 8, P, 0), 16 * P);
  // Apart: ZeRO-2 in mixed precision keeps the 2-byte weights whole, shards gradients and state.
  const StaticMemory z2 = staticMemoryParts(mixed, 2, 64, P, 0);
  EXPECT_EQ(z2.weights, 2.0 * P);
  EXPECT_EQ(z2.gradients, 2.0 * P / 64);
  EXPECT_EQ(z2.optimizer, 12.0 * P / 64);
}

TEST(ParallelStack, BertLayersAreFoundWithMegatronsSplit) {
  const Graph g = withPrecision(makeZooModel("bert_base", {1, 128, 0, 0, 0}), Precision::BF16);
  const LayerStack st = detectLayerStack(g, "zoo:bert_base");
  ASSERT_EQ(st.numLayers(), 12);
  EXPECT_EQ(st.layers[0].kind, "bert_base/encoder/layer");
  EXPECT_EQ(st.layers[3].name, "bert_base/encoder/layer_3");
  EXPECT_EQ(st.hidden, 768);
  EXPECT_EQ(st.heads, 12);
  EXPECT_EQ(st.activationType, DType::BF16);
  for (const StackPart& l : st.layers) {
    // Attention and MLP: two row-parallel products forward, two column-parallel inputs backward.
    EXPECT_EQ(l.tpAllReducesForward, 2) << l.name;
    EXPECT_EQ(l.tpAllReducesBackward, 2) << l.name;
    EXPECT_EQ(l.tpAllReduceBytes, 128.0 * 768 * 2) << l.name;  // tokens x hidden in bf16
    // 12 h^2 + 13 h parameters, all but the LayerNorms' and the row-parallel biases' split.
    EXPECT_EQ(l.params, 12 * 768 * 768 + 13 * 768) << l.name;
    EXPECT_EQ(l.params - l.shardedParams, 6 * 768) << l.name;
    // The hidden states, and the attention mask ([1, 1, 1, 128] bf16) the layers after it read.
    const double mask = &l == &st.layers.back() ? 0 : 128 * 2;
    EXPECT_DOUBLE_EQ(l.outputBytes, 128.0 * 768 * 2 + mask) << l.name;
  }
  // Embeddings before the layers, the pooler and pre-training heads after.
  EXPECT_GT(st.prologue.params, 30522 * 768);
  // The word embedding is vocabulary-parallel; the small token-type and position tables are not.
  EXPECT_EQ(st.prologue.tpAllReducesForward, 1);
}

namespace {

// Four blocks of a LayerNorm and two products. Interleaved: each block's parts in parallel
// module lists (norm1.i, attn.i, mlp.i), run block by block. Otherwise two lists run one after
// the other, as a U-Net's down.i and up.i.
Graph moduleLists(bool interleaved) {
  zoo::Net net("lists");
  TensorId x = net.input("x", {8, 64});
  auto part = [&](const std::string& scope, bool norm) {
    zoo::Net::Scope s(net, scope);
    x = norm ? zoo::layerNorm(net, x) : zoo::dense(net, x, 64);
  };
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    if (interleaved) {
      part("norm1." + n, true);
      part("attn." + n, false);
      part("mlp." + n, false);
    } else {
      part("down." + n, false);
    }
  }
  if (!interleaved)
    for (int i = 0; i < 4; ++i) part("up." + std::to_string(i), false);
  zoo::Net::Scope hs(net, "head");
  zoo::dense(net, x, 10);
  return std::move(net).build();
}

}  // namespace

TEST(ParallelStack, ParallelModuleListsAreOneLayerPerIndex) {
  const LayerStack st = detectLayerStack(moduleLists(true), "lists.onnx");
  ASSERT_EQ(st.numLayers(), 4);
  EXPECT_EQ(st.layers[2].name, "lists/norm1.2 + lists/attn.2 + lists/mlp.2");
  EXPECT_EQ(st.layers[2].kind, "lists/norm1 + lists/attn + lists/mlp");
  for (const StackPart& l : st.layers) EXPECT_EQ(l.params, 2 * 64 + 2 * (64 * 64 + 64)) << l.name;
  // lists that run one after the other are layers of their own, in the order they run
  const LayerStack unet = detectLayerStack(moduleLists(false), "unet.onnx");
  ASSERT_EQ(unet.numLayers(), 8);
  EXPECT_EQ(unet.layers[3].name, "lists/down.3");
  EXPECT_EQ(unet.layers[4].name, "lists/up.0");
}

TEST(ParallelStack, AModelWithoutRepeatedLayersGetsOneLine) {
  const Graph g = gptest::smallMlp();
  try {
    detectLayerStack(g, "mlp.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("mlp.json: no repeated layer structure", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(ParallelPlanRules, BadPlansAreNamed) {
  ToyModel t(4);
  const LayerStack st = uniformStack(8);
  ParallelPlan p;
  p.dp = 2, p.pp = 2, p.microbatches = 3, p.stages = evenStages(8, 2);
  EXPECT_EQ(parallelPlanProblem(st, t.c, 12, p), "");
  EXPECT_EQ(parallelPlanProblem(st, t.c, 10, p), "global batch 10 is not divisible by dp x micro-batches = 2 x 3");
  p.tp = 4;
  EXPECT_EQ(parallelPlanProblem(st, t.c, 12, p), "dp x tp x pp = 2 x 4 x 2 = 16 devices, but the cluster has 4 (a plan uses every device)");
  p.tp = 1, p.dp = 1;
  EXPECT_EQ(parallelPlanProblem(st, t.c, 12, p), "dp x tp x pp = 1 x 1 x 2 = 2 devices, but the cluster has 4 (a plan uses every device)");
  p.dp = 2;
  p.tp = 1;
  p.stages = {{0, 3}, {4, 8}};
  EXPECT_NE(parallelPlanProblem(st, t.c, 12, p).find("stages must cover the layers in order"), std::string::npos);
  p.stages = evenStages(8, 2);
  p.zero = 4;
  EXPECT_EQ(parallelPlanProblem(st, t.c, 12, p), "ZeRO stage 4 does not exist (0, 1, 2, 3)");
  LayerStack heads = st;
  heads.heads = 6;
  p.zero = 0, p.tp = 4, p.dp = 1, p.pp = 1, p.stages = evenStages(8, 1);
  EXPECT_EQ(parallelPlanProblem(heads, t.c, 12, p), "tp = 4 does not divide the 6 attention heads");
  // Sequence parallelism splits the sequence over the TP group.
  LayerStack seq = st;
  seq.seqLen = 100;
  p.tp = 1, p.dp = 4, p.sequenceParallel = true;
  EXPECT_EQ(parallelPlanProblem(seq, t.c, 12, p), "sequence parallelism splits over the TP group: it needs tp > 1");
  p.tp = 4, p.dp = 1;
  EXPECT_EQ(parallelPlanProblem(seq, t.c, 12, p), "");
  seq.seqLen = 98;
  EXPECT_EQ(parallelPlanProblem(seq, t.c, 12, p), "tp = 4 does not divide the sequence of 98 tokens (sequence parallelism)");
}

TEST(ParallelPlanFile, RoundTripGivesTheSameNumbers) {
  const auto task = zooParallelTask("bert_base", {1, 128, 0, 0, 0}, "2x8xH100-IB", 64);
  const Cluster& c = task->c;
  const LayerStack& st = task->stack;
  const StageCostModel& model = task->model;
  ParallelPlan p;
  p.dp = 4, p.tp = 2, p.pp = 2, p.microbatches = 8, p.zero = 1, p.schedule = PipeSchedule::GPipe;
  p.stages = {{0, 5, Recompute::Full}, {5, 12, Recompute::Selective}};
  p.sequenceParallel = true, p.overlapTpComm = true, p.attention = AttentionImpl::Unfused;
  const ParallelMeasurement before = simulateParallel(model, 64, p);
  ASSERT_TRUE(before.feasible) << before.problem;
  const std::string text = parallelPlanJson({"zoo:bert_base", c.name(), 64, p}, c);
  const ParallelPlanFile f = parseParallelPlanJson(text, "plan.json", c);
  EXPECT_EQ(f.globalBatch, 64);
  EXPECT_EQ(f.model, "zoo:bert_base");
  const ParallelMeasurement after = simulateParallel(model, f.globalBatch, f.plan);
  EXPECT_EQ(after.stepTime, before.stepTime);
  EXPECT_EQ(after.peakMemory, before.peakMemory);
  EXPECT_EQ(f.plan.stages.size(), 2u);
  EXPECT_EQ(f.plan.stages[0].recompute, Recompute::Full);
  EXPECT_EQ(f.plan.stages[1].recompute, Recompute::Selective);
  EXPECT_TRUE(f.plan.sequenceParallel);
  EXPECT_TRUE(sameKnobs(f.plan, p));  // every knob of the table, the TP overlap among them
  EXPECT_EQ(f.plan.attention, AttentionImpl::Unfused);
  EXPECT_EQ(f.plan.schedule, PipeSchedule::GPipe);
  // Files that say recompute true / false mean full / none; without "attention" it is fused.
  std::string old = text;
  old.replace(old.find("\"full\""), 6, "true");
  old.replace(old.find("\"selective\""), 11, "false");
  old.erase(old.find("\"attention\": \"unfused\","), 24);
  const ParallelPlanFile o = parseParallelPlanJson(old, "old.json", c);
  EXPECT_EQ(o.plan.stages[0].recompute, Recompute::Full);
  EXPECT_EQ(o.plan.stages[1].recompute, Recompute::None);
  EXPECT_EQ(o.plan.attention, AttentionImpl::Flash);
  for (auto [from, to, why] : {std::tuple{"\"full\"", "\"most\"", "old.json: unknown recomputation 'most' (none, selective, full)"},
                               std::tuple{"\"unfused\"", "\"paged\"", "old.json: \"attention\" must be \"flash\", \"unfused\" or \"flash2\", got \"paged\""},
                               std::tuple{"\"sequence_parallel\": true", "\"sequence_parallel\": 1",
                                          "old.json: \"sequence_parallel\" must be true or false"}}) {
    std::string bad = text;
    bad.replace(bad.find(from), std::string(from).size(), to);
    try {
      parseParallelPlanJson(bad, "old.json", c);
      ADD_FAILURE() << to;
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), why);
    }
  }
  // Bad files: one line naming the file and the field.
  EXPECT_THROW(parseParallelPlanJson("{}", "p.json", c), Error);
  try {
    std::string bad = text;
    bad.replace(bad.find("\"zero\": 1"), 9, "\"zero\": 7");
    parseParallelPlanJson(bad, "p.json", c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "p.json: \"zero\" = 7 is outside 0..3");
  }
  // Hostile sizes: refused with the bound, before anything is allocated for them.
  std::string huge = text;
  huge.replace(huge.find("\"microbatches\": 8"), 17, "\"microbatches\": 1048576");
  const ParallelPlanFile h = parseParallelPlanJson(huge, "p.json", c);
  EXPECT_EQ(parallelPlanProblem(st, c, 64, h.plan),
            "pp x micro-batches = 2097152 passes of each kind in one step, over the limit of 1048576");
  std::string wrap = text;
  wrap.replace(wrap.find("[\n        5,\n        12\n      ]"), 29, "[5, 4294967308]");
  EXPECT_THROW(parseParallelPlanJson(wrap, "p.json", c), Error);
  EXPECT_THROW(parseParallelPlanJson(R"({"format": 5})", "p.json", c), Error);
}

TEST(ParallelSearch, ExactIsNeverBelowMegatronOrDataParallelism) {
  const auto task = zooParallelTask("bert_base", {1, 128, 0, 0, 0}, "2x8xH100-IB", 256);
  const StageCostModel& model = task->model;
  const ParallelResult exact = exactSearch(model, 256);
  const ParallelResult mega = megatronPlan(model, 256);
  const ParallelResult dp = dataParallelPlan(model, 256);
  ASSERT_TRUE(exact.found && mega.found && dp.found);
  EXPECT_TRUE(exact.complete);
  EXPECT_GE(exact.measurement.samplesPerSecond, mega.measurement.samplesPerSecond);
  EXPECT_GE(exact.measurement.samplesPerSecond, dp.measurement.samplesPerSecond);
  // BERT-base fits one GPU: Megatron's rule needs no model parallelism.
  EXPECT_EQ(mega.plan.tp * mega.plan.pp, 1);
}

TEST(ParallelSearch, MegatronsRuleGrowsTensorParallelismUntilTheModelFits) {
  // GPT-13B: 16 bytes per parameter (mixed-precision Adam) = 206 GB; an 80 GB H100 holds it
  // from tp 4 on (51 GB of state + activations), so the rule stops there, dp = 16 / 4.
  const auto task = zooParallelTask("gpt_13b", {1, 0, 0, 0, 0}, "2x8xH100-IB", 512);
  const StageCostModel& model = task->model;
  const ParallelResult mega = megatronPlan(model, 512);
  ASSERT_TRUE(mega.found && mega.measurement.feasible) << mega.note;
  EXPECT_EQ(mega.plan.tp, 4);
  EXPECT_EQ(mega.plan.pp, 1);
  EXPECT_EQ(mega.plan.dp, 4);
  const ParallelResult exact = exactSearch(model, 512);
  EXPECT_GE(exact.measurement.samplesPerSecond, mega.measurement.samplesPerSecond);
}

// GPT 1.3B on 16 H100s at batch 512: the fastest plan simulated (no recomputation, large
// micro-batches) peaks within the memory verdict's band of the GPUs' capacity; the search answers
// with the fastest plan that fits with room to spare and says what it set aside.
TEST(ParallelSearch, APlanAtOutOfMemoryRiskIsSetAsideForOneThatFits) {
  const auto task = zooParallelTask("gpt_1_3b", {1, 0, 0, 0, 0}, "2x8xH100-IB", 512);
  const ParallelResult exact = exactSearch(task->model, 512);
  ASSERT_TRUE(exact.found) << exact.note;
  EXPECT_EQ(memoryVerdict(exact.measurement).fit, MemoryFit::Fits) << memoryVerdict(exact.measurement).text;
  EXPECT_NE(exact.note.find("faster at out-of-memory risk set aside"), std::string::npos) << exact.note;
}

TEST(ParallelPlanRules, ExpertParallelismSplitsTheExpertsOverTheReplicas) {
  const auto task = zooParallelTask("moe_1_3b_64e", {1, 512, 0, 0, 0}, "2x8xH100-IB", 16);
  const LayerStack& st = task->stack;
  const StageCostModel& model = task->model;
  EXPECT_EQ(st.experts, 64);
  ParallelPlan p;
  p.dp = 16, p.microbatches = 1, p.stages = evenStages(st.numLayers(), 1);
  const ParallelMeasurement replicated = simulateParallel(model, 16, p);
  p.expertParallel = true;
  const ParallelMeasurement split = simulateParallel(model, 16, p);
  // Their all-to-alls are the step's expert-parallel communication, and only theirs.
  EXPECT_EQ(replicated.breakdown.epComm, 0);
  EXPECT_GT(split.breakdown.epComm, 0);
  EXPECT_NEAR(split.breakdown.epComm, split.breakdown.passComm, 1e-12 * split.breakdown.passComm);
  int64_t experts = 0;
  for (const StackPart& l : st.layers) experts += l.expertParams;
  EXPECT_GT(experts, 20'000'000'000);
  // Each replica holds 4 of the 64 experts; their gradients are not all-reduced.
  EXPECT_EQ(split.stages[0].localParams, experts / 16);
  EXPECT_EQ(split.stages[0].params + experts, replicated.stages[0].params);
  EXPECT_LT(split.peakMemory[0], replicated.peakMemory[0]);
  p.dp = 12;
  const Cluster twelve = loadCluster("3x4xA100-PCIe-100GbE");
  EXPECT_EQ(parallelPlanProblem(st, twelve, 12, p), "dp = 12 does not divide the 64 experts (expert parallelism)");
  ParallelPlan dense;
  dense.dp = 12, dense.expertParallel = true, dense.stages = evenStages(4, 1);
  EXPECT_EQ(parallelPlanProblem(uniformStack(4), twelve, 12, dense), "expert parallelism needs a model with experts");
}
