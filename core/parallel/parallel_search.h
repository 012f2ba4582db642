// Choosing a parallel plan: Megatron-LM's hand rule, pure data parallelism with ZeRO, and an
// exact search.
//
// A plan shape is (dp, tp, pp, micro-batches, schedule, ZeRO stage) on all the cluster's devices.
// For a shape, stage boundaries and per-stage recomputation come from dynamic programming over the
// layers (Alpa's inter-operator pass): the partition whose slowest stage (forward + backward per
// micro-batch) is fastest, among those every stage of which fits its devices' memory (per stage the
// first of no, selective and full recomputation that fits), ties broken by the smallest sum of
// stage times. With v virtual stages the layers are cut into pp x v even chunks (Megatron-LM's
// rule: v must divide the layers per stage), with one recomputation for all of them, the first
// of none, selective and full under which every stage fits. The exact search enumerates every
// shape (tp dividing the heads, the key / value heads and the hidden size, across servers too;
// every micro-batch size dividing the per-replica batch; both schedules when pp > 1; with 1F1B,
// every v > 1 dividing the layers per stage when pp divides the micro-batches; ZeRO 0-3 when
// dp > 1; every context-parallel degree whose 2 cp chunks divide the sequence; with and without
// expert parallelism (without cp) for a mixture of experts whose experts dp divides;
// sequence parallelism wherever it fits; the parameter gather of ZeRO-1 / 2 overlapped). Shapes whose mean weights, gradients and optimizer state
// per stage exceed a device cannot fit and are dropped; the rest are taken in order of a first
// bound, micro-batches x (every part's pass) / pp (the busiest stage holds at least the mean),
// until it reaches the best step found: each is partitioned, and simulated (pipeline_sim.h) when
// the partition's bound — max over stages k of (the passes of the chunks before chunk k) +
// micro-batches x (stage k's passes) — still beats the best step. A simulated plan at
// out-of-memory risk (memory_verdict.h: its headroom within the peak's error) is set aside, its
// shape partitioned again with each stage within 1 / (1 + that error) of memory and simulated;
// a plan at risk is the answer only when no plan fits with room to spare, and the note says when
// one was faster.
// Within its budget it is exact over shapes; the partition within a
// shape is the DP's. The partition and the bound cost every stage with stage 0's devices and
// groups: exact on clusters of identical servers (every preset), an approximation on mixed ones.
#pragma once
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "parallel/pipeline_sim.h"

namespace gp {

struct PlanShape {
  int dp = 1, tp = 1, pp = 1, microbatches = 1;
  int virtualStages = 1;
  PipeSchedule schedule = PipeSchedule::OneFOneB;
  int zero = 0;
  bool expertParallel = false;
  FixedKnobs fixed;
  bool sequenceParallel = false;
  int cp = 1;
  int shardGroup = 0;  // ZeRO's sharding group (ParallelPlan::shardGroup): 0 the whole gradient group
  int shardSize() const { return zero > 0 && shardGroup > 0 ? shardGroup : dp * cp; }
};

struct ParallelResult {
  std::string method;  // "exact", "megatron", "dp", "dqn", "random", "file"
  bool found = false;  // a plan was produced (it may still not fit: measurement.feasible)
  ParallelPlan plan;
  ParallelMeasurement measurement;
  double searchSeconds = 0;
  int64_t evaluated = 0;   // plans simulated
  int64_t evaluatedToBest = 0;  // plans simulated when the best plan was found
  bool complete = true;    // the search covered its whole space within the budget
  std::string note;        // why no plan, or what the rule chose
};

struct ParallelSearchOptions {
  double budgetSeconds = 60;
  const std::atomic<bool>* cancel = nullptr;
  bool tpWithinServer = false;  // prune tp larger than a server (the exact search keeps them)
  FixedKnobs fixed;  // attention and FP8 as every plan searched runs them
};

// Sequence parallelism wherever it applies (tp > 1 dividing the sequence): it keeps the TP
// all-reduces' traffic and divides the whole ops' time and kept activations by tp, so every
// search uses it there.
bool sequenceParallelFits(const LayerStack& st, int tp);

// Context parallelism of cp ranks fits a model with attention whose sequence splits into 2 cp
// chunks (x tp where sequence parallelism is on).
bool contextParallelFits(const LayerStack& st, int cp, int tp);

// The number of devices on each server (of device 0's server), from serverOf.
int devicesPerServer(const Cluster& c);

// Every shape on all devices for the global batch (see above), attention and FP8 as given,
// sequence parallelism where it fits.
std::vector<PlanShape> planShapes(const LayerStack& st, const Cluster& c, int64_t globalBatch, bool tpWithinServer,
                                  FixedKnobs fixed = {});

struct StagePartition {
  std::vector<PipeStage> stages;
  double bottleneck = 0;  // s per micro-batch of the slowest stage
  double lowerBound = 0;  // s, a lower bound on the step time of the plan
};
// nullopt when no partition fits memory.
std::optional<StagePartition> partitionStages(const StageCostModel& model, int64_t globalBatch, const PlanShape& shape);
// The same from the shape's part costs (stagePartCosts: every part on stage 0's devices and groups),
// each stage filling at most `fill` of its devices' memory.
std::optional<StagePartition> partitionStages(const StageCostModel& model, const PlanShape& shape,
                                              const std::vector<PartCost>& parts, double fill = 1.0);
std::vector<PartCost> stagePartCosts(const StageCostModel& model, int64_t globalBatch, const PlanShape& shape);

ParallelPlan planOf(const PlanShape& shape, std::vector<PipeStage> stages);

ParallelResult exactSearch(const StageCostModel& model, int64_t globalBatch, const ParallelSearchOptions& options = {});
// Megatron-LM's rule (Narayanan et al. 2021, §3 takeaways): the smallest model-parallel size
// t x p that fits memory, growing tp up to the GPUs of a server first (the largest divisor of
// heads and hidden size there), then pp across servers with Megatron-LM's layer split (even, or
// the first and last stages fewer where the layers do not divide); data
// parallelism over the rest; 1F1B, no ZeRO, sequence parallelism with tp (Korthikanti et al.);
// at each size first without recomputation, then selective, then full, before the next size;
// the micro-batch size the best of 1, 2, 4 and 8 (the paper's sweep); a pipeline interleaved
// with the best v whose pp x v chunks split the layers evenly (where pp divides the micro-batches).
ParallelResult megatronPlan(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed = {});
// Data parallelism on every device: the fastest plan that fits over ZeRO 0-3, every
// micro-batch count (gradient accumulation) and recomputation none / selective / full.
ParallelResult dataParallelPlan(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed = {});

}  // namespace gp
