// Policy, session, cost-model and Q-network files are LibTorch archives, and loading one runs
// its __setstate__ code: a file whose __setstate__ never ends (tests/data/malformed/
// setstate_loop.pt, written by make_fixtures.py) stops at GRAPHPLACE_TORCHSCRIPT_SECONDS with a
// one-line error in every reader, and a file LibTorch cannot read gives LibTorch's error as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/input_limits.h"
#include "cli_runner.h"
#include "error_text.h"
#include "rl/cost_gnn.h"
#include "rl/parallel_dqn.h"
#include "rl/policy_file.h"
#include "rl/pretrain_session.h"
#include "scoped_env.h"
#include "test_paths.h"

using gptest::errorOf;

TEST(HostileArchive, EveryReaderStopsAFileWhoseLoadingNeverEnds) {
  gptest::ScopedEnv seconds(gp::kTorchScriptSecondsVariable, "2");
  const std::string path = gptest::dataPath("malformed/setstate_loop.pt");
  const std::string expected =
      path + ": reading it ran longer than 2 s, over the limit (set GRAPHPLACE_TORCHSCRIPT_SECONDS to allow more)";
  const std::vector<std::function<void()>> readers = {
      [&] { gp::rl::loadCheckpoint(path); },
      [&] { gp::rl::loadSession(path, 10, 2); },
      [&] { gp::rl::loadPretrainSession(path, 1); },
      [&] { gp::rl::loadLearnedCostModel(path); },
      [&] { gp::rl::loadQNet(path); },
  };
  for (size_t i = 0; i < readers.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(errorOf(readers[i]), expected) << "reader " << i;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0) << "reader " << i;
  }
}

TEST(HostileArchive, AFileLibTorchCannotReadKeepsItsError) {
  const std::string path = gptest::dataPath("malformed/not_torchscript.pt");
  const std::string e = errorOf([&] { gp::rl::loadCheckpoint(path); });
  EXPECT_EQ(e.rfind(path + ": cannot read the policy: ", 0), 0u) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

// optimize prints its header before it loads the policy; the error is one line on stderr.
TEST(HostileArchive, OptimizeWithSuchAPolicyIsOneLine) {
  gptest::ScopedEnv seconds(gp::kTorchScriptSecondsVariable, "2");
  const gptest::CliRun r = gptest::runCli("optimize " + gptest::dataPath("onnx/mlp.onnx") +
                                          " --cluster 2xK80 --iterations 1 --policy " +
                                          gptest::dataPath("malformed/setstate_loop.pt"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("setstate_loop.pt: reading it ran longer than 2 s, over the limit"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}
