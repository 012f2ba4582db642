// buildGpuProgram / kernelForOp (profile/gpu_program.h) on hand-built graphs and the toy
// cluster (1 TFLOP/s, 1 MB/s links): launches, copies, waits, issue order, kernel shapes.
#include "profile/gpu_program.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "sim/simulator.h"
#include "gpu_program_graphs.h"
#include "test_clusters.h"

using namespace gp;

namespace {

Graph chain() { return gptest::twoDeviceChain(); }

struct Toy {
  Graph g;
  Cluster c = gptest::toyCluster();
  CostModel cost;
  explicit Toy(Graph graph) : g(std::move(graph)), cost(g, c, gptest::exactCosts()) {}
};

int launchOfOp(const GpuProgram& p, OpId op) {
  for (size_t l = 0; l < p.launches.size(); ++l)
    if (std::find(p.launches[l].ops.begin(), p.launches[l].ops.end(), op) != p.launches[l].ops.end())
      return static_cast<int>(l);
  return -1;
}

// Every launch's and copy's dependencies come before it in `issue`, and each device's
// launches keep their stream order.
void expectTopological(const GpuProgram& p) {
  std::vector<int> launchAt(p.launches.size(), -1), copyAt(p.copies.size(), -1);
  ASSERT_EQ(p.issue.size(), p.launches.size() + p.copies.size());
  for (size_t i = 0; i < p.issue.size(); ++i) {
    auto& slot = p.issue[i].copy ? copyAt[p.issue[i].index] : launchAt[p.issue[i].index];
    EXPECT_EQ(slot, -1) << "issued twice";
    slot = static_cast<int>(i);
  }
  for (size_t c = 0; c < p.copies.size(); ++c) {
    if (p.copies[c].after >= 0) {
      EXPECT_LT(launchAt[p.copies[c].after], copyAt[c]);
    }
  }
  for (size_t l = 0; l < p.launches.size(); ++l)
    for (int32_t c : p.launches[l].waitCopies) EXPECT_LT(copyAt[c], launchAt[l]);
  for (const auto& ord : p.order)
    for (size_t i = 1; i < ord.size(); ++i) EXPECT_LT(launchAt[ord[i - 1]], launchAt[ord[i]]);
}

}  // namespace

TEST(GpuProgram, TwoDeviceChainCopiesWaitsAndIssueOrder) {
  Toy s(chain());
  const Graph& g = s.g;
  const OpId a = g.findOp("a"), b = g.findOp("b"), c = g.findOp("c");
  const Plan plan{{0, 1, 1}, {}, {}};
  const Measurement sim = Simulator(s.cost).run(plan);
  ASSERT_TRUE(sim.feasible) << sim.problem;
  const GpuProgram p = buildGpuProgram(s.cost, plan, sim);

  EXPECT_EQ(p.numDevices, 2);
  EXPECT_DOUBLE_EQ(p.simulatedStepTime, sim.stepTime);
  ASSERT_EQ(p.launches.size(), 3u);
  const int la = launchOfOp(p, a), lb = launchOfOp(p, b), lc = launchOfOp(p, c);
  EXPECT_EQ(p.launches[la].device, 0);
  EXPECT_EQ(p.launches[lb].device, 1);
  EXPECT_EQ(p.order, (std::vector<std::vector<int32_t>>{{la}, {lb, lc}}));
  EXPECT_DOUBLE_EQ(p.launches[la].simStart, 0);
  EXPECT_DOUBLE_EQ(p.launches[la].simEnd, 1);
  EXPECT_NEAR(p.launches[lb].simStart, 1.004, 1e-9);  // after t1's 4000 bytes at 1 MB/s

  // w (parameter, resident with its first reader a on gpu0) at time 0, t1 after a; x is a graph
  // input (fed to every device): no copy
  ASSERT_EQ(p.copies.size(), 2u);
  const GpuCopy& cw = p.copies[0];
  const GpuCopy& ct = p.copies[1];
  EXPECT_EQ(cw.tensor, g.findTensor("w"));
  EXPECT_EQ(cw.src, 0);
  EXPECT_EQ(cw.dst, 1);
  EXPECT_EQ(cw.bytes, 2000);
  EXPECT_EQ(cw.after, -1);
  EXPECT_EQ(ct.tensor, g.findTensor("t1"));
  EXPECT_EQ(ct.src, 0);
  EXPECT_EQ(ct.dst, 1);
  EXPECT_EQ(ct.bytes, 4000);
  EXPECT_EQ(ct.after, la);
  EXPECT_DOUBLE_EQ(ct.simStart, 1);
  EXPECT_NEAR(ct.simEnd, 1.004, 1e-9);
  EXPECT_TRUE(p.launches[la].waitCopies.empty());
  EXPECT_EQ(p.launches[lb].waitCopies, (std::vector<int32_t>{0, 1}));
  EXPECT_TRUE(p.launches[lc].waitCopies.empty());  // t2 is produced on its own device

  // by simulated start, copies first among equals: w (0 s), a (0 s), t1 (1 s), b, c
  const std::vector<GpuIssue> want{{true, 0}, {false, la}, {true, 1}, {false, lb}, {false, lc}};
  ASSERT_EQ(p.issue.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(p.issue[i].copy, want[i].copy) << i;
    EXPECT_EQ(p.issue[i].index, want[i].index) << i;
  }
  expectTopological(p);

  // Relu: our memory kernel with the op's FLOPs and traffic
  const GpuKernel& k = p.launches[lb].kernel;
  EXPECT_EQ(k.kind, GpuKernel::Kind::Memory);
  EXPECT_EQ(k.flops, 1e12);
  EXPECT_EQ(k.bytesRead, 4000 + 2000 + 4000);
  EXPECT_EQ(k.bytesWritten, 4000);
  // scratch: gpu0's largest is a's read + write (4000 + 2000 + 4000); gpu1's is b's
  EXPECT_EQ(p.scratchBytes, (std::vector<int64_t>{10000, 14000}));
}

