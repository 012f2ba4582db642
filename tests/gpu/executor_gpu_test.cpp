// The GPU executor and the kernel timing of `profile --model` on real GPUs (ctest label gpu;
// scripts/gpu-check.sh runs them). Each test skips with the reason (gpuMeasureUnavailable) when
// the plugin is missing or there are not enough GPUs.
//
// The tolerance of the calibrated simulator against the measured step (ExecutorGpu.
// ZooStepMatchesTheCalibratedSimulator): +-25 %. The simulator charges each op the median
// start-to-start time of its kernel run back to back (profile --model); the executor runs the
// same kernels in the plan's order on one stream, so the two differ by what changes between a
// kernel and the next (caches, clocks, host issue when kernels are shorter than a launch).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "gpu_probe.h"
#include "base/error.h"
#include "io/model_loader.h"
#include "profile/activity.h"
#include "profile/gpu_measure.h"
#include "profile/gpu_program.h"
#include "profile/model_calibration.h"
#include "profile/profile_output.h"
#include "profile/profile_plugin.h"
#include "sim/plan.h"

using namespace gp;

namespace {

constexpr double kTolerance = 0.25;  // |measured - simulated| / simulated, see the file comment

// Two H100-class GPUs on one NVLink link (the simulator's view only; the executor runs the
// plan on GPUs 0 and 1 whatever they are).
constexpr const char* kTwoGpus = R"({
  "format": "graphplace-cluster", "version": 1, "name": "two-gpus",
  "device_kinds": {"H100": {"peak_TFLOPS": {"f32": 67, "f16": 989, "bf16": 989}, "memory_bandwidth_GBps": 3350,
                            "memory_GiB": 80, "launch_overhead_us": 4}},
  "devices": [{"name": "gpu0", "kind": "H100"}, {"name": "gpu1", "kind": "H100"}],
  "links": [{"between": ["gpu0", "gpu1"], "kind": "NVLink", "bandwidth_GBps": 150, "latency_us": 3}]
})";

GpuKernel gemm(DType t, int64_t m, int64_t n, int64_t k) {
  GpuKernel g;
  g.kind = GpuKernel::Kind::Gemm;
  g.dtype = t;
  g.m = m;
  g.n = n;
  g.k = k;
  g.flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int64_t e = dtypeSize(t);
  g.bytesRead = (m * k + k * n) * e;
  g.bytesWritten = m * n * e;
  return g;
}

GpuKernel memoryKernel(int64_t read, int64_t written, double flops) {
  GpuKernel g;
  g.kind = GpuKernel::Kind::Memory;
  g.bytesRead = read;
  g.bytesWritten = written;
  g.flops = flops;
  return g;
}

// Two launches on device 0, one after the other: a 4096^3 f16 GEMM, then a memory kernel.
GpuProgram twoKernelProgram() {
  GpuProgram p;
  p.numDevices = 1;
  GpuLaunch a, b;
  a.ops = {0};
  a.kernel = gemm(DType::F16, 4096, 4096, 4096);
  b.ops = {1};
  b.kernel = memoryKernel(int64_t{64} << 20, int64_t{64} << 20, 1e9);
  p.launches = {a, b};
  p.order = {{0, 1}};
  p.issue = {{false, 0}, {false, 1}};
  p.scratchBytes = {std::max(a.kernel.bytesRead + a.kernel.bytesWritten, b.kernel.bytesRead + b.kernel.bytesWritten)};
  return p;
}

// The local GPUs profiled with --quick, once per process, as `graphplace-cli profile --quick`
// would write the cluster file (only GPU 0).
const Cluster& profiledCluster() {
  static const Cluster c = [] {
    ProfileOptions o;
    o.quick = true;
    o.devices = {0};
    const ProfileResult r = runProfile(o);
    const ProfileSummary s = summarizeProfile(r);
    return parseClusterJson(profileClusterJson(r, s, "local"), "local.json");
  }();
  return c;
}

