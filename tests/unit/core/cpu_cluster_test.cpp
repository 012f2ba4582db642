// This machine's CPU as a device kind and a one-device cluster (`--cluster cpu`): the kind
// string the measurement source records, its thread count, and the roofline taken from a
// fitted model.
#include <gtest/gtest.h>

#include <thread>

#include "base/error.h"
#include "cluster/cluster.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/cpu_cluster.h"

using namespace gp;

TEST(CpuCluster, ReadsTheThreadCountOfACpuKind) {
  EXPECT_EQ(threadsOfCpuKind("cpu:AMD EPYC 7B13 (2 threads)"), 2);
  EXPECT_EQ(threadsOfCpuKind("cpu:Intel(R) Xeon(R) CPU @ 2.20GHz (64 threads)"), 64);
  EXPECT_EQ(threadsOfCpuKind("V100-SXM2-16GB"), 0);
  EXPECT_EQ(threadsOfCpuKind("cpu:x (0 threads)"), 0);
  EXPECT_EQ(threadsOfCpuKind("cpu:x (two threads)"), 0);
  EXPECT_EQ(threadsOfCpuKind("cpu:x threads)"), 0);
  const std::string here = thisCpuKind();
  EXPECT_EQ(here.rfind("cpu:", 0), 0u);
  EXPECT_EQ(threadsOfCpuKind(here), static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency())));
}

TEST(CpuCluster, TakesItsRooflineFromAFit) {
  const std::string threads = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  const AnalyticCostModel fit = AnalyticCostModel::parse(
      R"({"format": "graphplace-cpu-roofline", "version": 1, "peak_flops": {")" + threads +
          R"(": 2e11}, "bandwidth": {")" + threads +
          R"(": 4e10}, "efficiency": [0.5, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5, 0.005], "overhead": 2e-6, "table": {}})",
      "fit.json");
  const Cluster c = cpuCluster(&fit, "fit.json");
  ASSERT_EQ(c.numDevices(), 1);
  const DeviceSpec& d = c.device(0);
  EXPECT_EQ(c.name(), "cpu");
  EXPECT_EQ(d.kind, thisCpuKind());
  EXPECT_DOUBLE_EQ(d.peak[static_cast<size_t>(PeakType::F32)], 2e11);
  EXPECT_DOUBLE_EQ(d.memBandwidth, 4e10);
  EXPECT_DOUBLE_EQ(d.launchOverhead, 2e-6);
  EXPECT_DOUBLE_EQ(d.classEfficiency[static_cast<size_t>(OpClass::Conv)], 0.4);
  EXPECT_DOUBLE_EQ(d.classEfficiency[static_cast<size_t>(OpClass::Other)], 0.01);  // clamped to the file's range
  EXPECT_DOUBLE_EQ(c.framework().opOverhead, 0);
  EXPECT_NE(c.description().find("fit.json"), std::string::npos);
  // without a fit: nominal figures, still a valid cluster of this kind
  const Cluster nominal = cpuCluster(nullptr, "");
  EXPECT_EQ(nominal.device(0).kind, thisCpuKind());
  EXPECT_GT(nominal.device(0).memCapacity, 0);
}