TEST(GpuProgram, FusedGroupIsOneLaunchWithSummedFlopsAndBoundaryBytes) {
  GraphBuilder b("fused");
  TensorId x = b.addGraphInput({"x", {10, 20}});
  TensorId w = b.addParameter({"w", {20, 30}});
  TensorId bias = b.addParameter({"bias", {30}});
  OpId mm = b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"h", {10, 30}}}, .flops = 12000});
  OpId add = b.addOp({.name = "add", .type = "BiasAdd", .inputs = {b.output(mm), bias}, .outputs = {{"hb", {10, 30}}}, .flops = 300});
  OpId relu = b.addOp({.name = "relu", .type = "Relu", .inputs = {b.output(add)}, .outputs = {{"y", {10, 30}}}, .flops = 300});
  b.addOp({.name = "out", .type = "Tanh", .inputs = {b.output(relu)}, .outputs = {{"z", {10, 30}}}, .flops = 300});
  Toy s(std::move(b).build());
  Plan plan = Plan::singleDevice(4);
  plan.fusionGroup = {0, 0, 0, -1};
  const GpuProgram p = buildGpuProgram(s.cost, plan, Simulator(s.cost).run(plan));
  ASSERT_EQ(p.launches.size(), 2u);
  const GpuLaunch& l = p.launches[0];
  EXPECT_EQ(l.ops, (std::vector<OpId>{0, 1, 2}));
  EXPECT_EQ(l.fusionGroup, 0);
  EXPECT_EQ(l.kernel.kind, GpuKernel::Kind::Gemm);  // the group's op with the most FLOPs is the MatMul
  EXPECT_EQ(l.kernel.m, 10);
  EXPECT_EQ(l.kernel.k, 20);
  EXPECT_EQ(l.kernel.n, 30);
  EXPECT_EQ(l.kernel.flops, 12600);
  EXPECT_EQ(l.kernel.bytesRead, 800 + 2400 + 120);  // x, w, bias; h and hb stay inside
  EXPECT_EQ(l.kernel.bytesWritten, 1200);           // y, read by the Tanh outside
  EXPECT_EQ(p.launches[1].fusionGroup, -1);
  EXPECT_EQ(p.launches[1].kernel.kind, GpuKernel::Kind::Memory);
  EXPECT_EQ(p.order[0], (std::vector<int32_t>{0, 1}));
  EXPECT_TRUE(p.copies.empty());
  EXPECT_FALSE(p.usesDevice(1));
  expectTopological(p);
}

