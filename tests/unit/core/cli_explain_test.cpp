// graphplace-cli explain: the JSON's critical path covers the step, its breakdown adds up, every
// suggestion shortens the step and re-simulates to the time it predicts; one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

TEST(CliExplain, JsonCoversTheStepAndItsSuggestionsHoldUp) {
  auto placement = std::filesystem::temp_directory_path() / "gp_explain_heft.json";
  gptest::CliRun b = gptest::runCli("baseline zoo:inception_v3 --cluster 4xP100-PCIe --method heft --out " + placement.string());
  ASSERT_EQ(b.code, 0) << b.err;
  gptest::CliRun r = gptest::runCli("explain zoo:inception_v3 --placement " + placement.string() + " --top 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const double step = j["step_time_ms"].get<double>();
  ASSERT_GT(step, 0);
  const auto& path = j["critical_path"];
  ASSERT_FALSE(path.empty());
  EXPECT_DOUBLE_EQ(path.front()["start_ms"].get<double>(), 0.0);
  EXPECT_NEAR(path.back()["end_ms"].get<double>(), step, 1e-9 * step);
  double sum = 0;
  for (const char* part : {"compute_ms", "transfer_ms"})
    for (const auto& [name, ms] : j["breakdown"][part].items()) sum += ms.get<double>();
  EXPECT_NEAR(sum, step, 1e-6 * step);
  EXPECT_GT(j["ops_without_slack"].get<int>(), 0);
  ASSERT_FALSE(j["most_slack"].empty());
  EXPECT_GT(j["most_slack"][0]["slack_ms"].get<double>(), 0);
  ASSERT_FALSE(j["suggestions"].empty());  // HEFT leaves moves on inception's path
  EXPECT_LE(j["suggestions"].size(), 3u);
  double last = 0;
  for (const auto& s : j["suggestions"]) {
    EXPECT_LT(s["step_time_ms"].get<double>(), step);
    EXPECT_GE(s["step_time_ms"].get<double>(), last);  // best first
    last = s["step_time_ms"].get<double>();
    EXPECT_DOUBLE_EQ(s["resimulated_ms"].get<double>(), s["step_time_ms"].get<double>());
  }
  gptest::CliRun text = gptest::runCli("explain zoo:inception_v3 --placement " + placement.string() + " --top 2");
  ASSERT_EQ(text.code, 0) << text.err;
  for (const char* line : {"critical path:", "compute", "transfers", "waits", "most slack:", "suggested moves"})
    EXPECT_NE(text.out.find(line), std::string::npos) << line;
  std::filesystem::remove(placement);
}

// --follow applies the top suggestion again and again, each one shorter; --report writes the
// plan report: one page with the sections, the two pictures and the path outlined.
TEST(CliExplain, FollowAndReport) {
  auto dir = std::filesystem::temp_directory_path();
  auto expert = dir / "gp_explain_expert.json", after = dir / "gp_explain_after.json", report = dir / "gp_explain.html";
  ASSERT_EQ(gptest::runCli("baseline zoo:resnet50 --cluster 4xP100-PCIe --method expert --out " + expert.string()).code, 0);
  gptest::CliRun r = gptest::runCli("explain zoo:resnet50 --placement " + expert.string() + " --follow 3 --top 2 --json --out " +
                                    after.string() + " --report " + report.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["followed"].size(), 3u);
  double last = j["start_step_time_ms"].get<double>();
  for (const auto& f : j["followed"]) {
    EXPECT_LT(f["step_time_ms"].get<double>(), last);
    last = f["step_time_ms"].get<double>();
  }
  EXPECT_DOUBLE_EQ(j["step_time_ms"].get<double>(), last);
  gptest::CliRun again = gptest::runCli("evaluate zoo:resnet50 --placement " + after.string() + " --json");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(again.out)["step_time_ms"].get<double>(), last);
  std::ifstream in(report);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* part : {"<!DOCTYPE html>", "Where the step time goes", "<h2>Devices</h2>", "<h2>Timeline</h2>",
                           "step by step", "<h2>Slack</h2>", "Suggested moves", "class=\"path\""})
    EXPECT_NE(html.find(part), std::string::npos) << part;
  EXPECT_EQ(std::count(html.begin(), html.end(), '<') - std::count(html.begin(), html.end(), '>'), 0);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained, nothing to run
  gptest::CliRun bad = gptest::runCli("explain zoo:resnet50 --placement " + expert.string() + " --report /nonexistent/dir/r.html");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("/nonexistent/dir/r.html"), std::string::npos) << bad.err;
  for (const auto& p : {expert, after, report}) std::filesystem::remove(p);
}

TEST(CliExplain, BadInputIsOneLine) {
  for (const std::string& args : {std::string("explain zoo:resnet50"), std::string("explain zoo:resnet50 --cluster nope"),
                                  std::string("explain zoo:resnet50 --cluster 4xP100-PCIe --top -1"),
                                  std::string("explain /nonexistent.onnx --cluster 4xP100-PCIe")}) {
    gptest::CliRun r = gptest::runCli(args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}
