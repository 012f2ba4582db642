// graphplace-cli pretrain and optimize --distributed as a user launches them: ranks on loopback
// train one policy together (the same seed and world size give the same policy file), a session
// resumes with another world size, optimize's ranks agree on one best plan, a rank killed mid-run
// makes the others exit non-zero within the timeout naming it, and bad launcher variables are a
// one-line error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "optimize/run_log.h"
#include "rank_process.h"

namespace {

using gptest::Rank;

std::string corpusFile(const std::filesystem::path& dir) {
  const std::string path = (dir / "corpus.json").string();
  // three small training graphs (two ranks: one rank steps two, the other one and an empty slot)
  std::ofstream(path) << R"({
    "format": "graphplace-corpus", "version": 1,
    "families": {
      "random": [{"model": "zoo:random_dag", "layers": 6, "hidden": 2, "graph_seed": [1, 2, 3], "batch": 8}],
      "resnet": [{"model": "zoo:resnet50", "layers": 26, "hidden": 16, "batch": 8}]},
    "held_out": ["resnet"],
    "clusters": ["random:1:2"],
    "eval_clusters": ["4xP100-PCIe"]})";
  return path;
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `world` ranks of `graphplace-cli args --distributed`, waited for at most `limit` each.
std::vector<Rank> ranksOf(int world, const std::string& args, const std::string& tag,
                          std::chrono::seconds limit = std::chrono::seconds(300)) {
  const uint16_t port = gptest::freshPort();
  std::vector<std::string> argv;
  std::istringstream words(args + " --distributed");
  for (std::string w; words >> w;) argv.push_back(w);
  std::vector<Rank> ranks;
  for (int r = 0; r < world; ++r)
    ranks.push_back(gptest::start(GP_CLI_PATH, argv, gptest::rankVars(r, world, port), tag + std::to_string(r)));
  for (Rank& r : ranks) gptest::finish(r, limit);
  return ranks;
}

nlohmann::json lastJson(const std::string& out) {
  const auto start = out.rfind("\n{");
  return nlohmann::json::parse(start == std::string::npos ? out : out.substr(start + 1));
}

}  // namespace

