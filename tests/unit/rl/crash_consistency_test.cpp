// kill -9 at random moments while graphplace-cli writes its files: exports (placement file,
// trace, JSON graph), optimize's checkpoint and saved policy, pre-training's session and policy.
// Every file that existed before a kill must still load afterwards (the old version or the new
// one, never a torn one), and --resume must continue from the last complete checkpoint.
//
// The loop runs for GP_CRASH_LOOP_SECONDS (default 20) and prints its counts;
// scripts/crash-loop.sh runs it for longer (docs/reliability.md).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"
#include "cluster/cluster.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "io/placement_file.h"
#include "rank_process.h"
#include "rl/policy_file.h"
#include "rl/pretrain_session.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

struct Output {
  std::string path;
  std::function<void(const std::string&)> load;  // throws gp::Error when the file is torn
};

struct Scenario {
  std::string name;
  std::vector<std::string> args;  // after the program
  std::vector<Output> outputs;
  double seconds = 0;             // one whole run, measured
};

int loopSeconds() {
  const char* s = std::getenv("GP_CRASH_LOOP_SECONDS");
  return s && std::atoi(s) > 0 ? std::atoi(s) : 20;
}

}  // namespace

TEST(CrashConsistency, KillNineNeverLeavesATornFileAndResumeContinues) {
  const fs::path dir = gptest::tmp("crash");
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto file = [&](const std::string& name) { return (dir / name).string(); };
  const std::string model = "zoo:rnnlm";
  const std::vector<std::string> modelArgs = {"--layers", "1", "--hidden", "16", "--seq-len", "4", "--batch", "4"};
  gp::LoadOptions lo;
  lo.zoo.layers = 1;
  lo.zoo.hidden = 16;
  lo.zoo.seqLen = 4;
  lo.zoo.batch = 4;
  const gp::Graph g = gp::loadModel(model, lo);
  const gp::ModelIdentity identity{model, gp::modelSha256(model, lo), g.numOps()};
  const int64_t devices = gp::loadCluster("4xP100-PCIe").numDevices();

  auto placement = [&](const std::string& p) { gp::readPlacement(p, g, identity); };
  auto json = [](const std::string& p) { gp::parseJsonText(gp::readFileText(p, "a trace"), p); };
  auto policy = [](const std::string& p) { gp::rl::loadCheckpoint(p); };
  auto session = [&](const std::string& p) { gp::rl::loadSession(p, g, devices); };
  auto pretrainSession = [](const std::string& p) { gp::rl::loadPretrainSession(p, 1); };
  auto graph = [](const std::string& p) { gp::readGraphJson(p); };

  auto withModel = [&](std::vector<std::string> args) {
    args.insert(args.begin() + 1, model);
    args.insert(args.begin() + 2, modelArgs.begin(), modelArgs.end());
    return args;
  };
  std::vector<Scenario> scenarios = {
      {"optimize",
       withModel({"optimize", "--cluster", "4xP100-PCIe", "--iterations", "6", "--samples", "4", "--threads", "1",
                  "--checkpoint", file("opt.ckpt"), "--checkpoint-every", "1", "--out", file("opt.json"), "--trace",
                  file("opt.trace.json"), "--save-policy", file("opt.pt")}),
       {{file("opt.ckpt"), session}, {file("opt.json"), placement}, {file("opt.trace.json"), json},
        {file("opt.pt"), policy}}},
      {"pretrain",
       {"pretrain", "--models", model, "--layers", "1", "--hidden", "16", "--seq-len", "4", "--batch", "4",
        "--clusters", "4xP100-PCIe", "--rounds", "3", "--checkpoint", file("pre.session"), "--out", file("pre.pt")},
       {{file("pre.session"), pretrainSession}, {file("pre.pt"), policy}}},
      {"export",
       {"zoo", "export", "gnmt", "--batch", "8", "--seq-len", "20", "--out", file("gnmt.json")},
       {{file("gnmt.json"), graph}}},
      {"evaluate",
       withModel({"evaluate", "--cluster", "4xP100-PCIe", "--out", file("eval.json"), "--trace", file("eval.trace.json")}),
       {{file("eval.json"), placement}, {file("eval.trace.json"), json}}},
  };

  // A whole run of each first: its files are the ones that must survive, its time the window.
  for (Scenario& s : scenarios) {
    gptest::Rank r = gptest::start(GP_CLI_PATH, s.args, {{"OMP_NUM_THREADS", "1"}}, "crash_" + s.name);
    s.seconds = gptest::finish(r, 300s);
    ASSERT_EQ(r.code, 0) << s.name << ": " << r.stderrText;
    for (const Output& o : s.outputs) ASSERT_NO_THROW(o.load(o.path)) << o.path;
  }

  std::mt19937 rng(12345);
  int runs = 0, kills = 0, checked = 0, torn = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(loopSeconds());
  for (size_t i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    const Scenario& s = scenarios[i % scenarios.size()];
    gptest::Rank r = gptest::start(GP_CLI_PATH, s.args, {{"OMP_NUM_THREADS", "1"}}, "crash_" + s.name);
    const auto wait = std::chrono::microseconds(
        std::uniform_int_distribution<int64_t>(0, static_cast<int64_t>(s.seconds * 1.1e6))(rng));
    std::this_thread::sleep_for(wait);
    kill(r.pid, SIGKILL);
    gptest::finish(r, 60s);
    ++runs;
    if (r.code == -9 || r.code == -SIGKILL) ++kills;
    for (const Output& o : s.outputs) {
      ++checked;
      try {
        o.load(o.path);
      } catch (const gp::Error& e) {
        ++torn;
        ADD_FAILURE() << s.name << " killed after " << wait.count() << " us: " << e.what();
      }
    }
  }
  std::printf("crash loop: %d runs, %d killed before they finished, %d files checked, %d torn\n", runs, kills, checked,
              torn);
  EXPECT_EQ(torn, 0);
  EXPECT_GT(kills, 0);

  // --resume from what the kills left: the runs continue to the end.
  gptest::Rank opt = gptest::start(
      GP_CLI_PATH, withModel({"optimize", "--cluster", "4xP100-PCIe", "--iterations", "8", "--samples", "4",
                              "--threads", "1", "--resume", file("opt.ckpt"), "--json"}),
      {{"OMP_NUM_THREADS", "1"}}, "crash_resume_opt");
  gptest::finish(opt, 300s);
  EXPECT_EQ(opt.code, 0) << opt.stderrText;
  gptest::Rank pre = gptest::start(
      GP_CLI_PATH,
      {"pretrain", "--models", model, "--layers", "1", "--hidden", "16", "--seq-len", "4", "--batch", "4",
       "--clusters", "4xP100-PCIe", "--rounds", "5", "--resume", file("pre.session"), "--out", file("pre2.pt")},
      {{"OMP_NUM_THREADS", "1"}}, "crash_resume_pre");
  gptest::finish(pre, 300s);
  EXPECT_EQ(pre.code, 0) << pre.stderrText;
  EXPECT_NO_THROW(policy(file("pre2.pt")));
  fs::remove_all(dir);
}
