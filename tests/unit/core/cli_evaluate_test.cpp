// graphplace-cli evaluate: one JSON object with the documented keys, a trace that opens as
// Chrome Trace Event JSON with one row per device, one-line errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.h"

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
  EXPECT_EQ(j["devices"][0]["memory_capacity_bytes"], 16LL << 30);

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
