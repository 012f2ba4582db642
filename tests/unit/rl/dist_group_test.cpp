// torch.distributed's Gloo group as graphplace's ranks use it: processes started on loopback
// (gp_dist_rank) agree bit for bit after an all-reduce, take rank 0's tensors in a broadcast,
// and report a rank that exited or hangs, an unreachable master, a port in use and bad
// variables in one line with a non-zero exit, each within a bounded time; scripts/launch-local.sh
// starts them as a user would.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dist_sync_scenario.h"
#include "rank_process.h"
#include "test_paths.h"

namespace {

using gptest::finish;
using gptest::freshPort;
using gptest::Rank;
using gptest::rankVars;
using gptest::slurp;
using gptest::tmp;

Rank start(const std::vector<std::string>& args, const std::map<std::string, std::string>& vars, const std::string& tag) {
  return gptest::start(GP_DIST_RANK_PATH, args, vars, tag);
}

std::vector<Rank> run(const std::string& mode, int world, int timeoutMs, std::chrono::seconds limit) {
  const uint16_t port = freshPort();
  std::vector<Rank> ranks;
  for (int r = 0; r < world; ++r)
    ranks.push_back(start({mode, std::to_string(timeoutMs)}, rankVars(r, world, port), mode + std::to_string(r)));
  for (Rank& r : ranks) finish(r, limit);
  return ranks;
}

}  // namespace

TEST(DistGroup, RanksAgreeBitForBitAfterAnAllReduce) {
  const std::vector<Rank> ranks = run("allreduce", 3, 20000, std::chrono::seconds(60));
  for (size_t r = 0; r < ranks.size(); ++r) {
    ASSERT_EQ(ranks[r].code, 0) << ranks[r].stderrText;
    // the mean of [1, 10], [2, 20], [3, 30]
    EXPECT_EQ(ranks[r].stdoutText, "rank " + std::to_string(r) + ": 2 20\n");
  }
}

TEST(DistGroup, BroadcastGivesEveryRankRootsTensors) {
  const std::vector<Rank> ranks = run("broadcast", 2, 20000, std::chrono::seconds(60));
  for (size_t r = 0; r < ranks.size(); ++r) {
    ASSERT_EQ(ranks[r].code, 0) << ranks[r].stderrText;
    EXPECT_EQ(ranks[r].stdoutText, "rank " + std::to_string(r) + ": 7 8 9\n");
  }
}

TEST(DistGroup, ARankThatExitsIsReportedByTheOthers) {
  std::vector<Rank> ranks = run("exit-early", 2, 5000, std::chrono::seconds(60));
  EXPECT_EQ(ranks[1].code, 0);
  EXPECT_EQ(ranks[0].code, 1) << ranks[0].stdoutText;
  // the all-reduce, or the barrier before it when rank 1 left while rank 0 still read its answer
  EXPECT_NE(ranks[0].stderrText.find("distributed: rank 0 of 2: "), std::string::npos) << ranks[0].stderrText;
  EXPECT_NE(ranks[0].stderrText.find(" failed: rank 1 stopped (exited, killed or frozen)"), std::string::npos)
      << ranks[0].stderrText;
  EXPECT_EQ(std::count(ranks[0].stderrText.begin(), ranks[0].stderrText.end(), '\n'), 1) << ranks[0].stderrText;
}

// Data-parallel updates (GradientSync): both ranks end with the weights one process gets by
// stepping with the mean of the contributing ranks' gradients, bit for bit.
TEST(DistGroup, UpdatesAverageTheContributingRanksGradients) {
  const std::vector<Rank> ranks = run("sync", 2, 20000, std::chrono::seconds(60));
  // one process: each step with the mean gradient of the ranks that contribute at that step
  torch::nn::Linear m = gptest::syncModel();
  const std::string start = gptest::weightsText(m);
  torch::optim::Adam adam(m->parameters(), torch::optim::AdamOptions(0.1));
  gp::rl::GradientSync plain(nullptr, m->parameters(), gptest::kSyncMaxNorm);
  for (int k = 0; k < gptest::kSyncSteps; ++k) {
    std::vector<torch::Tensor> sum;
    float contributing = 0;
    for (int r = 0; r < 2; ++r) {
      if (!gptest::syncContributes(r, k)) continue;
      adam.zero_grad();
      gptest::syncLoss(m, r, k).backward();
      for (size_t i = 0; i < m->parameters().size(); ++i) {
        const torch::Tensor g = m->parameters()[i].grad().clone();
        if (sum.size() <= i) sum.push_back(g);
        else sum[i] = sum[i] + g;
      }
      contributing += 1;
    }
    for (size_t i = 0; i < sum.size(); ++i) m->parameters()[i].mutable_grad() = sum[i] / contributing;
    plain.step(adam, true);
  }
  const std::string want = gptest::weightsText(m);
  EXPECT_NE(want, start);
  for (size_t r = 0; r < ranks.size(); ++r) {
    ASSERT_EQ(ranks[r].code, 0) << ranks[r].stderrText;
    EXPECT_EQ(ranks[r].stdoutText, "rank " + std::to_string(r) + ":" + want + "\n");
  }
}

