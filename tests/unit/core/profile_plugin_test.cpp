// The profiler's plugin loader and `graphplace-cli profile` without a GPU.
//
// ProfileLoader.* / CliProfile.*: run everywhere; on a machine without a GPU (or a build without
// CUDA) profiling must fail with one clear line, never crash. (With a GPU they skip; the real
// profiler on a real GPU is tested by tests/gpu/profile_gpu_test.cpp, ctest label gpu.)
#include "profile/profile_plugin.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "cli_runner.h"
#include "gpu_probe.h"
#include "scoped_env.h"
#include "base/error.h"

using namespace gp;

namespace {

using gptest::ScopedEnv;
using Probe = gptest::GpuProbe;
Probe probe() { return gptest::probeGpus(); }

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
