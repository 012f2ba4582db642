// The torch-free side of the optimizer: its reward, the text of its named choices, and a clear
// error when the LibTorch plugin cannot be found.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "cluster/cluster.h"
#include "base/error.h"
#include "optimize/optimize.h"
#include "test_clusters.h"
#include "test_graphs.h"
#include "scoped_env.h"

using namespace gp;

namespace {

Measurement measured(double step, double bound, bool feasible = true) {
  Measurement m;
  m.stepTime = step;
  m.lowerBound = bound;
  m.feasible = feasible;
  return m;
}

using gptest::ScopedEnv;

}  // namespace

TEST(OptimizeChoices, ParseWhatToStringWrites) {
  for (PolicyKind k : {PolicyKind::Search, PolicyKind::Pretrained, PolicyKind::Scratch, PolicyKind::ColocRL})
    EXPECT_EQ(parsePolicy(toString(PolicyChoice{k, {}})), (PolicyChoice{k, {}}));
  EXPECT_EQ(parsePolicy("colocrl").kind, PolicyKind::ColocRL);
  EXPECT_EQ(parsePolicy("").kind, PolicyKind::Search);
  EXPECT_EQ(parsePolicy("default").kind, PolicyKind::Search);
  EXPECT_EQ(parsePolicy("pretrained").kind, PolicyKind::Pretrained);
  EXPECT_EQ(parsePolicy("policies/p.pt"), (PolicyChoice{PolicyKind::File, "policies/p.pt"}));
  EXPECT_EQ(toString(PolicyChoice{PolicyKind::File, "policies/p.pt"}), "policies/p.pt");
  for (FuseMode f : {FuseMode::None, FuseMode::Default, FuseMode::Plan}) EXPECT_EQ(parseFuse(toString(f)), f);
  EXPECT_EQ(toString(FuseMode::Default), "default");
  EXPECT_FALSE(parseFuse("sometimes"));
  for (StopReason r : {StopReason::Iterations, StopReason::Budget, StopReason::Converged, StopReason::Cancelled,
                       StopReason::ZeroShot})
    EXPECT_EQ(parseStopReason(toString(r)), r);
  EXPECT_EQ(toString(StopReason::ZeroShot), "zero-shot");
  EXPECT_FALSE(parseStopReason("bored"));
  EXPECT_EQ(parsePretrainMethod("ppo"), PretrainMethod::Ppo);
  EXPECT_EQ(toString(PretrainMethod::Expert), "expert");
  EXPECT_FALSE(parsePretrainMethod("genetic"));
}

TEST(PlanReward, IsMinusSqrtOfTheRatioToTheBound) {
  EXPECT_DOUBLE_EQ(planReward(measured(2.0, 2.0)), -1.0);
  EXPECT_DOUBLE_EQ(planReward(measured(8.0, 2.0)), -2.0);
  EXPECT_DOUBLE_EQ(planReward(measured(3.0, 1.0)), -std::sqrt(3.0));
  // faster is always more reward
  EXPECT_GT(planReward(measured(1.5, 1.0)), planReward(measured(1.6, 1.0)));
}

TEST(PlanReward, InfeasibleIsAFixedPenaltyBelowEveryFeasiblePlan) {
  EXPECT_EQ(planReward(measured(1.0, 1.0, false)), kInfeasibleReward);
  EXPECT_EQ(planReward(measured(1e9, 1.0, false)), kInfeasibleReward);
  // however slow, a plan that fits earns more than one that does not
  EXPECT_GT(planReward(measured(1e6, 1.0)), kInfeasibleReward);
  // no bound (an empty graph): as good as the bound
  EXPECT_DOUBLE_EQ(planReward(measured(0, 0)), -1.0);
}

TEST(OptimizePlan, MissingPluginIsAClearError) {
  Graph g = gptest::smallMlp();
  Cluster c = gptest::toyCluster();
  CostModel cost(g, c);
  const std::string missing = "/nonexistent/dir/libgp_rl.so";
  ScopedEnv env("GP_RL_PLUGIN", missing);
  OptimizeOptions o;
  o.iterations = 1;
  try {
    optimizePlan(cost, o, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "optimize");
    const std::string what = e.what();
    EXPECT_NE(what.find(missing), std::string::npos) << what;
    EXPECT_NE(what.find("GP_RL_PLUGIN"), std::string::npos) << what;
  }
}