TEST(DistCli, PretrainOnTwoRanksRepeatsAndResumesOnOne) {
  const auto dir = std::filesystem::temp_directory_path() / ("gp_dist_pretrain_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string corpus = corpusFile(dir);
  const std::string common = "--corpus " + corpus + " --rounds 3 --eval-every 3 --samples 2 --seed 3 --json";
  // the same file name in two folders (a policy archive names its records after the file)
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  const std::string p1 = (dir / "a" / "p.pt").string(), p2 = (dir / "b" / "p.pt").string(), s = (dir / "s.pt").string();
  const std::string events = (dir / "run.jsonl").string();
  std::vector<Rank> a =
      ranksOf(2, "pretrain " + common + " --checkpoint " + s + " --events " + events + " --out " + p1, "a");
  for (const Rank& r : a) ASSERT_EQ(r.code, 0) << r.stderrText;
  const nlohmann::json j = lastJson(a[0].stdoutText);
  EXPECT_EQ(j["ranks"], 2);
  EXPECT_EQ(j["rounds"], 3);
  EXPECT_EQ(j["samples"], 3 * 3 * 2);  // every rank's: 3 training tasks, 3 rounds, 2 samples
  ASSERT_EQ(j["tasks"].size(), 4u);
  for (const auto& t : j["tasks"]) EXPECT_GT(t["best_step_time_ms"].get<double>(), 0) << t;  // every rank's tasks
  EXPECT_EQ(a[1].stdoutText.find('{'), std::string::npos) << a[1].stdoutText;  // rank 0 reports the run
  // the event log holds every rank's tasks and the ranks' health
  gp::RunLogFollower log(events);
  ASSERT_TRUE(log.poll());
  const gp::RunLogState& st = log.state();
  EXPECT_EQ(st.command, "pretrain");
  EXPECT_EQ(st.ranks, 2);
  ASSERT_EQ(st.tasks.size(), 4u);
  std::set<int> ranksSeen;
  for (const auto& t : st.tasks) {
    EXPECT_EQ(t.round, 3) << t.name;
    if (!t.heldOut) ranksSeen.insert(t.rank);
  }
  EXPECT_EQ(ranksSeen, (std::set<int>{0, 1}));
  EXPECT_EQ(st.points.size(), 3u);  // rounds 1..3
  EXPECT_EQ(st.healthRound, 3);
  EXPECT_EQ(st.busySeconds.size(), 2u);
  EXPECT_TRUE(st.ended);
  // the same seed and world size: the same policy, bit for bit
  std::vector<Rank> b = ranksOf(2, "pretrain " + common + " --out " + p2, "b");
  for (const Rank& r : b) ASSERT_EQ(r.code, 0) << r.stderrText;
  ASSERT_FALSE(fileBytes(p1).empty());
  EXPECT_TRUE(fileBytes(p1) == fileBytes(p2)) << "the policy files differ";
  // the session goes on with one rank
  std::vector<Rank> c = ranksOf(1, "pretrain --corpus " + corpus + " --rounds 2 --eval-every 3 --samples 2 --json --resume " + s +
                                        " --out " + p2, "c");
  ASSERT_EQ(c[0].code, 0) << c[0].stderrText;
  EXPECT_EQ(lastJson(c[0].stdoutText)["rounds"], 5);
  EXPECT_EQ(lastJson(c[0].stdoutText)["ranks"], 1);
  std::filesystem::remove_all(dir);
}

TEST(DistCli, OptimizeRanksAgreeOnOneBestPlan) {
  const std::string args = "optimize zoo:resnet50 --layers 26 --hidden 16 --batch 8 --cluster 4xP100-PCIe "
                           "--policy scratch --iterations 4 --samples 2 --seed 5 --json";
  const std::string events = (std::filesystem::temp_directory_path() / ("gp_dist_opt_" + std::to_string(getpid()) + ".jsonl")).string();
  std::vector<Rank> a = ranksOf(2, args + " --events " + events, "opt_a"), b = ranksOf(2, args, "opt_b");
  for (const Rank& r : a) ASSERT_EQ(r.code, 0) << r.stderrText;
  for (const Rank& r : b) ASSERT_EQ(r.code, 0) << r.stderrText;
  EXPECT_TRUE(a[1].stdoutText.empty()) << a[1].stdoutText;  // rank 0 reports the run
  const nlohmann::json ja = lastJson(a[0].stdoutText), jb = lastJson(b[0].stdoutText);
  EXPECT_EQ(ja["ranks"], 2);
  EXPECT_EQ(ja["iterations"], 4);
  EXPECT_LE(ja["step_time_ms"].get<double>(), ja["best_baseline"]["step_time_ms"].get<double>());
  // the same seed and world size: the same search
  EXPECT_EQ(ja["history"], jb["history"]);
  EXPECT_EQ(ja["step_time_ms"], jb["step_time_ms"]);
  // the event log: the zero-shot plan, 4 iterations and rank 0's rounds of polishing, the best
  // plan, the end
  gp::RunLogFollower log(events);
  ASSERT_TRUE(log.poll());
  EXPECT_EQ(log.state().points.size(), 1 + ja["history"].size());
  EXPECT_GE(ja["history"].size(), 4u);
  EXPECT_EQ(static_cast<int>(log.state().bestPlan.device.size()), ja["ops"].get<int>());
  EXPECT_NEAR(log.state().bestStepMs, ja["step_time_ms"].get<double>(), 1e-9);
  EXPECT_TRUE(log.state().ended);
  std::filesystem::remove(events);
}

TEST(DistCli, AKilledRankStopsTheOthersWithinTheTimeout) {
  const auto dir = std::filesystem::temp_directory_path() / ("gp_dist_kill_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const uint16_t port = gptest::freshPort();
  const std::vector<std::string> argv{"pretrain", "--corpus", corpusFile(dir), "--rounds", "100000", "--samples", "2",
                                      "--eval-every", "1000", "--dist-timeout", "5", "--distributed", "--out",
                                      (dir / "p.pt").string()};
  Rank r0 = gptest::start(GP_CLI_PATH, argv, gptest::rankVars(0, 2, port), "kill0");
  Rank r1 = gptest::start(GP_CLI_PATH, argv, gptest::rankVars(1, 2, port), "kill1");
  // once the ranks have trained two rounds (rank 0 prints every rank's reports)
  auto text = [](const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(240) && text(r0.err).empty() &&
         text(r0.out).find("     2  random") == std::string::npos)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(text(r0.err).empty()) << text(r0.err);
  kill(r1.pid, SIGKILL);
  gptest::finish(r1, std::chrono::seconds(10));
  const double seconds = gptest::finish(r0, std::chrono::seconds(60));
  EXPECT_EQ(r0.code, 1) << r0.stdoutText;
  EXPECT_LT(seconds, 5 + 15);  // the timeout, the pulse check, a slot's work on a loaded machine
  EXPECT_NE(r0.stderrText.find("distributed: rank 0 of 2: "), std::string::npos) << r0.stderrText;
  EXPECT_NE(r0.stderrText.find("rank 1 stopped (exited, killed or frozen)"), std::string::npos) << r0.stderrText;
  EXPECT_EQ(std::count(r0.stderrText.begin(), r0.stderrText.end(), '\n'), 1) << r0.stderrText;
  std::filesystem::remove_all(dir);
}

TEST(DistCli, BadLauncherVariablesAreOneLine) {
  const std::vector<std::string> argv{"pretrain", "--models", "zoo:rnnlm", "--distributed", "--out", "/tmp/unused.pt"};
  Rank r = gptest::start(GP_CLI_PATH, argv, gptest::rankVars(2, 2, gptest::freshPort()), "badvars");
  gptest::finish(r, std::chrono::seconds(60));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.stderrText.find("distributed: RANK=2 is not below WORLD_SIZE=2"), std::string::npos) << r.stderrText;
  EXPECT_EQ(std::count(r.stderrText.begin(), r.stderrText.end(), '\n'), 1) << r.stderrText;
}
