// One training step of a parallel plan, simulated event by event.
//
// Each stage is one resource (its dp x tp devices run in lock step): it runs its chunks' forward
// and backward passes per micro-batch in the schedule's order (pipelinePassOrder) — GPipe: every
// forward, then every backward (last micro-batch first); 1F1B: pp - stage - 1 forwards to fill
// the pipeline, then one forward and one backward in turn, then the remaining backwards;
// interleaved 1F1B with v chunks per stage (Megatron-LM's order): forwards in groups of pp
// micro-batches per chunk, chunk after chunk, backwards likewise from the last chunk, with
// 2 (pp - stage - 1) + (v - 1) pp forwards to fill the pipeline. A pass starts when the stage is
// free and its input has arrived: a forward's activations from the chunk before, a backward's
// gradient from the chunk after (the last chunk: its own forward). A stage's activation memory
// is the most its chunks keep at once along that order.
//
// Transfers and collectives hold every directed channel they use for their whole duration
// and start when all of them are free, in the order they are requested (as the step simulator
// does, sim/simulator.h), so stages sending at once and data-parallel syncs crossing the same
// network links wait for each other:
// - activations / gradients between stages: one send per replica and TP shard, each 1/tp of
//   the tensor (Megatron's scatter-gather), followed by an all-gather inside the TP group;
// - gradient synchronisation over each stage's DP groups, one bucket per layer, each
//   requested when the last micro-batch's backward has finished that layer (so it overlaps the
//   rest of that backward): all-reduce, or reduce-scatter under ZeRO; under ZeRO-2 and 3, which
//   keep only a shard of the gradients, after every micro-batch's backward;
// - the optimizer step when the stage's last bucket is done, then (ZeRO-1/2) the updated
//   weights all-gathered over DP (overlapped: less the chunk's forward pass, which the next
//   step's first micro-batch runs meanwhile).
// Tensor-parallel collectives run inside the passes (stage_cost.h).
//
// Shares, of the step time:
//   bubble = 1 - mean over stages (busy time of its passes) / (end of the last pass)
//            — exactly (pp-1)/(m+pp-1) on uniform stages without communication, and
//            (pp-1)/(v m + pp-1) with v virtual stages: (pp-1)/(v m) of the busy time;
//   communication = the largest, over stages, of its blocking collective time plus the time
//            from its last pass to the end of its gradient sync not hidden behind the passes.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "parallel/runtime_memory.h"
#include "parallel/stage_cost.h"

namespace gp {

struct PipelineEvent {
  enum class Kind : uint8_t { Forward, Backward, Send, GradSync, Update, ParamGather };
  Kind kind;
  int stage;       // the pipeline stage (Send: the sending one; for gradients the one that sends them back)
  int microbatch;  // -1 for GradSync / Update / ParamGather
  int bucket;      // GradSync: the part (layer) index within the chunk, backward order; else -1
  double start, end;
  bool backward = false;  // Send: a gradient going back
  int chunk = -1;         // the chunk (plan.stages index) of a pass, send, sync or gather
};

// One pass of a pipeline stage's order: forward or backward of `chunk` (a plan.stages index) for
// `microbatch`.
struct PipelinePass {
  bool forward;
  int chunk, microbatch;
};
// The passes of pipeline stage `stage` in the plan's schedule (plan.virtualStages chunks,
// plan.microbatches micro-batches), the first `limit` of them.
std::vector<PipelinePass> pipelinePassOrder(const ParallelPlan& plan, int stage, size_t limit = SIZE_MAX);
// Activation bytes of each chunk (indexed by chunk; 0 for other stages' chunks) of pipeline stage
// `stage` when the stage keeps the most, walking its pass order (a forward adds its chunk's
// `kept` bytes per micro-batch, a backward frees them), + the largest `workingSet` of the stage's
// chunks on that chunk.
std::vector<double> stageActivations(const ParallelPlan& plan, int stage, std::span<const double> kept,
                                     std::span<const double> workingSet);

// A pipeline stage's memory per device: its chunks' weights, gradients and optimizer state, and
// the activations they keep at once at its peak.
// A pipeline stage's memory on its fullest rank: the model's tensors (weights, gradients,
// optimizer state, activations) and the runtime's buffers (runtime_memory.h).
struct StageMemory {
  StaticMemory statics;
  int64_t activations = 0;
  RuntimeMemory runtime;
  double reserved = 0;  // bytes the caching allocator reserves at the peak (caching_allocator.h)
  double hostActivations = 0;  // bytes of offloaded checkpoints in host memory at the peak (not in total)
  // The larger of the passes' activations and the optimizer step's own copy.
  int64_t transient() const { return std::max(activations, saturatingBytes(statics.step)); }
  int64_t tensors() const { return saturatingBytes(statics.total()) + transient(); }
  int64_t total() const { return saturatingBytes(statics.total() + runtime.total()) + transient(); }
};

// Where the step's time goes on the stage that finishes last; the parts add up to the step:
// micro-batches x (compute, recomputation, the collectives inside the passes), the time its
// passes wait (pipeline bubble and stage-to-stage transfers), the gradient synchronisation and
// ZeRO gathers not hidden behind its passes, and its optimizer step.
struct StepBreakdown {
  int stage = 0;
  double compute = 0, recompute = 0, passComm = 0, bubble = 0, dpExposed = 0, optimizer = 0;  // s
  // passComm by kind: TP collectives, ring attention (cp), MoE all-to-alls (ep), ZeRO-3 gathers
  double tpComm = 0, cpComm = 0, epComm = 0, zeroGather = 0;  // s
};

// Where the time moved from one plan's step to another's: the parts of the breakdown that
// changed by at least 1 % of the longer step, the largest saving first, in seconds per step:
// "recomputation 5.12 -> 0.00 s, bubble and transfers 1.90 -> 0.41 s, compute 20.1 -> 20.8 s".
std::string breakdownChanges(const StepBreakdown& from, double fromStep, const StepBreakdown& to, double toStep);

struct ParallelMeasurement {
  bool feasible = true;
  std::string problem;      // plan error, or the device over its memory
  double stepTime = 0;      // s
  double samplesPerSecond = 0;
  double mfu = 0;           // model FLOPs (3 x forward, no recomputation) / (step x devices x peak; FP8's with FP8 GEMMs)
  double bubbleShare = 0;
  double commShare = 0;
  std::vector<int64_t> peakMemory;  // per rank (dp x tp x pp): bytes
  std::vector<int64_t> capacity;    // per rank
  std::vector<int> rankDevice;      // rank -> cluster device
  std::vector<StageCost> stages;    // per chunk (plan.stages)
  std::vector<StageMemory> memory;  // per pipeline stage
  StepBreakdown breakdown;
  std::vector<PipelineEvent> events;  // when asked for
};

struct ParallelSimOptions {
  bool timeline = false;            // fill events
  bool skipWhenOverMemory = false;  // do not simulate a plan whose memory does not fit
};

// Checks the plan (parallelPlanProblem), costs the stages and simulates one step.
ParallelMeasurement simulateParallel(const StageCostModel& model, int64_t globalBatch, const ParallelPlan& plan,
                                     const ParallelSimOptions& options = {});

}  // namespace gp
