// ZeRO's sharding group (HSDP, hybrid ZeRO, Megatron-LM's partial distributed optimizer): the
// state sharded inside groups and replicated across them, its memory and gradient sync in closed
// form, the plan's checks, and every launch format that can state it reading and writing it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "launch_test_stack.h"
#include "launch/deepspeed_launch.h"
#include "launch/launch_formats.h"
#include "launch/megatron_launch.h"
#include "launch/nemo_launch.h"
#include "parallel/parallel_search.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"
#include "parallel/stage_cost.h"
#include "launch/torchtitan_launch.h"

using namespace gp;

namespace {

const LayerStack& stack() { return gptest::launchStack(); }

// dp 16 over two 8-GPU servers, ZeRO-`zero`, sharded in groups of `group` (0: all 16).
ParallelPlan hsdp(int zero, int group) {
  ParallelPlan p = gptest::launchPlan(16, 1, 1, 1, 1, Recompute::None);
  p.zero = zero, p.shardGroup = group;
  return p;
}

}  // namespace

TEST(ShardGroup, StateIsShardedInsideTheGroupAndTheRunsChecked) {
  const ParallelPlan whole = hsdp(1, 0), node = hsdp(1, 8), none = hsdp(1, 1);
  EXPECT_EQ(whole.shardSize(), 16);
  EXPECT_EQ(node.shardSize(), 8);
  EXPECT_EQ(none.shardSize(), 1);
  EXPECT_EQ(hsdp(0, 0).shardSize(), 16);
  // Groups: the first eight and the last eight replicas; replicas: one pair per place.
  const std::vector<int> devices = serverOrder(loadCluster("2x8xH100-IB"));
  const auto groups = shardGroups(node, devices, 0), replicas = replicaGroups(node, devices, 0);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], std::vector<int>(devices.begin(), devices.begin() + 8));
  ASSERT_EQ(replicas.size(), 8u);
  EXPECT_EQ(replicas[3], (std::vector<int>{devices[3], devices[11]}));
  EXPECT_TRUE(replicaGroups(whole, devices, 0).empty());

  const Cluster c = loadCluster("2x8xH100-IB");
  EXPECT_EQ(parallelPlanProblem(stack(), c, 16, node), "");
  EXPECT_EQ(parallelPlanProblem(stack(), c, 16, hsdp(0, 8)), "a sharding group of 8 needs ZeRO 1, 2 or 3 (ZeRO 0 shards nothing)");
  EXPECT_EQ(parallelPlanProblem(stack(), c, 16, hsdp(1, 6)), "the sharding group of 6 does not divide dp x cp = 16");
  // A knob like the others: in plan files, JSON and the changes between plans.
  EXPECT_EQ(planKnobsJson(node)["shard_group"], 8);
  EXPECT_EQ(planChanges(whole, node, 16), "shard_group 0 -> 8");
}

TEST(ShardGroup, MemoryAndGradientSyncFollowTheGroup) {
  const Cluster c = loadCluster("2x8xH100-IB");
  const Graph g = withPrecision(makeZooModel("gpt_1_3b", {1, 256, 8, 1024, 0}), Precision::BF16);
  const CostModel cost(g, c);
  const StageCostModel model(stack(), cost);
  const ParallelMeasurement whole = simulateParallel(model, 16, hsdp(1, 0)), node = simulateParallel(model, 16, hsdp(1, 8));
  ASSERT_TRUE(whole.feasible && node.feasible) << whole.problem << node.problem;
  // ZeRO-1: the 12 bytes of optimizer state per parameter over 8 GPUs, not 16; weights and
  // gradients whole either way.
  const StageMemory& a = whole.memory[0];
  const StageMemory& b = node.memory[0];
  EXPECT_NEAR(b.statics.optimizer, 2 * a.statics.optimizer, 1e-6 * b.statics.optimizer);
  EXPECT_DOUBLE_EQ(b.statics.weights, a.statics.weights);
  EXPECT_DOUBLE_EQ(b.statics.gradients, a.statics.gradients);

  // A bucket's sync: reduce-scatter inside the server, all-reduce of its eighth across the
  // servers, in place of a reduce-scatter over all sixteen GPUs across the network.
  const std::vector<int> devices = serverOrder(c), servers = serverOf(c);
  const ParallelPlan p = hsdp(1, 8);
  const double S = 1 << 28;
  const double hybrid = collectiveCost(c, Collective::ReduceScatter, shardGroups(p, devices, 0), S, servers).time +
                        collectiveCost(c, Collective::AllReduce, replicaGroups(p, devices, 0), S / 8, servers).time;
  const double flat = collectiveCost(c, Collective::ReduceScatter, dpGroups(p, devices, 0), S, servers).time;
  EXPECT_GT(hybrid, 0);
  EXPECT_GT(flat, 0);
  // ZeRO-3 gathers every layer's weights inside a server, not across the network: less of the
  // passes waits on collectives, at twice the sharded state (and the same two gathered layers).
  ParallelPlan z3 = hsdp(3, 0), z3node = hsdp(3, 8);
  const ParallelMeasurement spread = simulateParallel(model, 16, z3), local = simulateParallel(model, 16, z3node);
  ASSERT_TRUE(spread.feasible && local.feasible);
  EXPECT_LT(local.breakdown.passComm, 0.8 * spread.breakdown.passComm);
  EXPECT_NEAR(local.memory[0].statics.optimizer, 2 * spread.memory[0].statics.optimizer, 1e-6 * local.memory[0].statics.optimizer);
  EXPECT_GT(local.memory[0].statics.weights, spread.memory[0].statics.weights);
}

