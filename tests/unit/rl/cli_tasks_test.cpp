// The CLI's joint tasks as a user runs them: optimize --tasks writes a placement file whose
// priorities and fusion groups evaluate to the same step time; a task left out keeps the start
// plan's decision; bad --tasks / --fuse are one-line errors; bench --tasks-table prints GO's
// rows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace {

nlohmann::json lastJson(const gptest::CliRun& r) {
  const auto start = r.out.rfind("\n{");
  return nlohmann::json::parse(start == std::string::npos ? r.out : r.out.substr(start + 1));
}

// Per op, the placement file's value of `key` as JSON text ("null" when absent).
std::vector<std::string> field(const std::string& path, const char* key) {
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  std::vector<std::string> v;
  for (const auto& op : j["ops"]) v.push_back(op.contains(key) ? op[key].dump() : "null");
  return v;
}

}  // namespace

TEST(CliTasks, JointPlanRoundTripsThroughItsPlacementFile) {
  const auto dir = std::filesystem::temp_directory_path() / "gp_cli_tasks_test";
  std::filesystem::create_directories(dir);
  const std::string joint = (dir / "joint.json").string(), sched = (dir / "sched.json").string();
  gptest::CliRun r = gptest::runCli("optimize zoo:wavenet --cluster 4xP100-PCIe --tasks placement,schedule,fusion "
                                    "--iterations 2 --threads 2 --json --out " + joint);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = lastJson(r);
  EXPECT_EQ(j["tasks"], "placement,schedule,fusion");
  ASSERT_TRUE(j["feasible"].get<bool>());
  const std::vector<std::string> groups = field(joint, "fusion_group");
  EXPECT_GT(std::count_if(groups.begin(), groups.end(), [](const std::string& g) { return g != "null" && g != "-1"; }),
            10);
  gptest::CliRun e = gptest::runCli("evaluate zoo:wavenet --placement " + joint + " --fuse plan --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NEAR(lastJson(e)["step_time_ms"].get<double>(), j["step_time_ms"].get<double>(), 1e-9);

  // scheduling alone from that file: the devices stay
  r = gptest::runCli("optimize zoo:wavenet --cluster 4xP100-PCIe --tasks schedule --fuse plan --iterations 2 "
                     "--threads 2 --json --start " + joint + " --out " + sched);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(field(sched, "device"), field(joint, "device"));
  EXPECT_LE(lastJson(r)["step_time_ms"].get<double>(), j["step_time_ms"].get<double>() + 1e-9);
  std::filesystem::remove_all(dir);
}

TEST(CliTasks, BadTasksAreOneLineErrors) {
  gptest::CliRun r = gptest::runCli("optimize zoo:wavenet --cluster 4xP100-PCIe --tasks placement,sorting");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("unknown task 'sorting'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = gptest::runCli("optimize zoo:wavenet --cluster 4xP100-PCIe --tasks placement --fuse plan");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--fuse plan"), std::string::npos) << r.err;
  r = gptest::runCli("optimize zoo:wavenet --cluster 4xP100-PCIe --start nowhere");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--start"), std::string::npos) << r.err;
  r = gptest::runCli("bench --tasks-table --tasks fusion --models zoo:wavenet");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("chooses the tasks"), std::string::npos) << r.err;
}

TEST(CliTasks, TasksTableHasGoRows) {
  gptest::CliRun r =
      gptest::runCli("bench --tasks-table --models zoo:wavenet --cluster 4xP100-PCIe --iterations 1 --threads 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = lastJson(r);
  ASSERT_EQ(j["models"].size(), 1u);
  const auto& row = j["models"][0];
  const auto& ms = row["step_time_ms"];
  for (const char* k : {"single", "single+fuse", "expert", "p", "p|s", "p+s", "s+f expert", "p|s|f", "p+s+f"})
    ASSERT_TRUE(ms.contains(k) && ms[k].is_number()) << k;
  EXPECT_LT(ms["single+fuse"].get<double>(), ms["single"].get<double>());  // fusion helps one device
  EXPECT_LE(ms["p|s"].get<double>(), ms["p"].get<double>() + 1e-9);      // p's plan is p|s's start
  const double sep = ms["p|s|f"].get<double>(), joint = ms["p+s+f"].get<double>();
  EXPECT_NEAR(row["joint_vs_separate_percent"].get<double>(), 100 * (sep - joint) / sep, 1e-9);
}