TEST(GpuProgram, MetadataOpsHaveNoKernelButKeepTheirPlace) {
  GraphBuilder b("meta");
  TensorId x = b.addGraphInput({"x", {4, 8}});
  OpId r = b.addOp({.name = "reshape", .type = "Reshape", .inputs = {x}, .outputs = {{"y", {32}}}});
  b.addOp({.name = "relu", .type = "Relu", .inputs = {b.output(r)}, .outputs = {{"z", {32}}}, .flops = 32});
  Toy s(std::move(b).build());
  EXPECT_EQ(kernelForOp(s.cost, r).kind, GpuKernel::Kind::None);
  EXPECT_EQ(kernelForOp(s.cost, r).flops, 0);
  const Plan plan = Plan::singleDevice(2);
  const GpuProgram p = buildGpuProgram(s.cost, plan, Simulator(s.cost).run(plan));
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].kernel.kind, GpuKernel::Kind::None);
  EXPECT_EQ(p.order[0], (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(p.scratchBytes[0], 128 + 128);  // the Relu's read and write; the Reshape needs none
}

TEST(GpuProgram, GemmShapesFromTheInputs) {
  GraphBuilder b("gemm");
  TensorId a = b.addGraphInput({"a", {64, 32}});
  TensorId w = b.addParameter({"w", {32, 16}});
  TensorId batched = b.addGraphInput({"batched", {4, 64, 32}});
  TensorId bw = b.addGraphInput({"bw", {4, 32, 16}});
  TensorId table = b.addParameter({"table", {1000, 32}});  // tied embedding: A x table^T
  TensorId half = b.addGraphInput({"half", {64, 32}, DType::F16});
  TensorId ints = b.addGraphInput({"ints", {64, 32}, DType::I32});
  const double f = 2.0 * 64 * 32 * 16;
  OpId plain = b.addOp({.name = "plain", .type = "MatMul", .inputs = {a, w}, .outputs = {{"", {64, 16}}}, .flops = f});
  OpId folded = b.addOp({.name = "folded", .type = "MatMul", .inputs = {batched, w}, .outputs = {{"", {4, 64, 16}}}, .flops = 4 * f});
  OpId bmm = b.addOp({.name = "bmm", .type = "BatchMatMulV2", .inputs = {batched, bw}, .outputs = {{"", {4, 64, 16}}}, .flops = 4 * f});
  OpId tied = b.addOp({.name = "tied", .type = "MatMul", .inputs = {a, table}, .outputs = {{"", {64, 1000}}}, .flops = 2.0 * 64 * 32 * 1000});
  OpId odd = b.addOp({.name = "odd", .type = "MatMul", .inputs = {a, w}, .outputs = {{"", {64, 16}}}, .flops = 2.0 * 50 * 50 * 50});
  OpId f16 = b.addOp({.name = "f16", .type = "MatMul", .inputs = {half, w}, .outputs = {{"", {64, 16}, DType::F16}}, .flops = f});
  OpId i32 = b.addOp({.name = "i32", .type = "MatMul", .inputs = {ints, w}, .outputs = {{"", {64, 16}, DType::I32}}, .flops = f});
  TensorId dy = b.addGraphInput({"dy", {4, 64, 16}});  // dW = sum over the batch of x_b^T dy_b
  OpId dw = b.addOp({.name = "dw", .type = "MatMulGrad", .inputs = {batched, dy}, .outputs = {{"", {32, 16}}}, .flops = 4 * f});
  Toy s(std::move(b).build());
  auto shape = [&](OpId op) {
    const GpuKernel k = kernelForOp(s.cost, op);
    EXPECT_EQ(k.kind, GpuKernel::Kind::Gemm) << s.g.opName(op);
    return std::vector<int64_t>{k.batch, k.m, k.n, k.k};
  };
  EXPECT_EQ(shape(plain), (std::vector<int64_t>{1, 64, 16, 32}));
  EXPECT_EQ(shape(folded), (std::vector<int64_t>{1, 256, 16, 32}));  // a shared weight: one GEMM
  EXPECT_EQ(shape(bmm), (std::vector<int64_t>{4, 64, 16, 32}));
  EXPECT_EQ(shape(tied), (std::vector<int64_t>{1, 64, 1000, 32}));
  EXPECT_EQ(shape(odd), (std::vector<int64_t>{1, 50, 50, 50}));  // FLOPs disagree with the shapes: a cube
  // the batched reading (4 x [32,16] over k 64) has the FLOPs but writes 4x the output: the
  // batch folds into the reduction instead
  EXPECT_EQ(shape(dw), (std::vector<int64_t>{1, 32, 16, 256}));
  EXPECT_EQ(kernelForOp(s.cost, plain).flops, f);
  EXPECT_EQ(kernelForOp(s.cost, plain).bytesRead, 64 * 32 * 4 + 32 * 16 * 4);
  EXPECT_EQ(kernelForOp(s.cost, plain).dtype, DType::F32);
  EXPECT_EQ(kernelForOp(s.cost, f16).dtype, DType::F16);
  EXPECT_EQ(kernelForOp(s.cost, i32).dtype, DType::F32);
  EXPECT_THROW(kernelForOp(s.cost, 99), Error);
}

TEST(GpuProgram, GemmWithoutShapesIsACubeOfTheSameFlops) {
  GraphBuilder b("cube");
  TensorId x = b.addGraphInput({"x", {}, DType::F32, false});
  TensorId y = b.addGraphInput({"y", {}, DType::F32, false});
  OpId mm = b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, y}, .outputs = {{"z", {}, DType::F32, false}}, .flops = 2.0 * 128 * 128 * 128});
  OpId tiny = b.addOp({.name = "tiny", .type = "MatMul", .inputs = {x, y}, .outputs = {{"u", {}, DType::F32, false}}, .flops = 0});
  Toy s(std::move(b).build());
  const GpuKernel k = kernelForOp(s.cost, mm);
  EXPECT_EQ(k.kind, GpuKernel::Kind::Gemm);
  EXPECT_EQ(k.m, 128);
  EXPECT_EQ(k.n, 128);
  EXPECT_EQ(k.k, 128);
  EXPECT_EQ(k.batch, 1);
  EXPECT_EQ(kernelForOp(s.cost, tiny).m, 1);  // at least 1
}

