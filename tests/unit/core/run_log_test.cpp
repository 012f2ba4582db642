// The run event log (optimize/run_log.h): what a writer appends a follower reads back, a line
// at a time as it arrives (half a line waits for its newline), a log started again restarts
// the state, and a hostile file — not JSON, another format, wrong types, a task or device out of
// range, an endless line — is one line naming the file and the line, keeping what came before.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "optimize/run_log.h"

using namespace gp;

namespace {

std::string tmpLog(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_run_log_" + std::to_string(getpid()) + "_" + name)).string();
}

void append(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::app) << text; }

std::string errorOf(RunLogFollower& f) {
  try {
    f.poll();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST(RunLog, AnOptimizeRunReadsBackAsItIsWritten) {
  const std::string path = tmpLog("optimize.jsonl");
  RunLogWriter w(path);
  w.event("run", {{"format", "graphplace-events"}, {"version", 1}, {"command", "optimize"}, {"ranks", 2}, {"seed", 7},
                  {"model", "zoo:resnet50"}, {"cluster", "4xP100-PCIe"}, {"ops", 3}, {"devices", 4},
                  {"lower_bound_ms", 1.5}, {"best_baseline", "m_etf"}, {"best_baseline_ms", 3.0}});
  RunLogFollower f(path);
  EXPECT_TRUE(f.poll());
  EXPECT_FALSE(f.poll());  // nothing new
  EXPECT_EQ(f.state().command, "optimize");
  EXPECT_EQ(f.state().ranks, 2);
  EXPECT_EQ(f.state().seed, 7u);
  EXPECT_EQ(f.state().ops, 3);
  EXPECT_EQ(f.state().bestBaseline, "m_etf");
  w.event("iteration", {{"iteration", 0}, {"mean_reward", -1.5}, {"best_reward", -1.4}, {"best_step_ms", 2.5}});
  w.event("best", {{"iteration", 0}, {"step_ms", 2.5}, {"devices", {0, 1, 1}}, {"priority", {3, 2, 1}}, {"fusion_group", {-1, -1, -1}}});
  w.event("iteration", {{"iteration", 1}, {"mean_reward", -1.3}, {"best_reward", -1.2}, {"best_step_ms", 2.0}});
  EXPECT_TRUE(f.poll());
  ASSERT_EQ(f.state().points.size(), 2u);
  EXPECT_TRUE(f.state().points[0].zeroShot);
  EXPECT_DOUBLE_EQ(f.state().points[1].bestStepMs, 2.0);
  EXPECT_EQ(f.state().bestPlan.device, (std::vector<int32_t>{0, 1, 1}));
  EXPECT_EQ(f.state().bestPlan.priority, (std::vector<int32_t>{3, 2, 1}));
  EXPECT_FALSE(f.state().ended);
  w.event("end", {{"seconds", 4.5}, {"stopped", false}, {"iterations", 1}, {"best_step_ms", std::numeric_limits<double>::infinity()}});
  EXPECT_TRUE(f.poll());
  EXPECT_TRUE(f.state().ended);
  EXPECT_DOUBLE_EQ(f.state().seconds, 4.5);
  EXPECT_EQ(f.state().events, 5);
  std::filesystem::remove(path);
}

TEST(RunLog, APretrainRunFoldsRoundsTasksAndRankHealth) {
  const std::string path = tmpLog("pretrain.jsonl");
  RunLogWriter w(path);
  w.event("run", {{"format", "graphplace-events"}, {"version", 1}, {"command", "pretrain"}, {"ranks", 2},
                  {"tasks", {{{"name", "a"}, {"held_out", false}}, {{"name", "b"}, {"held_out", false}},
                             {{"name", "c"}, {"held_out", true}}}}});
  w.event("evaluation", {{"round", 0}, {"task", 2}, {"rank", 0}, {"start_ms", 4.0}, {"best_ms", 3.0}, {"own_ms", nullptr}});
  w.event("round", {{"round", 1}, {"task", 0}, {"rank", 0}, {"mean_reward", -2.0}, {"start_ms", 2.0}, {"best_ms", 1.5}});
  w.event("round", {{"round", 1}, {"task", 1}, {"rank", 1}, {"mean_reward", -1.0}, {"start_ms", 5.0}, {"best_ms", 5.0}});
  w.event("ranks", {{"round", 1}, {"busy_s", {2.0, 1.5}}, {"waiting_s", {0.1, 0.6}}});
  RunLogFollower f(path);
  ASSERT_TRUE(f.poll());
  const RunLogState& s = f.state();
  ASSERT_EQ(s.tasks.size(), 3u);
  EXPECT_TRUE(s.tasks[2].heldOut);
  EXPECT_TRUE(std::isinf(s.tasks[2].ownMs));  // null: an infeasible plan
  EXPECT_EQ(s.tasks[1].rank, 1);
  ASSERT_EQ(s.points.size(), 1u);  // round 1: the mean and the best of its tasks' mean rewards
  EXPECT_DOUBLE_EQ(s.points[0].meanReward, -1.5);
  EXPECT_DOUBLE_EQ(s.points[0].bestReward, -1.0);
  EXPECT_EQ(s.healthRound, 1);
  EXPECT_EQ(s.waitingSeconds, (std::vector<double>{0.1, 0.6}));
  std::filesystem::remove(path);
}

TEST(RunLog, HalfALineWaitsAndARestartedLogStartsOver) {
  const std::string path = tmpLog("partial.jsonl");
  std::ofstream(path) << R"({"event": "run", "format": "graphplace-events", "version": 1, "command": "optimize", "ops": 2})"
                      << "\n"
                      << R"({"event": "iteration", "iteration": 1, "mean_)";
  RunLogFollower f(path);
  EXPECT_TRUE(f.poll());
  EXPECT_TRUE(f.state().points.empty());
  append(path, "reward\": -1.25}\n");
  EXPECT_TRUE(f.poll());
  ASSERT_EQ(f.state().points.size(), 1u);
  EXPECT_DOUBLE_EQ(f.state().points[0].meanReward, -1.25);
  // a new run truncates the file: the state is the new run's
  std::ofstream(path) << R"({"event": "run", "format": "graphplace-events", "version": 1, "command": "pretrain"})" << "\n";
  EXPECT_TRUE(f.poll());
  EXPECT_EQ(f.state().command, "pretrain");
  EXPECT_TRUE(f.state().points.empty());
  std::filesystem::remove(path);
}

TEST(RunLog, HostileLinesAreOneLineNamingFileAndLine) {
  const std::string head = R"({"event": "run", "format": "graphplace-events", "version": 1, "command": "pretrain", "tasks": [{"name": "a"}]})";
  const std::pair<std::string, std::string> cases[] = {
      {"{not json", "line 2: not JSON"},
      {"[1, 2]", "line 2: not an event"},
      {R"({"event": "round", "task": 5, "round": 1})", "line 2: task 5 is not among the run's tasks"},
      {R"({"event": "round", "task": 0, "round": -3})", "line 2: round is not a whole number"},
      {R"({"event": "round", "task": 0, "round": 1, "mean_reward": "high"})", "line 2: mean_reward is not a number"},
      {R"({"event": "best", "iteration": 1, "devices": [0, -1]})", "line 2: devices holds something other than whole numbers"},
      {R"({"event": "best", "iteration": 1, "devices": [0, 1], "priority": [1]})", "line 2: the best plan's lists differ"},
      {R"({"event": "ranks", "round": 1, "busy_s": "fast"})", "line 2: busy_s is not a list"},
  };
  for (const auto& [line, want] : cases) {
    const std::string path = tmpLog("hostile.jsonl");
    std::ofstream(path) << head << "\n" << line << "\n";
    RunLogFollower f(path);
    const std::string e = errorOf(f);
    EXPECT_NE(e.find(path + ": " + want), std::string::npos) << line << " -> " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos);
    EXPECT_EQ(f.state().tasks.size(), 1u) << "what came before the bad line stays";
    std::filesystem::remove(path);
  }
  const std::string other = tmpLog("other.jsonl");
  std::ofstream(other) << R"({"event": "run", "format": "something-else", "version": 1})" << "\n";
  RunLogFollower f(other);
  EXPECT_NE(errorOf(f).find("line 1: not a graphplace event log"), std::string::npos);
  std::filesystem::remove(other);
  RunLogFollower missing(tmpLog("missing.jsonl"));
  EXPECT_NE(errorOf(missing).find("no such event log"), std::string::npos);
}

TEST(RunLog, AnEndlessLineIsAnError) {
  const std::string path = tmpLog("endless.jsonl");
  {
    std::ofstream out(path);
    const std::string block(1 << 20, 'x');
    for (size_t i = 0; i <= RunLogFollower::kMaxLine >> 20; ++i) out << block;
  }
  RunLogFollower f(path);
  std::string e;
  for (int i = 0; i < 8 && e.empty(); ++i) e = errorOf(f);  // read in chunks
  EXPECT_NE(e.find("line 1 is longer than 64 MiB"), std::string::npos) << e;
  std::filesystem::remove(path);
}

TEST(RunLog, AnUnwritablePathIsOneLine) {
  try {
    RunLogWriter w("/nonexistent-dir/run.jsonl");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/run.jsonl: cannot write the event log"), std::string::npos);
  }
}
