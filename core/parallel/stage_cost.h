// What one pipeline stage of a parallel plan costs on its devices: compute per micro-batch,
// the tensor-parallel collectives inside it, what it sends to the next stage, its gradient
// buckets, its optimizer step and its memory.
//
// Compute: each op of the stack at the micro-batch size, its FLOPs and activation bytes
// divided by tp when it is split (layer_stack.h), timed by the cost model's roofline as one
// kernel (CostModel::fusedTime); backward = 2 x forward per op (a gradient op does about
// twice the work of its forward: two matrix products, or twice the memory traffic);
// recomputation adds one more forward to backward. TP all-reduces (S = micro-batch x the
// part's hidden-sized tensor) run between the kernels, blocking (collectives.h, over the TP
// groups of every replica at once); ZeRO-3's parameter all-gathers likewise, once per layer
// in forward and again in backward.
//
// Training precision follows the activations: 16-bit activations mean mixed precision (2-byte
// weights and gradients, fp32 master weights + Adam moments = 12 bytes per parameter), else
// fp32 (4 + 4 + 8). Memory per device (ZeRO over dp, Rajbhandari et al. 2020):
//   ZeRO-0: (w + g + o) P    ZeRO-1: (w + g) P + o P / dp    ZeRO-2: w P + (g + o) P / dp
//   ZeRO-3: (w + g + o) P / dp + 2 layers' gathered weights
// with P the stage's parameters on one TP rank, + (w + g + o) per expert parameter a replica
// holds alone under expert parallelism (each expert whole on one replica of the dp group; its
// tokens arrive by an all-to-all over the group before the experts and leave by one after, in
// forward and again in backward), plus activations: the saved outputs of every
// op per micro-batch (split ones / tp) x the micro-batches in flight (GPipe: all of them;
// 1F1B: pp - stage), or with recomputation only each layer's input plus one layer's outputs.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "cost/cost_model.h"
#include "graph/precision.h"
#include "parallel/collectives.h"
#include "parallel/parallel_plan.h"

namespace gp {

struct TrainingBytes {
  double weight = 4, grad = 4, optimizer = 8;  // per parameter
};
TrainingBytes trainingBytesFor(DType activationType);
// What large models train with on the cluster's first device: bf16 mixed precision where it
// has a bf16 rate, else fp16 mixed precision, else fp32.
Precision defaultTrainingPrecision(const Cluster& c);

// Weights, gradients and optimizer state per device under ZeRO stage `zero` over dp replicas
// (the formulas above); `largestPartParams`: ZeRO-3 holds two parts' gathered weights.
int64_t staticMemoryBytes(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams);
// Activations: `saved` bytes per micro-batch x inFlight, or with recomputation the parts'
// `inputs` x inFlight + the largest part's saved bytes (recomputed one part at a time).
int64_t activationMemoryBytes(int inFlight, bool recompute, double saved, double inputs, double largestSaved);
// Bytes as an integer, clamped to [0, 9e18] (no overflow on absurd sizes).
int64_t saturatingBytes(double bytes);

struct StageCost {
  double forward = 0;   // s per micro-batch: compute + TP collectives + ZeRO-3 gathers
  double backward = 0;  // s per micro-batch, recomputation included
  double blockingComm = 0;       // s per micro-batch of forward + backward spent in collectives
  std::vector<double> bucketBackward;  // s of the last backward per gradient bucket (a part), in backward order
  std::vector<double> bucketBytes;     // gradient bytes per device per bucket
  double sendBytes = 0;          // activation bytes per micro-batch and replica to the next stage
  double update = 0;             // s: the optimizer step on the stage's (sharded) parameters
  double paramGatherBytes = 0;   // ZeRO-1/2: weight bytes all-gathered after the update
  int64_t params = 0;            // parameters on one device of the stage, synchronised over dp
  int64_t localParams = 0;       // parameters only this replica holds (its experts)
  int64_t staticMemory = 0;      // bytes: weights, gradients, optimizer state
  int64_t activationMemory = 0;  // bytes: activations of the micro-batches in flight + working set
  int64_t peakMemory() const { return staticMemory + activationMemory; }
};

// Devices of the groups a stage's collectives run over: the TP groups (one per replica) and
// the DP groups (one per shard), from the plan's rank -> device map.
std::vector<std::vector<int>> tpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
std::vector<std::vector<int>> dpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);

// One part (prologue, layer, epilogue) of a stage, per micro-batch on one device.
struct PartCost {
  double forward = 0;      // compute
  double arForward = 0;    // collectives in forward: TP all-reduces, MoE all-to-alls
  double arBackward = 0;   // in backward
  double gather = 0;       // ZeRO-3 weight all-gather, per pass
  int64_t params = 0;      // on one device, synchronised over dp (ZeRO shards these)
  int64_t localParams = 0; // on one device, its own (experts under expert parallelism)
  double saved = 0;        // activation bytes kept for backward
  double input = 0;        // bytes of the activation it reads from the part before (kept under recomputation)
  double passTime(bool recompute) const {  // forward + backward
    const double f = forward + arForward + gather;
    return f + 2 * forward + arBackward + gather + (recompute ? f : 0);
  }
};

class StageCostModel {
 public:
  StageCostModel(const LayerStack& st, const CostModel& cost);
  const LayerStack& stack() const { return *st_; }
  const Cluster& cluster() const { return cost_->cluster(); }
  const std::vector<int>& serverOf() const { return serverOf_; }
  TrainingBytes bytes() const { return bytes_; }

  // One stage of plan `p` with micro-batch size `mbs`, its devices from `rankDevice`.
  StageCost stageCost(const ParallelPlan& p, int stage, int64_t mbs, const std::vector<int>& rankDevice) const;

  // Part `part` (-1 prologue, 0..L-1 layers, L epilogue) of a stage whose TP and DP groups are
  // `tpG` / `dpG` under plan p's tp and zero.
  PartCost partCost(const ParallelPlan& p, int part, int64_t mbs, int device, std::span<const std::vector<int>> tpG,
                    std::span<const std::vector<int>> dpG) const;

  // Forward compute time of one part (-1 prologue, 0..L-1 layers, L epilogue) on device kind
  // of `device`, at micro-batch size mbs and tensor-parallel degree tp (no collectives).
  double partForward(int part, int64_t mbs, int tp, int device) const;

 private:
  const StackPart& partAt(int part) const;
  const LayerStack* st_;
  const CostModel* cost_;
  std::vector<int> serverOf_;
  TrainingBytes bytes_;
  mutable std::map<std::tuple<int64_t, int, int>, std::vector<double>> forwardCache_;  // (mbs, tp, kind) -> per part
};

}  // namespace gp
