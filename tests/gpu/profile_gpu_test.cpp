// The profiler on a real GPU (ctest label gpu; scripts/gpu-check.sh runs them): CUPTI records
// of tagged work become a timeline, and `profile --quick` gives a sane cluster file (H200 / H100
// GEMM throughput within a plausible range of the datasheet). Each test skips with the reason
// when the plugin is missing or no GPU can be used.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>
#include <set>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "gpu_probe.h"
#include "profile/activity.h"
#include "profile/gpu_peaks.h"
#include "profile/profile_output.h"
#include "profile/profile_plugin.h"

using namespace gp;

TEST(ProfileGpu, CuptiRecordsOfTaggedWorkBecomeATimeline) {
  const gptest::GpuProbe p = gptest::probeGpus();
  if (!p.error.empty()) GTEST_SKIP() << "no GPU: " << p.error;
  std::vector<ActivityRecord> rs;
  try {
    rs = traceSample(0);
  } catch (const Error& e) {
    if (std::string(e.what()).find("CUPTI") != std::string::npos) GTEST_SKIP() << e.what();
    throw;
  }
  ASSERT_FALSE(rs.empty());
  const ActivityTimeline t = toTimeline(rs);
  std::set<int32_t> ids;
  int kernels = 0, transfers = 0;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    ids.insert(e.id);
    EXPECT_GE(e.end, e.start);
    if (i) {
      EXPECT_GE(e.start, t.events[i - 1].start);  // sorted
    }
    if (e.kind == TimelineEvent::Kind::Transfer) {
      ++transfers;
      EXPECT_EQ(e.bytes, 1 << 20);
      EXPECT_EQ(e.dst, 1);
    } else if (rs[t.recordOf[i]].kind == ActivityRecord::Kind::Kernel) {
      ++kernels;
      EXPECT_GT(e.end, e.start);
      EXPECT_EQ(e.resource, 0);
    }
  }
  EXPECT_GE(kernels, 1);  // the GEMM (and the fill, with our own kernels)
  for (int32_t want : {1, 2, 3}) EXPECT_TRUE(ids.count(want)) << "no work tagged " << want;
  EXPECT_EQ(transfers, p.gpus.size() > 1 ? 1 : 0);
  EXPECT_LT(t.span, 1.0);
}