TEST(DistGroup, ARankOutlivingRankZeroNamesIt) {
  std::vector<Rank> ranks = run("leader-exits", 2, 5000, std::chrono::seconds(60));
  EXPECT_EQ(ranks[0].code, 0);
  EXPECT_EQ(ranks[1].code, 1) << ranks[1].stdoutText;
  EXPECT_NE(ranks[1].stderrText.find("distributed: rank 1 of 2: "), std::string::npos) << ranks[1].stderrText;
  EXPECT_NE(ranks[1].stderrText.find("rank 0 stopped"), std::string::npos) << ranks[1].stderrText;
  EXPECT_EQ(std::count(ranks[1].stderrText.begin(), ranks[1].stderrText.end(), '\n'), 1) << ranks[1].stderrText;
}

TEST(DistGroup, AHungRankTimesTheOthersOut) {
  const uint16_t port = freshPort();
  Rank r0 = start({"hang", "2000"}, rankVars(0, 2, port), "hang0");
  Rank r1 = start({"hang", "2000"}, rankVars(1, 2, port), "hang1");
  // the all-reduce waits 2 s; rendezvous and start-up take a few more on a loaded machine
  finish(r0, std::chrono::seconds(45));
  kill(r1.pid, SIGKILL);
  finish(r1, std::chrono::seconds(10));
  EXPECT_EQ(r0.code, 1) << r0.stdoutText;
  EXPECT_NE(r0.stderrText.find("rank 0 of 2: all-reduce failed: rank 1 did not reach this step within 2 s (hung or too slow)"),
            std::string::npos)
      << r0.stderrText;
}

TEST(DistGroup, BadVariablesUnreachableMasterAndPortInUseGetOneLine) {
  auto oneLine = [](Rank r, const std::string& needle) {
    finish(r, std::chrono::seconds(45));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.stderrText.find(needle), std::string::npos) << r.stderrText;
    EXPECT_EQ(std::count(r.stderrText.begin(), r.stderrText.end(), '\n'), 1) << r.stderrText;
  };
  oneLine(start({"allreduce", "2000"}, rankVars(2, 2, freshPort()), "bad"), "distributed: RANK=2 is not below WORLD_SIZE=2");
  // rank 1 with nobody serving the rendezvous
  oneLine(start({"allreduce", "1500", "1500"}, rankVars(1, 2, freshPort()), "unreachable"),
          "rank 1 of 2: the rendezvous at 127.0.0.1:");
  // rank 0 on a port something else listens on
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(s, 1), 0);
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  oneLine(start({"allreduce", "1500"}, rankVars(0, 2, ntohs(a.sin_port)), "inuse"), "is in use");
  close(s);
}

// scripts/launch-local.sh: N ranks on loopback, their output prefixed, and a failed rank stops
// the others with its exit code.
TEST(LaunchLocal, StartsRanksAndStopsThemWhenOneFails) {
  const std::string script = gptest::dataPath("../../scripts/launch-local.sh");
  const std::string out = tmp("launch.out");
  auto launch = [&](const std::string& args) {
    const int status = std::system(("unset MASTER_PORT; " + script + " " + args + " > " + out + " 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(launch("3 " GP_DIST_RANK_PATH " allreduce 20000"), 0);
  std::string text = slurp(out);
  for (int r = 0; r < 3; ++r)
    EXPECT_NE(text.find("[rank " + std::to_string(r) + "] rank " + std::to_string(r) + ": 2 20\n"), std::string::npos)
        << text;
  EXPECT_EQ(launch("2 " GP_DIST_RANK_PATH " hang 2000"), 1);
  text = slurp(out);
  EXPECT_NE(text.find("launch-local: rank 0 exited with code 1; stopping the other ranks"), std::string::npos) << text;
  EXPECT_EQ(launch("0 true"), 2);
  EXPECT_NE(slurp(out).find("usage: scripts/launch-local.sh N CMD"), std::string::npos);
}
