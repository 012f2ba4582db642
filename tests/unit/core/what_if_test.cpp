// What-if answers equal a fresh simulation of the changed plan bit for bit, over random moves of
// every kind on zoo training graphs, asked one after another of one WhatIf (whose simulator
// reuses its buffers across plans); and the suggestions it checks all shorten the step.
#include "sim/what_if.h"

#include <gtest/gtest.h>

#include <random>

#include "graph/training.h"
#include "sim/critical_path.h"
#include "zoo/zoo.h"
#include "core/scattered_inception.h"

using namespace gp;

namespace {

void expectSame(const Measurement& a, const Measurement& b, const std::string& what) {
  EXPECT_EQ(a.stepTime, b.stepTime) << what;  // bit for bit
  EXPECT_EQ(a.feasible, b.feasible) << what;
  EXPECT_EQ(a.problem, b.problem) << what;
  EXPECT_EQ(a.commBytes, b.commBytes) << what;
  EXPECT_EQ(a.channelBytes, b.channelBytes) << what;
  ASSERT_EQ(a.devices.size(), b.devices.size()) << what;
  for (size_t d = 0; d < a.devices.size(); ++d) {
    EXPECT_EQ(a.devices[d].busy, b.devices[d].busy) << what << " device " << d;
    EXPECT_EQ(a.devices[d].peakMemory, b.devices[d].peakMemory) << what << " device " << d;
  }
  ASSERT_EQ(a.timeline.size(), b.timeline.size()) << what;
  for (size_t i = 0; i < a.timeline.size(); ++i) {
    EXPECT_EQ(a.timeline[i].start, b.timeline[i].start) << what << " event " << i;
    EXPECT_EQ(a.timeline[i].end, b.timeline[i].end) << what << " event " << i;
  }
}

}  // namespace

TEST(WhatIf, EqualsAFreshSimulationOnRandomMovesOverZooModels) {
  const Cluster cl = loadCluster("4xP100-PCIe");
  std::mt19937 rng(11);
  int asked = 0, infeasible = 0;
  for (const char* name : {"resnet50", "rnnlm", "transformer_xl", "inception_v3", "amoebanet"}) {
    Graph g = deriveTrainingGraph(makeZooModel(name));
    CostModel cost(g, cl);
    Plan base = Plan::singleDevice(g.numOps());
    for (OpId op = 0; op < g.numOps(); ++op)
      base.device[op] = static_cast<int32_t>(static_cast<int64_t>(op) * cl.numDevices() / g.numOps());
    WhatIf w(cost, base);
    std::uniform_int_distribution<OpId> anyOp(0, g.numOps() - 1);
    std::uniform_int_distribution<int> anyDevice(0, cl.numDevices() - 1);
    for (int trial = 0; trial < 16; ++trial) {
      PlanMove move;
      move.kind = static_cast<PlanMove::Kind>(trial % 4);
      const OpId op = anyOp(rng);
      switch (move.kind) {
        case PlanMove::Kind::Op: move.ops = opFamily(g, op); break;
        case PlanMove::Kind::Scope:  // a run of ops in id order, as a scope often is
          for (OpId o = op; o < std::min(g.numOps(), op + 200); ++o) move.ops.push_back(o);
          break;
        case PlanMove::Kind::Fuse:  // an op with one of its consumers when they share a device, else itself
          move.ops = {op};
          for (TensorId t : g.outputs(op))
            for (OpId c : g.consumers(t))
              if (base.device[c] == base.device[op] && move.ops.size() == 1) move.ops.push_back(c);
          std::sort(move.ops.begin(), move.ops.end());
          break;
        case PlanMove::Kind::Priority: move.ops = {op}; move.priority = 1 + trial; break;
      }
      move.device = anyDevice(rng);
      const bool timeline = trial % 2 == 0;
      const Measurement& asked1 = w.measure(move, timeline);
      Simulator fresh(cost);
      const Measurement expected = fresh.run(applyMove(base, move), timeline);
      expectSame(asked1, expected, std::string(name) + " move " + std::to_string(trial));
      ++asked;
      infeasible += !expected.feasible;
      if (trial % 5 == 4) {  // the base plan changes too
        base = applyMove(base, move);
        w.setPlan(base);
      }
    }
  }
  EXPECT_EQ(asked, 80);
  EXPECT_LT(infeasible, asked);
}

TEST(WhatIf, EverySuggestionShortensTheStepAndApplies) {
  const gptest::ScatteredInception t;
  const CostModel& cost = t.cost;
  const Plan& plan = t.plan;
  const Measurement& m = t.measured;
  const StepAnalysis& a = t.analysis;
  int tried = 0;
  const auto suggestions = suggestMoves(cost, plan, a, 8, 24, {}, &tried);
  ASSERT_FALSE(suggestions.empty());
  EXPECT_GE(tried, static_cast<int>(suggestions.size()));
  WhatIf w(cost, plan);
  for (size_t i = 0; i < suggestions.size(); ++i) {
    EXPECT_LT(suggestions[i].stepTime, m.stepTime);
    if (i > 0) {
      EXPECT_GE(suggestions[i].stepTime, suggestions[i - 1].stepTime);
    }
    EXPECT_EQ(w.measure(suggestions[i].move).stepTime, suggestions[i].stepTime);
  }
  // a stop request ends the search before any simulation
  EXPECT_TRUE(suggestMoves(cost, plan, a, 8, 24, [] { return true; }, &tried).empty());
  EXPECT_EQ(tried, 0);
}
