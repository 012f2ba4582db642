// Auto-MAP's DQN over parallel plans: from scratch it reaches the exact search's plan on a
// small case within a few hundred episodes, a seed gives the same search, its Q-network file
// round-trips, and a file that is not one gets one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>

#include "base/error.h"
#include "optimize/parallel_corpus.h"
#include "rl/parallel_dqn.h"

using namespace gp;

namespace {

std::unique_ptr<ParallelTask> bertOn16() { return zooParallelTask("bert_base", {1, 128, 0, 0, 0}, "2x8xH100-IB", 256); }

}  // namespace

TEST(ParallelDqn, FromScratchReachesTheExactPlanOnBert) {
  const auto task = bertOn16();
  const ParallelResult exact = exactSearch(task->model, task->globalBatch);
  ASSERT_TRUE(exact.found);
  DqnOptions o;
  o.fromScratch = true;
  o.budgetSeconds = 0;
  o.maxEpisodes = 600;
  o.seed = 3;
  const ParallelResult dqn = rl::runParallelDqn(task->model, task->globalBatch, o, {}, nullptr);
  ASSERT_TRUE(dqn.found) << dqn.note;
  EXPECT_EQ(dqn.method, "dqn");
  EXPECT_GE(dqn.measurement.samplesPerSecond, 0.98 * exact.measurement.samplesPerSecond) << dqn.note;
  EXPECT_LE(dqn.evaluatedToBest, dqn.evaluated);
  // The same seed, the same search.
  const ParallelResult again = rl::runParallelDqn(task->model, task->globalBatch, o, {}, nullptr);
  EXPECT_EQ(again.evaluated, dqn.evaluated);
  EXPECT_EQ(again.measurement.stepTime, dqn.measurement.stepTime);
}

TEST(ParallelDqn, EveryShapeOfThePrunedSpaceIsAValidPlan) {
  const auto task = bertOn16();
  const PlanDecisions env(task->model, task->globalBatch);
  // Every leaf of the pruned decision tree is a shape the plan rules accept.
  int64_t leaves = 0;
  std::function<void(const PartialPlan&)> walk = [&](const PartialPlan& p) {
    if (p.step == DecisionStep::Done) {
      ++leaves;
      const ParallelPlan plan = planOf(env.shape(p), evenStages(task->stack.numLayers(), p.pp));
      EXPECT_EQ(parallelPlanProblem(task->stack, task->c, task->globalBatch, plan), "")
          << "dp " << p.dp << " tp " << p.tp << " pp " << p.pp << " mbs " << p.mbs;
      return;
    }
    const auto m = env.mask(p);
    for (int a = 0; a < kNumActions; ++a)
      if (m[static_cast<size_t>(a)]) walk(env.apply(p, a));
  };
  walk(PartialPlan{});
  EXPECT_EQ(leaves, rl::countPlanShapes(env));
  EXPECT_GT(leaves, 50);
  // Uniformly random episodes over it: method "random".
  DqnOptions o;
  o.epsilonStart = o.epsilonEnd = 1;
  o.budgetSeconds = 0;
  o.maxEpisodes = 100;
  const ParallelResult r = rl::runParallelDqn(task->model, task->globalBatch, o, {}, nullptr);
  EXPECT_EQ(r.method, "random");
  EXPECT_TRUE(r.found);
}

TEST(ParallelDqn, QNetworkFileRoundTripsAndBadFilesGetOneLine) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / "gp_parallel_dqn_test.pt").string();
  rl::QNet net = rl::newQNet();
  rl::saveQNet(net, path);
  rl::QNet back = rl::loadQNet(path);
  const torch::Tensor x = torch::rand({4, kNumDecisionFeatures});
  EXPECT_TRUE(torch::equal(net->forward(x), back->forward(x)));
  std::filesystem::remove(path);

  const std::string bad = (dir / "gp_parallel_dqn_bad.pt").string();
  std::ofstream(bad) << "not a network\n";
  try {
    rl::loadQNet(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad + ": ", 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  std::filesystem::remove(bad);
  EXPECT_THROW(rl::loadQNet((dir / "gp_no_such_dqn.pt").string()), Error);
}

TEST(ParallelDqn, TheShippedNetworkLoadsAndStartsTheSearch) {
  const std::string path = rl::defaultParallelDqnPath();
  ASSERT_FALSE(path.empty()) << "resources/policies/parallel_dqn.pt is missing";
  rl::QNet net = rl::loadQNet(path);  // this build's features and actions
  EXPECT_EQ(net->inputs, kNumDecisionFeatures);
  const auto task = bertOn16();
  DqnOptions o;
  o.budgetSeconds = 0;
  o.maxEpisodes = 50;
  const ParallelResult r = rl::runParallelDqn(task->model, task->globalBatch, o, {}, nullptr);
  ASSERT_TRUE(r.found);
  EXPECT_NE(r.note.find("parallel_dqn.pt"), std::string::npos) << r.note;
}