TEST(ProfileGpu, QuickProfileIsSane) {
  const gptest::GpuProbe p = gptest::probeGpus();
  if (!p.error.empty()) GTEST_SKIP() << "no GPU: " << p.error;
  ProfileOptions o;
  o.quick = true;
  o.devices = {0};
  if (p.gpus.size() > 1) o.devices.push_back(1);
  o.maxPeerExponent = 24;
  std::vector<std::string> lines;
  const ProfileResult r = runProfile(o, [&](const std::string& l) { lines.push_back(l); });
  EXPECT_GT(lines.size(), 10u);
  const ProfileSummary s = summarizeProfile(r);
  for (const std::string& l : lines) std::cout << "  | " << l << "\n";
  std::cout << profileSummaryText(r, s);
  const KindSummary& k = s.kinds[0];
  const GpuInfo& g = r.devices[0].gpu;
  // GEMM: f32 between 30% and 105% of the CUDA-core peak, f16 on tensor cores above f32
  const auto f32 = static_cast<size_t>(PeakType::F32), f16 = static_cast<size_t>(PeakType::F16);
  ASSERT_TRUE(k.matmulEfficiency[f32]);
  EXPECT_GT(*k.matmulEfficiency[f32], 0.3);
  EXPECT_LT(*k.matmulEfficiency[f32], 1.05);
  EXPECT_GT(k.bestMatMul[f16], 1.5 * k.bestMatMul[f32]);
  // tensor-core GEMMs below the architecture's peak at the maximum clock (gpu_peaks.cpp), which
  // is the most any GEMM can reach
  if (const auto peaks = theoreticalPeaks(g.ccMajor, g.ccMinor, g.multiprocessors, g.smClockHz)) {
    EXPECT_LT(k.bestMatMul[f16], 1.02 * (*peaks)[f16]);
    EXPECT_GT(k.bestMatMul[f16], 0.3 * (*peaks)[f16]);
  }
  if (g.name.find("H100") != std::string::npos || g.name.find("H200") != std::string::npos) {
    // datasheet (SXM): 989 TFLOP/s dense f16/bf16 at 1830 MHz, 67 TFLOP/s f32; cuBLAS reaches
    // 60-85 % of the tensor-core figure with 8192^3
    EXPECT_GT(k.bestMatMul[f16], 400e12);
    EXPECT_LT(k.bestMatMul[f16], 1000e12);
    EXPECT_GT(k.bestMatMul[static_cast<size_t>(PeakType::BF16)], 400e12);
    EXPECT_LT(k.bestMatMul[static_cast<size_t>(PeakType::BF16)], 1000e12);
    EXPECT_GT(k.bestMatMul[f32], 25e12);
    EXPECT_LT(k.bestMatMul[f32], 70e12);
    EXPECT_GT(k.memBandwidth, 2.0e12);  // H100 SXM 3.35 TB/s, H200 4.8 TB/s
  }
  if (g.name.find("H200") != std::string::npos) {
    EXPECT_GT(k.memBandwidth, 3.0e12);  // a device copy reaches 80-90 % of 4.8 TB/s
    EXPECT_LT(k.memBandwidth, 4.9e12);
  }
  // memory bandwidth: at most the theoretical (2 x memory clock x bus width), at least a third
  if (g.memClockHz > 0 && g.memBusWidthBits > 0) {
    const double theoretical = 2 * g.memClockHz * g.memBusWidthBits / 8;
    EXPECT_LT(k.memBandwidth, 1.1 * theoretical);
    EXPECT_GT(k.memBandwidth, 0.33 * theoretical);
  }
  EXPECT_GT(k.launchOverhead, 0.3e-6);
  EXPECT_LT(k.launchOverhead, 50e-6);
  ASSERT_TRUE(k.bandwidthFraction[static_cast<size_t>(OpClass::Elementwise)]);
  EXPECT_GT(*k.bandwidthFraction[static_cast<size_t>(OpClass::Elementwise)], 0.4);
  EXPECT_LT(*k.bandwidthFraction[static_cast<size_t>(OpClass::Elementwise)], 1.3);
  for (const LinkSummary& l : s.links) {
    EXPECT_GT(l.bandwidth, 1e9);
    EXPECT_LT(l.latency, 100e-6);
  }
  // the files load, and the simulator's view of a GEMM matches its measurement
  const Cluster c = parseClusterJson(profileClusterJson(r, s, "local"), "local.json");
  EXPECT_EQ(c.numDevices(), static_cast<int>(o.devices.size()));
  const CalibrationTable t = CalibrationTable::parse(profileCalibrationJson(r, profileCalibration(r, s)), "cal.json");
  EXPECT_GE(t.size(), 9u);  // 9 GEMMs + 2 convs + add + sum in quick mode
  EXPECT_TRUE(t.lookup("MatMul", std::vector<std::vector<int64_t>>{{4096, 4096}, {4096, 4096}}, DType::F16, k.kind));
}

// The plugin's runs share the CUPTI collector: a second run while one is going fails at once
// with one line (the app's profile dialog and Measure on GPUs must not mix their records).
TEST(ProfileGpu, ASecondRunWhileOneRunsIsRefused) {
  const gptest::GpuProbe p = gptest::probeGpus();
  if (!p.error.empty()) GTEST_SKIP() << "no GPU: " << p.error;
  std::atomic<bool> started{false}, cancel{false};
  std::thread first([&] {
    ProfileOptions o;
    o.quick = true;
    o.devices = {0};
    try {
      runProfile(o, [&](const std::string&) { started = true; }, &cancel);
    } catch (const Error&) {  // cancelled below
    }
  });
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  try {
    traceSample(0);
    ADD_FAILURE() << "a second run started while the profile ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the GPUs are busy"), std::string::npos) << e.what();
  }
  cancel = true;
  first.join();
}
