// Polishing a plan with the suggested moves (polishPlan): on two chains on one device the answer
// is read off by hand (one chain moves whole to the idle device, the step halves); only the
// kinds asked for are tried; a stop is obeyed; on a zoo graph every kept move shortens the step
// and the result is what a fresh simulation of the polished plan gives.
#include "sim/polish.h"

#include <gtest/gtest.h>

#include "core/scattered_inception.h"
#include "core/test_clusters.h"
#include "rl/chain_graphs.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

struct Chains {
  Graph g = gptest::heavyChains(2, 4);  // chains a and b of four 1-second ops, 1 s per transfer
  Cluster c = gptest::toyCluster(1, 2);
  CostModel cost{g, c, gptest::exactCosts()};
  Plan start = Plan::singleDevice(g.numOps());  // both chains on device 0: 8 s
};

}  // namespace

TEST(Polish, MovesAWholeChainToTheIdleDeviceAndStops) {
  Chains t;
  ASSERT_NEAR(Simulator(t.cost).run(t.start, false).stepTime, 8.0, 1e-9);
  const PolishResult r = polishPlan(t.cost, t.start, {});
  // the best single move is a chain's scope to device 1 (4 s); after it, every move splits a
  // chain and pays a transfer, so polishing ends there
  ASSERT_FALSE(r.applied.empty());
  EXPECT_EQ(r.applied.front().move.kind, PlanMove::Kind::Scope);
  EXPECT_NEAR(r.stepTime, 4.0, 1e-9);
  EXPECT_EQ(r.applied.size(), 1u);
  const auto deviceOf = [&](const char* name) { return r.plan.device[t.g.findOp(name)]; };
  for (const char* chain : {"a", "b"})
    for (int i = 1; i < 4; ++i)
      EXPECT_EQ(deviceOf((std::string(chain) + "/op" + std::to_string(i)).c_str()),
                deviceOf((std::string(chain) + "/op0").c_str()));
  EXPECT_NE(deviceOf("a/op0"), deviceOf("b/op0"));
  EXPECT_EQ(Simulator(t.cost).run(r.plan, false).stepTime, r.stepTime);
  EXPECT_GT(r.tried, 0);
}

TEST(Polish, TriesOnlyTheKindsAskedFor) {
  Chains t;
  PolishOptions o;
  o.kinds = moveKindBit(PlanMove::Kind::Priority);  // on one device the order cannot shorten 8 s
  const PolishResult r = polishPlan(t.cost, t.start, o);
  EXPECT_TRUE(r.applied.empty());
  EXPECT_EQ(r.plan.device, t.start.device);
  EXPECT_NEAR(r.stepTime, 8.0, 1e-9);
}

TEST(Polish, StopsWhenAsked) {
  Chains t;
  const PolishResult r = polishPlan(t.cost, t.start, {}, [] { return true; });
  EXPECT_TRUE(r.applied.empty());
  EXPECT_EQ(r.plan.device, t.start.device);
  EXPECT_NEAR(r.stepTime, 8.0, 1e-9);
}

TEST(Polish, EveryKeptMoveShortensTheStepOnAZooGraph) {
  const gptest::ScatteredInception t;
  const CostModel& cost = t.cost;
  const Plan& plan = t.plan;
  const double start = Simulator(cost).run(plan, false).stepTime;
  for (bool stack : {false, true}) {
    PolishOptions o;
    o.maxMoves = 6;
    o.stack = stack;
    int rounds = 0;
    double reported = start;
    const PolishResult r = polishPlan(cost, plan, o, {}, [&](const Plan&, double step) {
      EXPECT_LT(step, reported);
      reported = step;
      ++rounds;
    });
    ASSERT_FALSE(r.applied.empty()) << stack;
    EXPECT_LE(r.applied.size(), 6u);
    double before = start;
    for (const Suggestion& s : r.applied) {
      EXPECT_LT(s.stepTime, before) << s.move.what;
      before = s.stepTime;
    }
    EXPECT_EQ(r.stepTime, r.applied.back().stepTime);
    EXPECT_EQ(r.stepTime, reported);
    EXPECT_EQ(rounds, r.rounds);
    if (!stack) {
      EXPECT_EQ(r.rounds, static_cast<int>(r.applied.size()));  // one move a round
    }
    EXPECT_EQ(Simulator(cost).run(r.plan, false).stepTime, r.stepTime);  // bit for bit
  }
}