std::string ms(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  return buf;
}

}  // namespace

TEST(ExecutorGpu, TwoKernelsRunInOrderOnGpu0) {
  if (const std::string why = gpuMeasureUnavailable(1); !why.empty()) GTEST_SKIP() << why;
  const GpuProgram p = twoKernelProgram();
  GpuRunOptions o;
  o.warmupSteps = 2;
  o.steps = 5;
  std::vector<std::string> lines;
  const GpuRunResult r = executeOnGpus(p, o, [&](const std::string& l) { lines.push_back(l); });
  for (const std::string& l : lines) std::cout << "  | " << l << "\n";
  ASSERT_EQ(r.stepSeconds.size(), 5u);
  ASSERT_GE(r.medianStep, 0);
  ASSERT_LT(r.medianStep, 5);
  const double step = r.stepSeconds[r.medianStep];
  for (double t : r.stepSeconds) {
    EXPECT_GT(t, 0);
    EXPECT_LT(t, 1.0);
  }
  // the GEMM alone is 137 GFLOP: at most ~1000 TFLOP/s, so at least 0.13 ms
  EXPECT_GT(step, 0.13e-3);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].ordinal, 0);
  EXPECT_FALSE(r.gpus[0].name.empty());
  if (r.timer != "cupti") GTEST_SKIP() << "no CUPTI timeline (" << r.note << "); step " << ms(step);
  ASSERT_FALSE(r.records.empty());

  ActivityTimelineOptions to;
  to.idOf = [](const ActivityRecord& a) { return static_cast<int32_t>(a.externalId); };
  const ActivityTimeline t = toTimeline(r.records, to);
  std::map<int32_t, std::pair<double, double>> span;  // external id -> first start, last end
  for (const TimelineEvent& e : t.events) {
    if (e.id != 1 && e.id != 2) continue;
    EXPECT_EQ(e.kind, TimelineEvent::Kind::Op);
    EXPECT_EQ(e.resource, 0);  // gpu0
    auto [it, fresh] = span.emplace(e.id, std::pair{e.start, e.end});
    if (!fresh) {
      it->second.first = std::min(it->second.first, e.start);
      it->second.second = std::max(it->second.second, e.end);
    }
  }
  ASSERT_EQ(span.count(1), 1u) << "no kernel of the GEMM (external id 1)";
  ASSERT_EQ(span.count(2), 1u) << "no kernel of the memory kernel (external id 2)";
  EXPECT_LE(span[1].second, span[2].first) << "the memory kernel started before the GEMM ended (one stream)";
  EXPECT_GT(span[1].second - span[1].first, 0.1e-3);
  // the step holds both kernels (CUDA events resolve about 0.5 us)
  EXPECT_GE(step + 2e-6, span[2].second - span[1].first);
  std::cout << "  step " << ms(step) << ", GEMM " << ms(span[1].second - span[1].first) << ", memory kernel "
            << ms(span[2].second - span[2].first) << "\n";
}

