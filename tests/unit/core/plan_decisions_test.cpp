// The DQN's decision steps and their task-specific pruning (parallel/plan_decisions.h).
#include <gtest/gtest.h>

#include "optimize/parallel_corpus.h"
#include "parallel/plan_decisions.h"

using namespace gp;

namespace {

std::unique_ptr<ParallelTask> gptTask(const char* zoo, const char* cluster, int64_t batch) {
  return zooParallelTask(zoo, {}, cluster, batch);
}

std::vector<int> validValues(const std::array<bool, kNumActions>& m) {
  std::vector<int> out;
  for (int a = 0; a < kNumActions; ++a)
    if (m[static_cast<size_t>(a)]) out.push_back(kDecisionValues[static_cast<size_t>(a)]);
  return out;
}

int slotOf(int value) {
  for (int a = 0; a < kNumActions; ++a)
    if (kDecisionValues[static_cast<size_t>(a)] == value) return a;
  return -1;
}

}  // namespace

TEST(PlanDecisions, TensorParallelismStaysInAServerAndDividesTheHeads) {
  const auto t = gptTask("gpt_13b", "2x8xH100-IB", 512);
  const PlanDecisions env(t->model, t->globalBatch);
  // 40 heads, hidden 5120, 8 GPUs per server: 16 would cross servers.
  EXPECT_EQ(validValues(env.mask({})), (std::vector<int>{1, 2, 4, 8}));
  PartialPlan p = env.apply({}, slotOf(8));
  EXPECT_EQ(p.step, DecisionStep::Pp);
  EXPECT_EQ(validValues(env.mask(p)), (std::vector<int>{1, 2}));
  p = env.apply(p, slotOf(2));
  EXPECT_EQ(p.dp, 1);
  // dp 1: the per-replica batch is 512; micro-batch sizes divide it.
  for (int v : validValues(env.mask(p))) EXPECT_EQ(512 % v, 0) << v;
  p = env.apply(p, slotOf(4));
  EXPECT_EQ(p.step, DecisionStep::Schedule);  // pp > 1
  p = env.apply(p, 1);
  EXPECT_EQ(p.schedule, PipeSchedule::GPipe);
  EXPECT_EQ(p.step, DecisionStep::Done);  // dp 1: no ZeRO decision
  const PlanShape s = env.shape(p);
  EXPECT_EQ(s.microbatches, 128);
  const auto f = env.features(p);
  EXPECT_EQ(f.size(), static_cast<size_t>(kNumDecisionFeatures));
}

TEST(PlanDecisions, AModelTooLargeForTheClusterHasNoFirstAction) {
  // GPT-175B: 16 bytes per parameter = 2.8 TB of state over 16 GPUs of 80 GB even fully sharded.
  const auto t = gptTask("gpt_175b", "2x8xH100-IB", 512);
  const PlanDecisions env(t->model, t->globalBatch);
  EXPECT_TRUE(validValues(env.mask({})).empty());
}
