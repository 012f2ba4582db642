// The CUDA-free side of the real re-measure (profile/gpu_measure.h) and of `profile --model`
// (profile/model_calibration.h): measurementFromRecords on synthetic CUPTI records whose
// timeline and busy times are worked out by hand, the errors without a GPU, modelSignatures.
#include "profile/gpu_measure.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "profile/model_calibration.h"
#include "profile/profile_plugin.h"
#include "sim/simulator.h"
#include "gpu_probe.h"
#include "gpu_program_graphs.h"
#include "test_clusters.h"

using namespace gp;

namespace {

Graph chain() { return gptest::twoDeviceChain(); }

ActivityRecord kernel(uint64_t ext, int32_t ordinal, uint64_t start, uint64_t end) {
  ActivityRecord r;
  r.kind = ActivityRecord::Kind::Kernel;
  r.device = ordinal;
  r.externalId = ext;
  r.start = start;
  r.end = end;
  r.name = "k";
  return r;
}

ActivityRecord peer(uint64_t ext, int32_t src, int32_t dst, uint64_t start, uint64_t end, int64_t bytes) {
  ActivityRecord r;
  r.kind = ActivityRecord::Kind::MemcpyPeer;
  r.copyKind = ActivityRecord::CopyKind::PeerToPeer;
  r.device = src;
  r.srcDevice = src;
  r.dstDevice = dst;
  r.externalId = ext;
  r.start = start;
  r.end = end;
  r.bytes = bytes;
  return r;
}

const TimelineEvent* find(const Measurement& m, TimelineEvent::Kind kind, int32_t id) {
  for (const TimelineEvent& e : m.timeline)
    if (e.kind == kind && e.id == id) return &e;
  return nullptr;
}

// Whether the GPUs can be used here (then the no-GPU tests skip).
bool gpuHere() { return gptest::probeGpus().error.empty(); }

}  // namespace

