// graphplace-cli evaluate: one JSON object with the documented keys, a trace that opens as
// Chrome Trace Event JSON with one row per device, one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.h"
#include "cluster/cluster.h"

using namespace gp;

TEST(CliEvaluate, JsonHasTheDocumentedKeys) {
  auto trace = std::filesystem::temp_directory_path() / "gp_cli_trace.json";
  gptest::CliRun r = gptest::runCli("evaluate zoo:resnet50 --batch 2 --cluster 4xP100-PCIe --repeat 3 --json --trace " +
                                    trace.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"step_time_ms", "lower_bound_ms", "feasible", "comm_bytes", "sim_ms", "devices"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_TRUE(j["feasible"].get<bool>());
  EXPECT_GE(j["step_time_ms"].get<double>(), j["lower_bound_ms"].get<double>());
  EXPECT_EQ(j["comm_bytes"], 0);  // the single-device plan
  ASSERT_EQ(j["devices"].size(), 4u);
  EXPECT_DOUBLE_EQ(j["devices"][0]["busy_ms"].get<double>(), j["step_time_ms"].get<double>());
  EXPECT_GT(j["devices"][0]["peak_memory_bytes"].get<int64_t>(), 25'000'000LL * 4);  // weights at least
  EXPECT_EQ(j["devices"][0]["memory_capacity_bytes"], loadCluster("4xP100-PCIe").device(0).memCapacity);
  EXPECT_LT(j["devices"][0]["memory_capacity_bytes"], 16LL << 30);  // the framework keeps some

  std::ifstream in(trace);
  auto t = nlohmann::json::parse(in);
  std::set<std::string> rows;
  int ops = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") rows.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") {
      ++ops;
      EXPECT_GE(e["dur"].get<double>(), 0);
    }
  }
  EXPECT_EQ(rows.size(), 4u);  // one row per device, no transfers
  EXPECT_GT(ops, 100);
  std::filesystem::remove(trace);
}

TEST(CliEvaluate, BadInputIsOneLine) {
  for (const std::string& args : {std::string("evaluate zoo:resnet50"), std::string("evaluate zoo:resnet50 --cluster nope"),
                                  std::string("evaluate zoo:resnet50 --cluster 4xP100-PCIe --repeat 0")}) {
    gptest::CliRun r = gptest::runCli(args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// --fuse default adds the compilers' default fusion (shorter step, written to --out); a
// placement whose fusion groups break a rule is refused in one line; a bad --fuse value too.
TEST(CliEvaluate, FuseDefaultAndBadGroups) {
  const auto out = std::filesystem::temp_directory_path() / "gp_cli_fused.json";
  gptest::CliRun plain = gptest::runCli("evaluate zoo:resnet50 --batch 2 --cluster 4xP100-PCIe --json");
  gptest::CliRun fused =
      gptest::runCli("evaluate zoo:resnet50 --batch 2 --cluster 4xP100-PCIe --fuse default --json --out " + out.string());
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(fused.code, 0) << fused.err;
  EXPECT_LT(nlohmann::json::parse(fused.out)["step_time_ms"].get<double>(),
            nlohmann::json::parse(plain.out)["step_time_ms"].get<double>());
  // the written file carries the groups; reading it back gives the same step
  gptest::CliRun again = gptest::runCli("evaluate zoo:resnet50 --batch 2 --placement " + out.string() + " --json");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(again.out)["step_time_ms"].get<double>(),
                   nlohmann::json::parse(fused.out)["step_time_ms"].get<double>());
  // two heavy ops in one group: put every op with a fusion group into group 0
  std::ifstream in(out);
  auto j = nlohmann::json::parse(in);
  in.close();
  int grouped = 0;
  for (auto& op : j["ops"])
    if (op.contains("fusion_group")) {
      op["fusion_group"] = 0;
      ++grouped;
    }
  ASSERT_GT(grouped, 10);
  std::ofstream(out) << j.dump();
  gptest::CliRun bad = gptest::runCli("evaluate zoo:resnet50 --batch 2 --placement " + out.string());
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("fusion group 0"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  gptest::CliRun wrong = gptest::runCli("evaluate zoo:resnet50 --batch 2 --cluster 4xP100-PCIe --fuse maybe");
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.err.find("--fuse"), std::string::npos) << wrong.err;
  std::filesystem::remove(out);
}
