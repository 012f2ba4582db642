// graphplace-cli baseline and bench as a user runs them.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

TEST(CliBaseline, AllMethodsJsonAndBestPlacementFile) {
  auto out = std::filesystem::temp_directory_path() / "gp_cli_best.json";
  gptest::CliRun r = gptest::runCli("baseline zoo:resnet50 --batch 4 --cluster 4xP100-PCIe --method all --json --out " +
                                    out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("lower_bound_ms"));
  ASSERT_EQ(j["results"].size(), 8u);
  double bestTime = 1e300;
  for (const auto& res : j["results"]) {
    for (const char* key : {"method", "step_time_ms", "feasible", "seconds"}) EXPECT_TRUE(res.contains(key)) << key;
    EXPECT_GE(res["step_time_ms"].get<double>(), j["lower_bound_ms"].get<double>() * (1 - 1e-9));
    if (res["feasible"].get<bool>()) bestTime = std::min(bestTime, res["step_time_ms"].get<double>());
  }
  // the written placement evaluates to the best step time
  gptest::CliRun ev = gptest::runCli("evaluate zoo:resnet50 --batch 4 --placement " + out.string() + " --json");
  ASSERT_EQ(ev.code, 0) << ev.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(ev.out)["step_time_ms"].get<double>(), bestTime);
  std::filesystem::remove(out);
}

TEST(CliBench, TableForTwoModels) {
  gptest::CliRun r = gptest::runCli("bench --cluster 4xP100-PCIe --models zoo:resnet50,zoo:rnnlm --batch 2 --seq-len 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["models"].size(), 2u);
  for (const auto& m : j["models"]) {
    EXPECT_EQ(m["results"].size(), 8u);
    ASSERT_FALSE(m["best"].is_null());
  }
  gptest::CliRun bad = gptest::runCli("baseline zoo:resnet50 --cluster 4xP100-PCIe --method magic");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("magic"), std::string::npos) << bad.err;
}
