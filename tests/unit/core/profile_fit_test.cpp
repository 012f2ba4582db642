// The link model fit (latency + bytes / bandwidth) on synthetic transfers with noise, the
// too-few-sizes error, and the median helpers; the theoretical peaks and kind names.
#include <gtest/gtest.h>

#include <random>

#include "base/error.h"
#include "profile/gpu_peaks.h"
#include "profile/link_fit.h"

using namespace gp;

namespace {

// Transfers of 2^0..2^29 bytes, `reps` each, with multiplicative noise of +-noise (uniform).
std::vector<TransferSample> synthetic(double latency, double bandwidth, double noise, int reps, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  std::vector<TransferSample> s;
  for (int e = 0; e <= 29; ++e)
    for (int r = 0; r < reps; ++r) {
      const int64_t bytes = int64_t{1} << e;
      s.push_back({bytes, (latency + static_cast<double>(bytes) / bandwidth) * (1 + u(rng))});
    }
  return s;
}

}  // namespace

TEST(ProfileFit, RecoversLatencyAndBandwidthWithin1PercentUnderNoise) {
  struct Link {
    double latency, bandwidth;
  };
  // NVLink-like, PCIe-like, and a slow network-like link
  for (Link l : {Link{2.5e-6, 450e9}, Link{8e-6, 24e9}, Link{30e-6, 5e9}}) {
    for (uint32_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(::testing::Message() << "latency " << l.latency << " bandwidth " << l.bandwidth << " seed " << seed);
      const auto raw = synthetic(l.latency, l.bandwidth, 0.02, 5, seed);
      for (const auto& samples : {raw, medianPerSize(raw)}) {
        const LinkFit f = fitLatencyBandwidth(samples);
        EXPECT_NEAR(f.latency, l.latency, 0.01 * l.latency);
        EXPECT_NEAR(f.bandwidth, l.bandwidth, 0.01 * l.bandwidth);
        EXPECT_EQ(f.distinctSizes, 30);
        EXPECT_LT(f.maxRelativeError, 0.05);
      }
    }
  }
}

TEST(ProfileFit, ExactDataIsExact) {
  const LinkFit f = fitLatencyBandwidth(synthetic(3e-6, 100e9, 0, 1, 1));
  EXPECT_NEAR(f.latency, 3e-6, 1e-12);
  EXPECT_NEAR(f.bandwidth, 100e9, 1e3);
  EXPECT_NEAR(f.seconds(1 << 20), 3e-6 + (1 << 20) / 100e9, 1e-12);
  EXPECT_LT(f.maxRelativeError, 1e-9);
}

TEST(ProfileFit, TooFewDistinctSizesIsAClearError) {
  const std::vector<TransferSample> one = {{1024, 1e-5}, {1024, 1.1e-5}, {1024, 0.9e-5}};
  for (const auto& s : {one, std::vector<TransferSample>{}}) {
    try {
      fitLatencyBandwidth(s);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("at least 2 distinct sizes"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(fitLatencyBandwidth(std::vector<TransferSample>{{1024, 1e-5}, {2048, 2e-5}}));
}

TEST(ProfileFit, BadSamplesAreErrors) {
  EXPECT_THROW(fitLatencyBandwidth(std::vector<TransferSample>{{1, 1e-6}, {2, 0}}), Error);
  EXPECT_THROW(fitLatencyBandwidth(std::vector<TransferSample>{{1, 1e-6}, {-2, 1e-6}}), Error);
  EXPECT_THROW(fitLatencyBandwidth(std::vector<TransferSample>{{1, 1e-6}, {2, std::nan("")}}), Error);
  try {  // time falls with size: no bandwidth
    fitLatencyBandwidth(std::vector<TransferSample>{{1, 2e-6}, {1 << 20, 1e-6}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not grow with size"), std::string::npos) << e.what();
  }
  // a negative intercept is clamped to 0 and the bandwidth refitted through the origin
  const LinkFit f = fitLatencyBandwidth(std::vector<TransferSample>{{1000, 0.5e-6}, {2000, 1.5e-6}, {4000, 3.5e-6}});
  EXPECT_EQ(f.latency, 0.0);
  EXPECT_GT(f.bandwidth, 0.0);
}

TEST(ProfileFit, Medians) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  const auto m = medianPerSize(std::vector<TransferSample>{{8, 3}, {1, 5}, {8, 1}, {8, 2}, {1, 7}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].bytes, 1);
  EXPECT_EQ(m[0].seconds, 6.0);
  EXPECT_EQ(m[1].bytes, 8);
  EXPECT_EQ(m[1].seconds, 2.0);
}

TEST(ProfilePeaks, HopperAndUnknownArchitectures) {
  // H100 SXM5: 132 SMs at 1980 MHz
  const auto p = theoreticalPeaks(9, 0, 132, 1.98e9);
  ASSERT_TRUE(p);
  EXPECT_NEAR((*p)[static_cast<int>(PeakType::F32)] / 1e12, 66.9, 0.1);    // datasheet: 67
  EXPECT_NEAR((*p)[static_cast<int>(PeakType::F64)] / 1e12, 33.5, 0.1);    // datasheet: 34
  EXPECT_NEAR((*p)[static_cast<int>(PeakType::F16)] / 1e12, 1070.5, 0.5);  // datasheet 989 at 1830 MHz
  EXPECT_EQ((*p)[static_cast<int>(PeakType::BF16)], (*p)[static_cast<int>(PeakType::F16)]);
  const auto turing = theoreticalPeaks(7, 5, 40, 1.59e9);  // T4: 65 TFLOPS f16
  ASSERT_TRUE(turing);
  EXPECT_NEAR((*turing)[static_cast<int>(PeakType::F16)] / 1e12, 65.1, 0.1);
  EXPECT_EQ((*turing)[static_cast<int>(PeakType::BF16)], 0.0);  // no bf16 units: left out
  EXPECT_FALSE(theoreticalPeaks(12, 1, 48, 2.5e9));
  EXPECT_FALSE(theoreticalPeaks(9, 0, 0, 1.98e9));
}

TEST(ProfilePeaks, DeviceKindNames) {
  EXPECT_EQ(deviceKindName("NVIDIA H100 80GB HBM3", 85'520'809'984), "H100-80GB-HBM3");
  EXPECT_EQ(deviceKindName("NVIDIA H200", 150'754'820'096), "H200-140GB");
  EXPECT_EQ(deviceKindName("Tesla V100-SXM2-16GB", 16'945'512'448), "Tesla-V100-SXM2-16GB");
  EXPECT_EQ(deviceKindName("  NVIDIA  A100 (PCIe) ", 42'505'207'808), "A100-PCIe-40GB");
  EXPECT_EQ(deviceKindName("", 0), "GPU");
}
