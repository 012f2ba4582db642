// Pre-training one policy over several graphs and clusters: it writes a policy that optimize can
// load for every graph, every task keeps its own incumbent, and it is deterministic for a seed.
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster/cluster.h"
#include "core/test_clusters.h"
#include "rl/chain_graphs.h"
#include "cost/cost_model.h"
#include "graph/error.h"
#include "graph/graph_builder.h"
#include "rl/ppo.h"
#include "rl/pretrain.h"
#include "sim/simulator.h"

using namespace gp;

namespace {


struct Tasks {
  Graph two = gptest::heavyChains(2, 4), four = gptest::heavyChains(4, 3);
  Cluster c2 = gptest::toyCluster(1, 2), c4 = gptest::toyCluster(1, 4);
  CostModel a{two, c2, gptest::exactCosts()}, b{four, c4, gptest::exactCosts()}, c{four, c2, gptest::exactCosts()};
  std::vector<PretrainTask> list{{"two on 2", &a, std::nullopt}, {"four on 4", &b, std::nullopt},
                                 {"four on 2", &c, std::nullopt}};
};

std::string tempFile(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace

TEST(Pretrain, TrainsOnePolicyForSeveralGraphs) {
  Tasks t;
  PretrainOptions o;
  o.rounds = 6;
  o.threads = 2;
  o.out = tempFile("gp_pretrain_test.pt");
  std::vector<PretrainReport> reports;
  PretrainResult r = rl::runPretrain(t.list, o, [&](const PretrainReport& rep) { reports.push_back(rep); }, nullptr);
  EXPECT_EQ(r.rounds, 6);
  ASSERT_EQ(reports.size(), 18u);
  EXPECT_EQ(reports[4].round, 2);
  EXPECT_EQ(reports[4].task, 1);
  ASSERT_EQ(r.bestStepTime.size(), 3u);
  // each task improves on its own first incumbent (everything on device 0)
  EXPECT_NEAR(r.startStepTime[0], 8.0, 1e-9);
  EXPECT_NEAR(r.startStepTime[1], 12.0, 1e-9);
  for (size_t i = 0; i < 3; ++i) EXPECT_LT(r.bestStepTime[i], r.startStepTime[i]) << i;
  // the file is a policy optimize accepts, for a graph it never saw
  ASSERT_TRUE(std::filesystem::exists(o.out));
  Graph unseen = gptest::heavyChains(3, 3);
  Cluster c3 = gptest::toyCluster(1, 3);
  CostModel cost(unseen, c3, gptest::exactCosts());
  OptimizeOptions zero;
  zero.policy = o.out;
  zero.iterations = 0;
  zero.threads = 2;
  OptimizeResult z = rl::runOptimizer(cost, zero, {}, nullptr);
  EXPECT_TRUE(z.measurement.feasible);
  EXPECT_LE(z.measurement.stepTime, 9.0 + 1e-9);  // never worse than everything on device 0

  // same seed, same weights
  PretrainOptions again = o;
  again.out = tempFile("gp_pretrain_test2.pt");
  rl::runPretrain(t.list, again, {}, nullptr);
  rl::GdpPolicy p = rl::loadCheckpoint(o.out), q = rl::loadCheckpoint(again.out);
  auto pp = p->parameters(), qp = q->parameters();
  ASSERT_EQ(pp.size(), qp.size());
  for (size_t i = 0; i < pp.size(); ++i) EXPECT_TRUE(torch::equal(pp[i], qp[i])) << i;
  std::filesystem::remove(o.out);
  std::filesystem::remove(again.out);
}

TEST(Pretrain, BadInputIsAClearError) {
  Tasks t;
  PretrainOptions o;
  o.rounds = 1;
  o.threads = 2;
  EXPECT_THROW(rl::runPretrain(t.list, o, {}, nullptr), Error);  // no output file
  o.out = tempFile("gp_pretrain_bad.pt");
  EXPECT_THROW(rl::runPretrain({}, o, {}, nullptr), Error);  // no tasks
  o.from = tempFile("gp_pretrain_missing.pt");
  try {
    rl::runPretrain(t.list, o, {}, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), o.from);
  }
  std::filesystem::remove(o.out);
}

TEST(Pretrain, StopsOnCancel) {
  Tasks t;
  PretrainOptions o;
  o.rounds = 1000;
  o.threads = 2;
  o.out = tempFile("gp_pretrain_cancel.pt");
  std::atomic<bool> cancel{false};
  int reports = 0;
  PretrainResult r = rl::runPretrain(t.list, o, [&](const PretrainReport&) {
    if (++reports == 5) cancel = true;
  }, &cancel);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.rounds, 1);  // the second round was cut short
  EXPECT_TRUE(std::filesystem::exists(o.out));  // the policy so far is still written
  std::filesystem::remove(o.out);
}
