// Hand edits of a parallel plan as plan arithmetic (Qt-free, namespace gp::pedit): each takes the
// current state and returns the edited one; the caller checks it with parallelPlanProblem
// (parallel/parallel_plan.h) before applying it, so an edit here never has to be valid.
//
//   PlanState s{512, startPlan(16, 40, 512)};
//   s.plan = withMesh(s.plan, 40, s.batch, 4, 4, 1);   // dp 4 x tp 4, one stage
//   s.plan = withBoundary(s.plan, 1, 22);              // (pp 2) stage 1 starts at layer 22
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "parallel/parallel_plan.h"

namespace gp::pedit {

// What one undo step changes: the global batch and the plan.
struct PlanState {
  int64_t batch = 0;
  ParallelPlan plan;
};

bool samePlan(const ParallelPlan& a, const ParallelPlan& b);
bool sameState(const PlanState& a, const PlanState& b);

// The first plan a view shows: data parallelism over every device, one stage, one micro-batch,
// 1F1B, no ZeRO (a batch the devices do not divide gets the plan rule's reason).
ParallelPlan startPlan(int devices, int layers, int64_t batch);

// The degrees {dp, tp, pp} after setting degree `which` (0 dp, 1 tp, 2 pp) to `value` on
// `devices` devices, keeping dp x tp x pp = devices (a plan uses every device): a new tp or pp
// takes dp = devices / (tp x pp); a new dp takes pp = devices / (dp x tp), else
// tp = devices / (dp x pp). When no degree can absorb it the product differs and the plan rule
// refuses the edit with its reason.
std::array<int, 3> meshWith(const ParallelPlan& p, int devices, int which, int value);

// Other degrees. A changed pp gets even stages, each with the least recomputation a stage had;
// pp 1 drops virtual stages; tp 1 turns sequence parallelism off; the micro-batch size stays when
// the batch allows it, else the micro-batch count stays.
ParallelPlan withMesh(const ParallelPlan& p, int layers, int64_t batch, int dp, int tp, int pp);
// Another global batch: the micro-batch size stays when it allows, else the count.
PlanState withBatch(const PlanState& s, int64_t batch);
ParallelPlan withMicrobatches(const ParallelPlan& p, int microbatches);
ParallelPlan withSchedule(const ParallelPlan& p, PipeSchedule schedule);
// Another number of virtual stages: pp x v even chunks (the least recomputation a stage had),
// the 1F1B schedule when v > 1.
ParallelPlan withVirtualStages(const ParallelPlan& p, int layers, int virtualStages);
ParallelPlan withZero(const ParallelPlan& p, int zero);
// ZeRO's sharding group: 0 (the whole gradient group) or a size dividing dp x cp; ZeRO 0 keeps
// none (it shards nothing).
ParallelPlan withShardGroup(const ParallelPlan& p, int group);
// The sizes offered: 0, then every divisor of dp x cp between 1 and it (with ZeRO 0: only 0).
std::vector<int> shardGroupChoices(const ParallelPlan& p);
ParallelPlan withFramework(const ParallelPlan& p, TrainingFramework f);
ParallelPlan withRecompute(const ParallelPlan& p, int stage, Recompute r);
ParallelPlan withSequenceParallel(const ParallelPlan& p, bool on);
// TP communication overlapped with the products; only with sequence parallelism (else off).
ParallelPlan withTpOverlap(const ParallelPlan& p, bool on);
ParallelPlan withFp8(const ParallelPlan& p, bool on);
ParallelPlan withAttention(const ParallelPlan& p, AttentionImpl a);

// Boundary b (1 .. pp-1) is where stage b starts. The layers it may start at, keeping a layer in
// each of the two stages it separates: [first, last]; {0, -1} for a boundary that does not exist.
std::pair<int, int> boundaryRange(const ParallelPlan& p, int boundary);
// Stage `boundary` starts at `first` (clamped to boundaryRange); unchanged if there is no such
// boundary.
ParallelPlan withBoundary(const ParallelPlan& p, int boundary, int first);

// Micro-batch counts that divide the per-replica batch, ascending; empty when dp does not divide
// the batch.
std::vector<int> microbatchChoices(int64_t batch, int dp);
// The degrees a mesh dimension may take: the divisors of `devices` up to `limit`.
std::vector<int> degreeChoices(int devices, int limit);
// Context parallelism of cp ranks on `devices` devices: dp takes what tp x pp x cp leave (when it
// divides; else the plan rule refuses the edit with its reason), the micro-batch size kept where
// the batch allows.
ParallelPlan withContextParallel(const ParallelPlan& p, int devices, int64_t batch, int cp);
// Virtual stages for pp stages of `layers` layers: 1, and with pp > 1 every v > 1 dividing the
// layers per stage (Megatron-LM's rule), plus `current`.
std::vector<int> virtualStageChoices(int layers, int pp, int current);

}  // namespace gp::pedit