TEST(GpuProgram, ConvShapesFromNhwcAndNchw) {
  GraphBuilder b("conv");
  TensorId x = b.addGraphInput({"x", {8, 32, 32, 16}});
  TensorId w = b.addParameter({"w", {3, 3, 16, 64}});
  TensorId xc = b.addGraphInput({"xc", {8, 16, 32, 32}});
  TensorId wc = b.addParameter({"wc", {64, 16, 3, 3}});
  TensorId dw = b.addParameter({"dw", {3, 3, 16, 1}});
  OpId nhwc = b.addOp({.name = "nhwc", .type = "Conv2D", .inputs = {x, w}, .outputs = {{"", {8, 16, 16, 64}}},
                       .flops = 2.0 * 8 * 16 * 16 * 64 * 3 * 3 * 16});
  OpId nchw = b.addOp({.name = "nchw", .type = "Conv", .inputs = {xc, wc}, .outputs = {{"", {8, 64, 32, 32}}},
                       .flops = 2.0 * 8 * 32 * 32 * 64 * 3 * 3 * 16});
  OpId depthwise = b.addOp({.name = "dw", .type = "DepthwiseConv2dNative", .inputs = {x, dw},
                            .outputs = {{"", {8, 32, 32, 16}}}, .flops = 2.0 * 8 * 32 * 32 * 16 * 9});
  Toy s(std::move(b).build());
  const GpuKernel k = kernelForOp(s.cost, nhwc);
  ASSERT_EQ(k.kind, GpuKernel::Kind::Conv);
  EXPECT_EQ(std::vector<int64_t>({k.convN, k.convH, k.convW, k.convC, k.convR, k.convS, k.convK, k.strideH, k.strideW}),
            std::vector<int64_t>({8, 32, 32, 16, 3, 3, 64, 2, 2}));
  EXPECT_EQ(k.flops, s.g.flops(nhwc));
  const GpuKernel kc = kernelForOp(s.cost, nchw);
  ASSERT_EQ(kc.kind, GpuKernel::Kind::Conv);
  EXPECT_EQ(std::vector<int64_t>({kc.convN, kc.convH, kc.convW, kc.convC, kc.convR, kc.convS, kc.convK, kc.strideH}),
            std::vector<int64_t>({8, 32, 32, 16, 3, 3, 64, 1}));
  // depthwise: the output channels are not the filter's k, so a GEMM of the same FLOPs
  const GpuKernel kd = kernelForOp(s.cost, depthwise);
  EXPECT_EQ(kd.kind, GpuKernel::Kind::Gemm);
  EXPECT_NEAR(2.0 * kd.m * kd.n * kd.k, s.g.flops(depthwise), 0.05 * s.g.flops(depthwise));
}

TEST(GpuProgram, InfeasibleOrTimelessMeasurementsThrow) {
  Toy s(chain());
  const Plan offCluster{{0, 5, 1}, {}, {}};  // device 5 does not exist
  const Measurement bad = Simulator(s.cost).run(offCluster);
  ASSERT_FALSE(bad.feasible);
  try {
    buildGpuProgram(s.cost, offCluster, bad);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "measure");
    EXPECT_NE(e.problem().find("not feasible"), std::string::npos) << e.what();
  }
  // over memory: the toy cluster with almost none
  Graph g = chain();
  const Cluster tiny = gptest::toyCluster(1e-6);
  const CostModel cost(g, tiny, gptest::exactCosts());
  const Plan plan{{0, 1, 1}, {}, {}};
  const Measurement oom = Simulator(cost).run(plan);
  ASSERT_FALSE(oom.feasible);
  EXPECT_THROW(buildGpuProgram(cost, plan, oom), Error);
  // no timeline
  const Measurement quiet = Simulator(s.cost).run(plan, /*recordTimeline=*/false);
  ASSERT_TRUE(quiet.feasible);
  EXPECT_THROW(buildGpuProgram(s.cost, plan, quiet), Error);
  // a timeline of another plan (the op on another device than the plan says is fine; a missing op is not)
  Measurement partial = Simulator(s.cost).run(plan);
  partial.timeline.erase(std::remove_if(partial.timeline.begin(), partial.timeline.end(),
                                        [](const TimelineEvent& e) { return e.kind == TimelineEvent::Kind::Op && e.id == 2; }),
                         partial.timeline.end());
  EXPECT_THROW(buildGpuProgram(s.cost, plan, partial), Error);
}
