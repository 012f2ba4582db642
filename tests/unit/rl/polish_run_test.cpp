// The optimizer polishes its best plan after the search (OptimizeOptions::polishShare): the
// search part of a run is the same with or without polishing (no budget, same seed), the
// polished plan is never worse, each polishing round is reported after the last iteration and
// enters the history, with the whole budget as the polishing share the start is polished, and
// the ranking used is reported (a bad ranker file fails before the search starts).
#include <gtest/gtest.h>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "io/model_loader.h"
#include "rl/ppo.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

OptimizeOptions searchOnly(int iterations, double polishShare, int polishMoves) {
  OptimizeOptions o;
  o.policy.kind = PolicyKind::Search;
  o.iterations = iterations;
  o.seed = 3;
  o.threads = 2;
  o.polishShare = polishShare;
  o.polishMoves = polishMoves;
  return o;
}

struct Inception {
  Graph g = loadModel("zoo:inception_v3");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost{g, c};
};

}  // namespace

TEST(OptimizePolish, PolishesTheSearchsBestPlanAndReportsEachRound) {
  Inception t;
  const OptimizeResult plain = rl::runOptimizer(t.cost, searchOnly(2, 0, 0), {}, nullptr);
  EXPECT_EQ(plain.polishMoves, 0);
  ASSERT_EQ(plain.bestStepTimeHistory.size(), 2u);

  std::vector<IterationReport> reports;
  const OptimizeResult r = rl::runOptimizer(
      t.cost, searchOnly(2, 0.2, 4), [&](const IterationReport& it) { reports.push_back(it); }, nullptr);
  EXPECT_EQ(r.iterations, 2);
  ASSERT_GE(r.polishMoves, 1);  // inception's critical path always has a move left after two iterations
  EXPECT_LE(r.polishMoves, 4);
  // the search part is the same run
  ASSERT_GT(r.bestStepTimeHistory.size(), 2u);
  EXPECT_EQ(std::vector<double>(r.bestStepTimeHistory.begin(), r.bestStepTimeHistory.begin() + 2),
            plain.bestStepTimeHistory);
  EXPECT_LT(r.measurement.stepTime, plain.measurement.stepTime);
  EXPECT_EQ(Simulator(t.cost).run(r.best, false).stepTime, r.measurement.stepTime);
  // one report per polishing round, numbered after the iterations, each a new best
  int polishRounds = 0;
  for (const IterationReport& it : reports) {
    if (!it.polish) continue;
    ++polishRounds;
    EXPECT_EQ(it.iteration, 2 + polishRounds);
    EXPECT_TRUE(it.improved);
    EXPECT_LT(it.meanReward, 0);  // the polished plan's reward, as a sample's would be
  }
  EXPECT_GE(polishRounds, 1);
  EXPECT_EQ(r.bestStepTimeHistory.size(), static_cast<size_t>(2 + polishRounds));
  EXPECT_EQ(r.bestStepTimeHistory.back(), r.measurement.stepTime);
}

TEST(OptimizePolish, TheWholeBudgetAsTheShareSkipsTheSearchAndPolishesTheStart) {
  Inception t;
  OptimizeOptions o = searchOnly(INT_MAX, 1.0, 2);
  o.budgetSeconds = 600;  // never reached: two moves end the polishing
  Plan start = Plan::singleDevice(t.g.numOps());
  for (OpId op = 0; op < t.g.numOps(); ++op) start.device[op] = static_cast<int32_t>((op / 50) % t.c.numDevices());
  o.startPlan = start;
  const OptimizeResult r = rl::runOptimizer(t.cost, o, {}, nullptr);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.polishMoves, 2);
  EXPECT_LT(r.measurement.stepTime, Simulator(t.cost).run(start, false).stepTime);
}

TEST(OptimizePolish, TheRankingIsReportedAndABadRankerFileFailsBeforeTheSearch) {
  Inception t;
  OptimizeOptions o = searchOnly(1, 0.2, 2);
  o.moveRanker = "none";
  EXPECT_EQ(rl::runOptimizer(t.cost, o, {}, nullptr).polishRanking, "path time");
  o.polishKeep = 0;
  EXPECT_EQ(rl::runOptimizer(t.cost, o, {}, nullptr).polishRanking, "all");
  o.moveRanker = "/nonexistent/ranker.json";
  o.polishKeep = -1;
  int reports = 0;
  try {
    rl::runOptimizer(t.cost, o, [&](const IterationReport&) { ++reports; }, nullptr);
    ADD_FAILURE() << "a missing ranker file ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/ranker.json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(reports, 0);  // not even the zero-shot plan: the file is read first
}
