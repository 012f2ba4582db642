// FP8 GEMMs against closed forms: a layer's weight product runs at the FP8 rate plus
// Transformer Engine's casts (0.75 A bytes forward, 1.5 A backward for a product moving A
// activation bytes); it keeps its input in FP8 and holds 2 more bytes per weight; the plan rules
// refuse FP8 where it cannot run.
#include <gtest/gtest.h>

#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "parallel/parallel_search.h"
#include "test_clusters.h"
#include "test_graphs.h"

using namespace gp;

namespace {

// Two devices of 1 TFLOP/s in bf16 and 2 in f8, memory at 1 GB/s, no launch overhead.
Cluster fp8Cluster(const char* f8 = "2") {
  return parseClusterJson(std::string(R"({"name": "fp8", "device_kinds": {"T": {"peak_TFLOPS": {"f32": 0.5, "bf16": 1, "f16": 1, "f8": )") +
                              f8 + R"(}, "memory_bandwidth_GBps": 1, "memory_GiB": 64, "launch_overhead_us": 0}},
      "devices": [{"name": "gpu0", "kind": "T"}, {"name": "gpu1", "kind": "T"}],
      "switches": [{"name": "sw", "kind": "switch"}],
      "links": [{"between": ["sw", "gpu0"], "kind": "t", "bandwidth_GBps": 1, "latency_us": 0},
                {"between": ["sw", "gpu1"], "kind": "t", "bandwidth_GBps": 1, "latency_us": 0}]})",
                          "fp8-cluster");
}

// Layers of one bf16 weight product each: 1e12 FLOPs and A = 1e8 activation bytes per sample,
// 1M parameters (4e6 bytes as the graph's f32), keeping 1e6 bytes (its input) for backward.
LayerStack productStack(int layers) {
  LayerStack st;
  st.model = "products";
  st.activationType = DType::BF16;
  for (int l = 0; l < layers; ++l) {
    StackPart p;
    p.name = "layer_" + std::to_string(l);
    p.kind = "layer";
    StackOp op;
    op.cls = OpClass::MatMul;
    op.dtype = DType::BF16;
    op.flops = 1e12;
    op.activationBytes = 1e8;
    op.paramBytesRead = 4e6;
    op.savedBytes = 1e6;
    p.ops.push_back(op);
    p.params = 1'000'000;
    p.forwardFlops = 1e12;
    st.layers.push_back(p);
  }
  return st;
}

struct Fp8Task {
  Cluster c = fp8Cluster();
  Graph g = gptest::smallMlp();
  CostModel cost{g, c, gptest::exactCosts()};
  LayerStack st = productStack(2);
  StageCostModel model{st, cost};
};

}  // namespace

TEST(Fp8, AProductRunsAtTheFp8RatePlusItsCasts) {
  const Fp8Task t;
  const StageCostModel& model = t.model;
  const PartTimes bf16 = model.partTimes(0, 1, 1, 1, false, AttentionImpl::Flash, false, 0);
  const PartTimes fp8 = model.partTimes(0, 1, 1, 1, false, AttentionImpl::Flash, true, 0);
  // bf16: 1e12 FLOPs at 1e12 FLOP/s = 1 s (its 1.02e8 bytes take 0.102 s); backward twice that.
  EXPECT_NEAR(bf16.forward, 1.0, 1e-12);
  EXPECT_NEAR(bf16.backward, 2.0, 1e-12);
  // FP8: 0.5 s at 2e12 FLOP/s, + the input cast 0.75 x 1e8 bytes at 1e9 B/s = 0.075 s; backward
  // 2 x 0.5 s + 1.5 x 1e8 / 1e9 = 0.15 s of casts.
  EXPECT_NEAR(fp8.forward, 0.575, 1e-12);
  EXPECT_NEAR(fp8.backward, 1.15, 1e-12);
  // The prologue and epilogue (embedding, head) stay 16-bit.
  EXPECT_EQ(model.partTimes(-1, 1, 1, 1, false, AttentionImpl::Flash, true, 0).forward,
            model.partTimes(-1, 1, 1, 1, false, AttentionImpl::Flash, false, 0).forward);
}

TEST(Fp8, KeepsInputsInFp8AndTwoMoreBytesPerWeight) {
  const Fp8Task t;
  const StageCostModel& model = t.model;
  ParallelPlan p;
  p.dp = 2, p.microbatches = 1;
  p.stages = evenStages(2, 1);
  const ParallelMeasurement bf16 = simulateParallel(model, 2, p);
  p.fp8 = true;
  const ParallelMeasurement fp8 = simulateParallel(model, 2, p);
  ASSERT_TRUE(bf16.feasible && fp8.feasible) << bf16.problem << fp8.problem;
  // Two layers' inputs, 1e6 bytes each per sample in bf16, half in FP8.
  EXPECT_EQ(bf16.memory[0].activations, 2'000'000);
  EXPECT_EQ(fp8.memory[0].activations, 1'000'000);
  // 2M parameters: + the FP8 copy and its transpose, 2 bytes each.
  EXPECT_EQ(fp8.memory[0].statics.weights - bf16.memory[0].statics.weights, 4e6);
  EXPECT_LT(fp8.stepTime, bf16.stepTime);
}

TEST(Fp8, PlanRulesRefuseWhatCannotRun) {
  ParallelPlan p;
  p.dp = 2, p.microbatches = 1, p.fp8 = true;
  p.stages = evenStages(2, 1);
  const Cluster noFp8 = fp8Cluster("1");
  EXPECT_EQ(parallelPlanProblem(productStack(2), noFp8, 2, p),
            "FP8 GEMMs need GPUs with an FP8 rate above their 16-bit one: gpu0 has none");
  LayerStack f32 = productStack(2);
  f32.activationType = DType::F32;
  EXPECT_EQ(parallelPlanProblem(f32, fp8Cluster(), 2, p),
            "FP8 GEMMs train a 16-bit model (bf16 or fp16 mixed precision); this one is f32");
  EXPECT_EQ(parallelPlanProblem(productStack(2), fp8Cluster(), 2, p), "");
}