TEST(ExecutorGpu, ErrorsAreOneClearLine) {
  if (const std::string why = gpuMeasureUnavailable(1); !why.empty()) GTEST_SKIP() << why;
  const int gpus = static_cast<int>(listGpus().size());
  auto errorOf = [](const GpuProgram& p, const GpuRunOptions& o, const std::atomic<bool>* cancel = nullptr) {
    try {
      executeOnGpus(p, o, {}, cancel);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  GpuRunOptions o;
  o.warmupSteps = 0;
  o.steps = 1;
  GpuProgram p = twoKernelProgram();
  o.ordinals = {gpus + 3};
  EXPECT_NE(errorOf(p, o).find("there is no GPU " + std::to_string(gpus + 3)), std::string::npos) << errorOf(p, o);
  o.ordinals.clear();
  // one device more than there are GPUs
  GpuProgram wide = p;
  wide.numDevices = gpus + 1;
  wide.launches[1].device = gpus;
  wide.order = std::vector<std::vector<int32_t>>(static_cast<size_t>(gpus + 1));
  wide.order[0] = {0};
  wide.order[gpus] = {1};
  wide.scratchBytes.assign(static_cast<size_t>(gpus + 1), wide.scratchBytes[0]);
  EXPECT_NE(errorOf(wide, o).find("GPU(s) are here"), std::string::npos) << errorOf(wide, o);
  // an operand larger than any GPU's memory
  GpuProgram huge = p;
  huge.launches[1].kernel = memoryKernel(int64_t{1} << 50, 16, 0);
  const std::string oom = errorOf(huge, o);
  EXPECT_NE(oom.find("gpu0: the plan's largest op needs"), std::string::npos) << oom;
  EXPECT_NE(oom.find("GiB free"), std::string::npos) << oom;
  // an issue order that leaves a launch out
  GpuProgram unordered = p;
  unordered.issue = {{false, 1}};
  EXPECT_NE(errorOf(unordered, o).find("the GPU program is inconsistent"), std::string::npos);
  std::atomic<bool> cancel{true};
  EXPECT_EQ(errorOf(p, o, &cancel), "profile: cancelled");
  for (const std::string& e : {oom, errorOf(wide, o)}) EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(KernelTimingGpu, IdenticalKernelsAreTimedOnceAndSizesOrderTheTimes) {
  if (const std::string why = gpuMeasureUnavailable(1); !why.empty()) GTEST_SKIP() << why;
  const std::vector<GpuInfo> gpus = listGpus();
  const GpuInfo& g = gpus[0];
  const int64_t bytes = int64_t{256} << 20;
  const std::vector<GpuKernel> kernels = {gemm(DType::F16, 1024, 1024, 1024), gemm(DType::F16, 4096, 4096, 4096),
                                          gemm(DType::F16, 1024, 1024, 1024), GpuKernel{},
                                          memoryKernel(bytes, bytes, 0)};
  KernelTimingOptions o;
  o.repetitions = 10;
  const std::vector<double> t = timeKernels(kernels, o);
  ASSERT_EQ(t.size(), kernels.size());
  EXPECT_EQ(t[0], t[2]);  // the same kernel, timed once
  EXPECT_EQ(t[3], 0.0);   // no kernel
  EXPECT_GT(t[0], 0.0);
  EXPECT_GT(t[1], 10 * t[0]);  // 64x the FLOPs; the small one is partly launch-bound
  if (g.memClockHz > 0 && g.memBusWidthBits > 0) {
    const double peak = 2 * g.memClockHz * g.memBusWidthBits / 8;  // bytes/s
    EXPECT_GT(t[4], 2.0 * static_cast<double>(bytes) / peak);      // never faster than the memory
    EXPECT_LT(t[4], 4 * 2.0 * static_cast<double>(bytes) / peak);
  }
  std::cout << "  GEMM f16 1024^3 " << ms(t[0]) << ", 4096^3 " << ms(t[1]) << ", memory 2 x 256 MiB " << ms(t[4])
            << "\n";
}

// Single-device plans of two zoo workloads of different kinds (a CNN and an LSTM), measured
// on GPU 0 and compared with the simulator calibrated for exactly these kernels.
TEST(ExecutorGpu, ZooStepMatchesTheCalibratedSimulator) {
  if (const std::string why = gpuMeasureUnavailable(1); !why.empty()) GTEST_SKIP() << why;
  const Cluster& cluster = profiledCluster();
  struct Case {
    const char* model;
    int batch, seqLen;
  };
  // batches large enough that most kernels outlast their launch: the LSTM's gate kernels are
  // otherwise host-bound, and a host-bound op is charged its launch rate back to back but runs
  // queued behind the GEMMs in the step
  for (const Case& w : {Case{"resnet50", 32, 0}, Case{"rnnlm", 256, 10}}) {
    SCOPED_TRACE(w.model);
    LoadOptions lo;
    lo.zoo.batch = w.batch;
    lo.zoo.seqLen = w.seqLen;
    const Graph g = loadModel(std::string("zoo:") + w.model, lo);  // the training step
    const CostModel uncalibrated(g, cluster);
    const CalibrationTable table = calibrateModel(uncalibrated, {0}, KernelTimingOptions{});
    const CostModel cost(g, cluster, {}, &table);
    EXPECT_GT(cost.numCalibrated(), 0);
    GpuMeasureOptions mo;
    mo.warmupSteps = 3;
    mo.steps = 7;
    const GpuMeasureResult r = measureOnGpus(cost, Plan::singleDevice(g.numOps(), 0), mo);
    std::cout << "  " << w.model << " batch " << w.batch << ": " << g.numOps() << " ops, " << r.launches
              << " launches, " << table.size() << " calibrated signatures; simulated " << ms(r.simulated.stepTime)
              << ", measured " << ms(r.measured.stepTime) << " (" << (r.difference() >= 0 ? "+" : "")
              << r.difference() * 100 << " %), timer " << r.timer << (r.note.empty() ? "" : ", " + r.note) << "\n";
    EXPECT_GT(r.measured.stepTime, 0);
    EXPECT_EQ(r.copies, 0);
    EXPECT_LT(std::abs(r.difference()), kTolerance)
        << "simulated " << ms(r.simulated.stepTime) << ", measured " << ms(r.measured.stepTime);
    if (r.timer == "cupti") {
      EXPECT_FALSE(r.measured.timeline.empty());
      ASSERT_EQ(r.measured.devices.size(), static_cast<size_t>(cluster.numDevices()));
      EXPECT_GT(r.measured.devices[0].busy, 0.5 * r.measured.stepTime);
      EXPECT_LE(r.measured.devices[0].busy, r.measured.stepTime * 1.001);
    }
  }
}

// With two GPUs: a plan split over devices 0 and 1 sends tensors between them, and each peer
// copy shows on the measured timeline as a Transfer.
TEST(ExecutorGpu, PeerCopiesOfATwoDevicePlanAreTransfers) {
  if (const std::string why = gpuMeasureUnavailable(2); !why.empty()) GTEST_SKIP() << why;
  const Cluster cluster = parseClusterJson(kTwoGpus, "two-gpus.json");
  LoadOptions lo;
  lo.zoo.batch = 16;
  lo.zoo.seqLen = 4;
  const Graph g = loadModel("zoo:rnnlm", lo);
  const CostModel cost(g, cluster);
  Plan plan = Plan::singleDevice(g.numOps(), 0);
  const auto topo = g.topoOrder();
  for (size_t i = topo.size() / 2; i < topo.size(); ++i) plan.device[topo[i]] = 1;
  GpuMeasureOptions mo;
  mo.warmupSteps = 2;
  mo.steps = 3;
  const GpuMeasureResult r = measureOnGpus(cost, plan, mo);
  ASSERT_GT(r.copies, 0);
  EXPECT_GT(r.measured.stepTime, 0);
  std::cout << "  " << r.launches << " launches, " << r.copies << " peer copies; simulated " << ms(r.simulated.stepTime)
            << ", measured " << ms(r.measured.stepTime) << "\n";
  if (r.timer != "cupti") GTEST_SKIP() << "no CUPTI timeline: " << r.note;
  int transfers = 0;
  for (const TimelineEvent& e : r.measured.timeline) {
    if (e.kind != TimelineEvent::Kind::Transfer) continue;
    ++transfers;
    EXPECT_TRUE(e.dst == 0 || e.dst == 1) << e.dst;
    EXPECT_GT(e.bytes, 0);
    EXPECT_GE(e.end, e.start);
  }
  EXPECT_GT(transfers, 0);
  EXPECT_LE(transfers, r.copies);
  EXPECT_GT(r.measured.commBytes, 0);
}
