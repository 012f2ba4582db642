// graphplace-cli opens TorchScript files through the on-demand LibTorch plugin.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "scoped_env.h"
#include "test_paths.h"

TEST(CliTorchScript, InfoLoadsThePluginOnDemand) {
  gptest::CliRun r =
      gptest::runCli("info " + gptest::dataPath("torchscript/resnet18.pt") + " --input-shape 1x3x224x224 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ops"], 69);  // fixtures.json: aten ops of the inlined forward graph
  EXPECT_NEAR(j["flops"].get<double>() / 2, 1.82e9, 0.05 * 1.82e9);
}

TEST(CliTorchScript, TrainingModeOnATorchScriptModel) {
  gptest::CliRun r = gptest::runCli("info " + gptest::dataPath("torchscript/mlp.pt") +
                                    " --input-shape 1x64 --mode training --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["backward_ops"].get<int>(), 0);
  EXPECT_GT(j["update_ops"].get<int>(), 0);
}

TEST(CliTorchScript, BadArchiveIsOneLine) {
  gptest::CliRun r = gptest::runCli("info " + gptest::dataPath("malformed/truncated.pt"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("truncated.pt: not a readable TorchScript archive"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A module whose forward never ends: the import stops at GRAPHPLACE_TORCHSCRIPT_SECONDS.
TEST(CliTorchScript, AModuleThatNeverEndsIsOneLine) {
  gptest::ScopedEnv seconds("GRAPHPLACE_TORCHSCRIPT_SECONDS", "2");
  gptest::expectCliError("info " + gptest::dataPath("malformed/endless_loop.pt") + " --input-shape 1x4",
                         "endless_loop.pt: importing it ran longer than 2 s, over the limit");
}