TEST(ShardGroup, LaunchFormatsWriteAndReadIt) {
  // Megatron-LM: the partial distributed optimizer, dp / group instances.
  LaunchContext ctx = gptest::launchContext(16);
  const LaunchFile m = exportMegatron(hsdp(1, 8), ctx);
  EXPECT_NE(m.text.find("--num-distributed-optimizer-instances 2"), std::string::npos) << m.text;
  const LaunchImport mi = importMegatron(m.text, "m.sh", stack(), 16);
  EXPECT_EQ(mi.plan.shardGroup, 8);
  EXPECT_EQ(mi.plan.zero, 1);
  EXPECT_THROW(importMegatron(m.text + " --num-distributed-optimizer-instances 3", "m.sh", stack(), 16), Error);

  // NeMo 2.0: the same instances under recipe.trainer.strategy.ddp, read back as the group;
  // NeMo 1.x has none (its distributed_fused_adam shards over the whole group: said inexact).
  const LaunchFile n = exportNemo(hsdp(1, 8), ctx);
  EXPECT_NE(n.text.find("recipe.trainer.strategy.ddp.num_distributed_optimizer_instances = 2\n"), std::string::npos) << n.text;
  EXPECT_TRUE(n.inexact.empty()) << n.inexact.front();
  const LaunchImport ni = importLaunchConfig(n.text, "recipe.py", stack(), 16);
  EXPECT_EQ(ni.plan.shardGroup, 8);
  EXPECT_EQ(ni.plan.zero, 1);
  const LaunchFile n1 = exportNemo1(hsdp(1, 8), ctx);
  ASSERT_FALSE(n1.inexact.empty());
  EXPECT_NE(n1.inexact.back().find("the sharding group"), std::string::npos) << n1.inexact.back();
  EXPECT_EQ(importLaunchConfig(n1.text, "c.yaml", stack(), 16).plan.shardGroup, 0);

  // torchtitan: HSDP as data_parallel_replicate_degree x data_parallel_shard_degree, exact.
  const LaunchFile t = exportTorchtitan(hsdp(3, 8), ctx);
  EXPECT_NE(t.text.find("data_parallel_replicate_degree = 2\n"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("data_parallel_shard_degree = 8\n"), std::string::npos) << t.text;
  const LaunchImport ti = importTorchtitan(t.text, "t.toml", stack(), 16);
  EXPECT_EQ(ti.plan.shardGroup, 8);
  EXPECT_EQ(ti.plan.dp, 16);
  for (const std::string& n : ti.approximated) EXPECT_EQ(n.find("HSDP"), std::string::npos) << n;

  // DeepSpeed: MiCS for ZeRO-3; ZeRO-1 and 2 have no groups there (said inexact).
  const LaunchFile d = exportDeepSpeed(hsdp(3, 8), ctx);
  EXPECT_EQ(nlohmann::json::parse(d.text)["zero_optimization"]["mics_shard_size"], 8);
  EXPECT_EQ(importDeepSpeed(d.text, "ds.json", stack(), 16).plan.shardGroup, 8);
  const LaunchFile d1 = exportDeepSpeed(hsdp(1, 8), ctx);
  EXPECT_FALSE(nlohmann::json::parse(d1.text)["zero_optimization"].contains("mics_shard_size"));
  ASSERT_FALSE(d1.inexact.empty());
  EXPECT_NE(d1.inexact.back().find("sharding group of 8"), std::string::npos) << d1.inexact.back();
}

// The exact search tries ZeRO-3 sharded inside each server beside ZeRO-3 over all replicas.
TEST(ShardGroup, TheExactSearchOffersZero3InsideAServer) {
  const Cluster c = loadCluster("2x8xH100-IB");
  int inServer = 0, otherGroups = 0;
  for (const PlanShape& s : planShapes(stack(), c, 16, true)) {
    if (s.shardGroup == 0) continue;
    (s.zero == 3 && s.shardGroup * s.tp == 8 && s.dp * s.cp > s.shardGroup ? inServer : otherGroups) += 1;
  }
  EXPECT_GT(inServer, 0);
  EXPECT_EQ(otherGroups, 0);
}