TEST(GpuMeasure, RecordsBecomeTheMeasuredTimelineAndBusyTimes) {
  const Graph g = chain();
  const Cluster c = gptest::toyCluster();
  const CostModel cost(g, c, gptest::exactCosts());
  const Plan plan{{0, 1, 1}, {}, {}};
  const GpuProgram p = buildGpuProgram(cost, plan, Simulator(cost).run(plan));
  ASSERT_EQ(p.launches.size(), 3u);
  ASSERT_EQ(p.copies.size(), 2u);  // w at time 0, then t1
  const OpId a = g.findOp("a"), b = g.findOp("b"), cc = g.findOp("c");
  const TensorId w = g.findTensor("w"), t1 = g.findTensor("t1");
  ASSERT_EQ(p.copies[1].tensor, t1);
  // GPUs 5 and 6 ran cluster devices 0 and 1 (the records name ordinals, the ids name the work)
  const std::vector<ActivityRecord> records{
      kernel(0, 5, 0, 100),  // the executor's own fill: no external id, not part of the step
      kernel(launchExternalId(p, 0), 5, 1000, 3000),
      kernel(launchExternalId(p, 0), 5, 3500, 4000),  // a's second kernel
      peer(copyExternalId(p, 0), 5, 6, 500, 800, 2000),
      peer(copyExternalId(p, 1), 5, 6, 4000, 5500, 4000),
      kernel(launchExternalId(p, 1), 6, 6000, 9000),
      kernel(launchExternalId(p, 2), 6, 8000, 10000),  // overlaps b: busy counts the union
      kernel(99, 6, 20000, 30000),                      // an id outside the program
  };
  const double step = 20e-6;
  const Measurement m = measurementFromRecords(cost, p, records, step);
  // times from the first record of the step (500 ns)
  const TimelineEvent* ea = find(m, TimelineEvent::Kind::Op, a);
  ASSERT_NE(ea, nullptr);
  EXPECT_EQ(ea->resource, 0);
  EXPECT_EQ(ea->dst, -1);
  EXPECT_NEAR(ea->start, 0.5e-6, 1e-15);
  EXPECT_NEAR(ea->end, 3.5e-6, 1e-15);  // first kernel's start to last kernel's end
  const TimelineEvent* eb = find(m, TimelineEvent::Kind::Op, b);
  ASSERT_NE(eb, nullptr);
  EXPECT_EQ(eb->resource, 1);
  EXPECT_NEAR(eb->start, 5.5e-6, 1e-15);
  const TimelineEvent* ec = find(m, TimelineEvent::Kind::Op, cc);
  ASSERT_NE(ec, nullptr);
  EXPECT_NEAR(ec->end, 9.5e-6, 1e-15);
  const TimelineEvent* et = find(m, TimelineEvent::Kind::Transfer, t1);
  ASSERT_NE(et, nullptr);
  EXPECT_EQ(et->resource, c.route(0, 1)[0]);
  EXPECT_EQ(et->dst, 1);
  EXPECT_EQ(et->bytes, 4000);
  EXPECT_NEAR(et->start, 3.5e-6, 1e-15);
  EXPECT_NEAR(et->end, 5.0e-6, 1e-15);
  ASSERT_NE(find(m, TimelineEvent::Kind::Transfer, w), nullptr);
  EXPECT_EQ(m.timeline.size(), 5u);
  EXPECT_TRUE(std::is_sorted(m.timeline.begin(), m.timeline.end(),
                             [](const TimelineEvent& x, const TimelineEvent& y) { return x.start < y.start; }));
  // busy: gpu0 2000 + 500 ns; gpu1 the union [6000, 10000] = 4000 ns
  EXPECT_NEAR(m.devices[0].busy, 2.5e-6, 1e-15);
  EXPECT_NEAR(m.devices[1].busy, 4.0e-6, 1e-15);
  EXPECT_NEAR(m.devices[0].utilization, 0.125, 1e-12);
  EXPECT_NEAR(m.devices[1].utilization, 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(m.stepTime, step);
  EXPECT_EQ(m.commBytes, 6000);
  EXPECT_EQ(m.devices[1].capacity, c.device(1).memCapacity);
  EXPECT_GT(m.lowerBound, 0);
}

TEST(GpuMeasure, FusedLaunchGivesOneEventPerOpAndStagedCopiesStillCount) {
  GraphBuilder gb("fused");
  TensorId x = gb.addGraphInput({"x", {1000}});
  OpId u = gb.addOp({.name = "u", .type = "Relu", .inputs = {x}, .outputs = {{"", {1000}}}, .flops = 1e9});
  OpId v = gb.addOp({.name = "v", .type = "Tanh", .inputs = {gb.output(u)}, .outputs = {{"", {1000}}}, .flops = 1e9});
  gb.addOp({.name = "r", .type = "Reshape", .inputs = {gb.output(v)}, .outputs = {{"", {10, 100}}}});
  const Graph g = std::move(gb).build();
  const Cluster c = gptest::toyCluster();
  const CostModel cost(g, c, gptest::exactCosts());
  Plan plan = Plan::singleDevice(3);
  plan.fusionGroup = {1, 1, -1};
  const GpuProgram p = buildGpuProgram(cost, plan, Simulator(cost).run(plan));
  ASSERT_EQ(p.launches.size(), 2u);
  const Measurement m =
      measurementFromRecords(cost, p, {kernel(launchExternalId(p, 0), 0, 100, 400)}, 1e-6);
  ASSERT_EQ(m.timeline.size(), 2u);  // u and v; the Reshape ran no kernel
  for (const TimelineEvent& e : m.timeline) {
    EXPECT_EQ(e.kind, TimelineEvent::Kind::Op);
    EXPECT_EQ(e.dst, 1);
    EXPECT_DOUBLE_EQ(e.start, 0);
    EXPECT_NEAR(e.end, 300e-9, 1e-15);
  }
  EXPECT_NEAR(m.devices[0].utilization, 0.3, 1e-9);

  // a copy staged through the host (no peer access): device-to-host then host-to-device
  const Graph g2 = chain();
  const CostModel cost2(g2, c, gptest::exactCosts());
  const Plan two{{0, 1, 1}, {}, {}};
  const GpuProgram p2 = buildGpuProgram(cost2, two, Simulator(cost2).run(two));
  ActivityRecord down, up;
  down.kind = up.kind = ActivityRecord::Kind::Memcpy;
  down.copyKind = ActivityRecord::CopyKind::DeviceToHost;
  up.copyKind = ActivityRecord::CopyKind::HostToDevice;
  down.device = 0;
  up.device = 1;
  down.externalId = up.externalId = copyExternalId(p2, 1);
  down.start = 1000, down.end = 2000, up.start = 2100, up.end = 3000;
  down.bytes = up.bytes = 4000;
  const Measurement staged = measurementFromRecords(cost2, p2, {down, up}, 1e-5);
  const TimelineEvent* e = find(staged, TimelineEvent::Kind::Transfer, g2.findTensor("t1"));
  ASSERT_NE(e, nullptr);
  EXPECT_DOUBLE_EQ(e->start, 0);
  EXPECT_NEAR(e->end, 2000e-9, 1e-15);
  EXPECT_EQ(staged.devices[0].busy, 0);  // copies are not kernel time
}

TEST(GpuMeasure, NoRecordsGiveTheStepTimeOnly) {
  const Graph g = chain();
  const Cluster c = gptest::toyCluster();
  const CostModel cost(g, c, gptest::exactCosts());
  const Plan plan{{0, 1, 1}, {}, {}};
  const GpuProgram p = buildGpuProgram(cost, plan, Simulator(cost).run(plan));
  const Measurement m = measurementFromRecords(cost, p, {}, 2.5);
  EXPECT_DOUBLE_EQ(m.stepTime, 2.5);
  EXPECT_TRUE(m.timeline.empty());
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[0].busy, 0);
  // a record that ends before it starts is refused
  ActivityRecord bad = kernel(launchExternalId(p, 0), 0, 500, 100);
  EXPECT_THROW(measurementFromRecords(cost, p, {bad}, 1), Error);
}

