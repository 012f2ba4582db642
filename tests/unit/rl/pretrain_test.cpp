// Pre-training one policy over several graphs and clusters: it writes a policy that optimize can
// load for every graph, every task keeps its own incumbent, and it is deterministic for a seed.
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster/cluster.h"
#include "core/test_clusters.h"
#include "rl/chain_graphs.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "rl/graph_features.h"
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
  zero.policy = {PolicyKind::File, o.out};
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

namespace {

// Zero-shot step time of the policy in `file` on `cost` (optimize --iterations 0, from device 0).
double zeroShot(const CostModel& cost, const std::string& file) {
  OptimizeOptions o;
  o.policy = {PolicyKind::File, file};
  o.iterations = 0;
  o.threads = 2;
  const OptimizeResult r = rl::runOptimizer(cost, o, {}, nullptr);
  EXPECT_TRUE(r.measurement.feasible);
  return r.measurement.stepTime;
}

// Chains of 2, 3 and 4 on as many devices to train on; chains of 5 on 5 devices held out.
struct ChainCorpus {
  Graph g2 = gptest::heavyChains(2, 4), g3 = gptest::heavyChains(3, 3), g4 = gptest::heavyChains(4, 3),
        g5 = gptest::heavyChains(5, 3);
  Cluster c2 = gptest::toyCluster(1, 2), c3 = gptest::toyCluster(1, 3), c4 = gptest::toyCluster(1, 4),
          c5 = gptest::toyCluster(1, 5);
  CostModel a{g2, c2, gptest::exactCosts()}, b{g3, c3, gptest::exactCosts()}, c{g4, c4, gptest::exactCosts()},
      held{g5, c5, gptest::exactCosts()};
  std::vector<PretrainTask> list{{"2 chains", &a, std::nullopt, false},
                                 {"3 chains", &b, std::nullopt, false},
                                 {"4 chains", &c, std::nullopt, false},
                                 {"5 chains (held out)", &held, std::nullopt, true}};
};

}  // namespace

TEST(Pretrain, ExpertIterationLearnsToPlaceAHeldOutGraphZeroShot) {
  ChainCorpus t;
  const std::string untrained = tempFile("gp_pretrain_untrained.pt");
  {
    rl::GdpPolicy p = rl::makePolicy(rl::buildGraphFeatures(t.g2, t.a).featureDim, 1);
    rl::saveCheckpoint(p, untrained);
  }
  PretrainOptions o;
  o.rounds = 30;
  o.threads = 2;
  o.evalEvery = 10;
  o.out = tempFile("gp_pretrain_expert.pt");
  std::vector<PretrainReport> evals;
  PretrainResult r = rl::runPretrain(t.list, o, [&](const PretrainReport& rep) {
    if (rep.evaluation) evals.push_back(rep);
  }, nullptr);
  EXPECT_EQ(r.rounds, 30);
  // the held-out task is evaluated at rounds 0, 10, 20, 30 and never trained on
  ASSERT_EQ(evals.size(), 4u);
  for (const PretrainReport& e : evals) EXPECT_EQ(e.task, 3);
  ASSERT_EQ(r.curve.size(), 4u);
  EXPECT_EQ(r.curve.back().round, 30);
  EXPECT_GE(r.curve.back().zeroShotGain, r.curve.front().zeroShotGain);
  // each training task's search found its optimum (a chain per device)
  EXPECT_NEAR(r.bestStepTime[0], 4.0, 1e-9);
  EXPECT_NEAR(r.bestStepTime[1], 3.0, 1e-9);
  EXPECT_NEAR(r.bestStepTime[2], 3.0, 1e-9);
  // zero-shot on the held-out graph: everything on device 0 is 15 s, the optimum 3 s; the
  // untrained policy's greedy plan and samples reach 7 s, the pre-trained one's 5 s
  const double before = zeroShot(t.held, untrained), after = zeroShot(t.held, o.out);
  std::printf("held-out zero-shot: untrained %.1f s, pre-trained %.1f s\n", before, after);
  EXPECT_LE(after, 0.75 * before);
  std::filesystem::remove(untrained);
  std::filesystem::remove(o.out);
}

// Replay epochs: more passes over the round's best plans (no more simulation) fit in fewer rounds.
TEST(Pretrain, ReplayEpochsFitInFewerRounds) {
  ChainCorpus t;
  const std::string untrained = tempFile("gp_pretrain_untrained_replay.pt");
  {
    rl::GdpPolicy p = rl::makePolicy(rl::buildGraphFeatures(t.g2, t.a).featureDim, 1);
    rl::saveCheckpoint(p, untrained);
  }
  const double before = zeroShot(t.held, untrained);
  auto train = [&](int fitEpochs) {
    PretrainOptions o;
    o.rounds = 8;
    o.threads = 2;
    o.evalEvery = 0;
    o.fitEpochs = fitEpochs;
    o.out = tempFile("gp_pretrain_replay.pt");
    rl::runPretrain(t.list, o, {}, nullptr);
    const double after = zeroShot(t.held, o.out);
    std::filesystem::remove(o.out);
    return after;
  };
  const double once = train(1), replayed = train(6);
  std::printf("held-out zero-shot after 8 rounds: untrained %.1f s, 1 pass %.1f s, 6 passes %.1f s\n", before, once,
              replayed);
  EXPECT_LE(replayed, 0.75 * before);
  EXPECT_LE(replayed, once);
  std::filesystem::remove(untrained);
}

TEST(Pretrain, ResumesASessionWhereItStopped) {
  ChainCorpus t;
  PretrainOptions o;
  o.rounds = 4;
  o.threads = 2;
  o.evalEvery = 2;
  o.out = tempFile("gp_pretrain_resume.pt");
  o.checkpoint = tempFile("gp_pretrain_resume.session");
  PretrainResult first = rl::runPretrain(t.list, o, {}, nullptr);
  ASSERT_EQ(first.curve.size(), 3u);  // rounds 0, 2, 4
  PretrainOptions more = o;
  more.rounds = 2;
  more.resume = o.checkpoint;
  PretrainResult second = rl::runPretrain(t.list, more, {}, nullptr);
  EXPECT_EQ(second.rounds, 6);
  ASSERT_EQ(second.curve.size(), 4u);  // the session's curve, then round 6
  EXPECT_EQ(second.curve[2].round, 4);
  EXPECT_EQ(second.curve[3].round, 6);
  EXPECT_GT(second.curve[3].seconds, second.curve[2].seconds);
  for (size_t i = 0; i < 3; ++i) EXPECT_LE(second.bestStepTime[i], first.bestStepTime[i] + 1e-12) << i;
  // a session of other tasks, or a policy file, is a one-line error
  std::vector<PretrainTask> fewer(t.list.begin(), t.list.begin() + 2);
  try {
    rl::runPretrain(fewer, more, {}, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), o.checkpoint);
    EXPECT_NE(std::string(e.what()).find("trained on 3 tasks, this corpus has 2"), std::string::npos);
  }
  more.resume = o.out;
  EXPECT_THROW(rl::runPretrain(t.list, more, {}, nullptr), Error);
  std::filesystem::remove(o.out);
  std::filesystem::remove(o.checkpoint);
}
