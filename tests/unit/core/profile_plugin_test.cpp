// The profiler's plugin loader and `graphplace-cli profile`, with and without a GPU.
//
// ProfileLoader.* / CliProfile.*: run everywhere; on a machine without a GPU (or a build without
// CUDA) profiling must fail with one clear line, never crash.
// ProfileGpu.*: the real profiler on a real GPU (scripts/gpu-check.sh runs them with
// --gtest_filter='ProfileGpu*'); each skips with the reason when no GPU can be used.
#include "profile/profile_plugin.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "cli_runner.h"
#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "graph/error.h"
#include "profile/profile_output.h"

using namespace gp;

namespace {

// The GPUs here, or the one-line reason there are none usable.
struct Probe {
  std::vector<GpuInfo> gpus;
  std::string error;
};

Probe probe() {
  Probe p;
  try {
    p.gpus = listGpus();
  } catch (const Error& e) {
    p.error = e.what();
  }
  return p;
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_profile_" + std::to_string(::getpid()) + "_" + name)).string();
}

}  // namespace

TEST(ProfileLoader, WithoutAGpuTheErrorIsOneClearLine) {
  const Probe p = probe();
  if (p.error.empty())
    GTEST_SKIP() << "a GPU is present (" << p.gpus.size() << "); the no-GPU path needs a machine without one";
  EXPECT_EQ(p.error.find('\n'), std::string::npos);
  EXPECT_EQ(p.error.rfind("profile: ", 0), 0u) << p.error;
  if (!profilerBuilt()) {
    EXPECT_EQ(p.error, std::string("profile: ") + kBuiltWithoutCuda);
  } else {
    bool known = false;
    for (const char* why : {"no NVIDIA driver found", "no NVIDIA GPU found", "the NVIDIA driver supports CUDA",
                            "cannot load the GPU profiler plugin", "cannot use the GPUs"})
      known = known || p.error.find(why) != std::string::npos;
    EXPECT_TRUE(known) << p.error;
  }
  // the full profile and the trace check fail the same way, before measuring anything
  try {
    runProfile(ProfileOptions{});
    FAIL() << "runProfile succeeded without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), p.error);
  }
  EXPECT_THROW(traceSample(0), Error);
}

TEST(ProfileLoader, PluginNamedByTheEnvironment) {
  {
    ScopedEnv env("GP_PROFILE_PLUGIN", "/nonexistent/libgp_profile.so");
    try {
      listGpus();
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("GP_PROFILE_PLUGIN does not exist: /nonexistent/libgp_profile.so"),
                std::string::npos)
          << e.what();
    }
  }
  const std::string junk = tempPath("junk.so");
  std::ofstream(junk) << "not a shared library";
  {
    ScopedEnv env("GP_PROFILE_PLUGIN", junk);
    try {
      runProfile(ProfileOptions{});
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot load the GPU profiler plugin " + junk), std::string::npos)
          << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  std::filesystem::remove(junk);
}

TEST(ProfileLoader, BadOptionsAreRefusedBeforeLoading) {
  ProfileOptions o;
  o.devices = {0, -1};
  EXPECT_THROW(runProfile(o), Error);
  ProfileOptions big;
  big.maxPeerExponent = 41;
  EXPECT_THROW(runProfile(big), Error);
  EXPECT_THROW(traceSample(-1), Error);
}

TEST(CliProfile, WithoutAGpuExitsWithOneLine) {
  const Probe p = probe();
  if (p.error.empty()) GTEST_SKIP() << "a GPU is present; see ProfileGpu.*";
  const std::string out = tempPath("cli_cluster.json");
  gptest::CliRun r = gptest::runCli("profile --quick --out " + out);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(p.error), std::string::npos) << r.err;  // the same reason the library gives
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST(CliProfile, BadArgumentsAreOneLine) {
  for (const std::string& args :
       {std::string("profile"), std::string("profile --out"), std::string("profile --out x.json --timer sometimes"),
        std::string("profile --out /nonexistent-dir/x.json"), std::string("profile --out x.json --devices 0,a"),
        std::string("profile --out x.json --max-peer-exponent 99"), std::string("profile extra --out x.json"),
        std::string("profile --out x.json --calibration /nonexistent-dir/c.json"),
        std::string("profile --out x.json --report /nonexistent-dir/r.json")}) {
    gptest::CliRun r = gptest::runCli(args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
  gptest::CliRun help = gptest::runCli("--help");
  EXPECT_NE(help.out.find("graphplace-cli profile --out CLUSTER.json"), std::string::npos);
}

// ---- on a GPU (label: these names start with ProfileGpu) ----

TEST(ProfileGpu, CuptiRecordsOfTaggedWorkBecomeATimeline) {
  const Probe p = probe();
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
  const Probe p = probe();
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
  if (g.name.find("H100") != std::string::npos || g.name.find("H200") != std::string::npos) {
    // datasheet: 989 TFLOP/s dense f16/bf16 (SXM); cuBLAS reaches 60-80% of it
    EXPECT_GT(k.bestMatMul[f16], 400e12);
    EXPECT_LT(k.bestMatMul[f16], 1000e12);
    EXPECT_GT(k.bestMatMul[static_cast<size_t>(PeakType::BF16)], 400e12);
    EXPECT_GT(k.memBandwidth, 2.0e12);  // H100 SXM 3.35 TB/s, H200 4.8 TB/s
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