TEST(GpuMeasure, RefusesInfeasiblePlansAndExplainsMissingGpus) {
  const Graph g = chain();
  const Cluster c = gptest::toyCluster();
  const CostModel cost(g, c, gptest::exactCosts());
  try {
    measureOnGpus(cost, Plan{{0, 7, 1}, {}, {}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "measure");
    EXPECT_NE(e.problem().find("not feasible"), std::string::npos) << e.what();
  }
  const std::string why = gpuMeasureUnavailable(1);
  EXPECT_EQ(why.find('\n'), std::string::npos);
  if (!profilerBuilt()) {
    EXPECT_EQ(why, kBuiltWithoutCuda);
  }
  if (gpuHere()) {
    EXPECT_EQ(why, "");
    EXPECT_NE(gpuMeasureUnavailable(1000).find("but this machine has"), std::string::npos);
    GTEST_SKIP() << "a GPU is present: the no-GPU error needs a machine without one";
  }
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(gpuMeasureUnavailable(2), why);  // cached, same reason
  try {
    measureOnGpus(cost, Plan{{0, 1, 1}, {}, {}});
    FAIL() << "measured without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "measure");
    EXPECT_EQ(e.problem(), why);  // the same one line
  }
}

TEST(ModelCalib, DistinctSignaturesWithOneRepresentativeEach) {
  GraphBuilder b("sigs");
  TensorId x = b.addGraphInput({"x", {32, 64}});
  TensorId h = b.addGraphInput({"h", {32, 64}, DType::F16});
  TensorId w = b.addParameter({"w", {64, 64}});
  TensorId wh = b.addParameter({"wh", {64, 64}, DType::F16});
  const double f = 2.0 * 32 * 64 * 64;
  OpId m1 = b.addOp({.name = "m1", .type = "MatMul", .inputs = {x, w}, .outputs = {{"", {32, 64}}}, .flops = f});
  OpId m2 = b.addOp({.name = "m2", .type = "MatMul", .inputs = {b.output(m1), w}, .outputs = {{"", {32, 64}}}, .flops = f});
  OpId rs = b.addOp({.name = "rs", .type = "Reshape", .inputs = {b.output(m2)}, .outputs = {{"", {2048}}}});
  OpId r = b.addOp({.name = "r", .type = "Relu", .inputs = {b.output(rs)}, .outputs = {{"", {2048}}}, .flops = 2048});
  OpId mh = b.addOp({.name = "mh", .type = "MatMul", .inputs = {h, wh}, .outputs = {{"", {32, 64}, DType::F16}}, .flops = f});
  const Graph g = std::move(b).build();
  const Cluster c = gptest::toyCluster();
  const CostModel cost(g, c);
  const std::vector<ModelSignature> s = modelSignatures(cost, 1);
  ASSERT_EQ(s.size(), 3u);  // m1 and m2 share one; the Reshape has no kernel; f16 is its own
  EXPECT_EQ(s[0].op, m1);
  EXPECT_EQ(s[0].signature, "MatMul|[32,64][64,64]|f32|T");
  EXPECT_EQ(s[0].kernel, kernelForOp(cost, m1));
  EXPECT_EQ(s[0].kernel.kind, GpuKernel::Kind::Gemm);
  EXPECT_EQ(s[1].op, r);
  EXPECT_EQ(s[1].kernel.kind, GpuKernel::Kind::Memory);
  EXPECT_EQ(s[2].op, mh);
  EXPECT_EQ(s[2].signature, "MatMul|[32,64][64,64]|f16|T");
  EXPECT_EQ(s[2].kernel.dtype, DType::F16);
  // the signature is the one the cost model looks up
  EXPECT_EQ(s[2].signature, CalibrationTable::signature(g, mh, cost.opDType(mh), c.device(0).kind));
  EXPECT_THROW(modelSignatures(cost, 2), Error);
  // one GPU number per cluster device, checked before anything runs
  EXPECT_THROW(calibrateModel(cost, {0, 1, 2}, {}), Error);
  if (!gpuHere()) {
    EXPECT_THROW(calibrateModel(cost, {}, {}), Error);
  }
}
