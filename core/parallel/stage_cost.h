// What one pipeline stage of a parallel plan costs on its devices: compute per micro-batch,
// the tensor-parallel collectives inside it, what it sends to the next stage, its gradient
// buckets, its optimizer step and its memory.
//
// Compute: each op of the stack at the micro-batch size (with FP8, the layers' weight products at
// the FP8 rate plus their casts, fp8Product below), its FLOPs and activation bytes
// divided by tp when it is split (layer_stack.h), and by tp for the rest too under sequence
// parallelism, timed by the cost model's roofline as one kernel (CostModel::fusedTime);
// backward = 2 x forward per op (a gradient op does about twice the work of its forward: two
// matrix products, or twice the memory traffic). A weight product of known shape runs at the share
// of the device's product rate its tiles and waves reach (productShares below): forward at its
// own, backward as its two gradient products at theirs. A fused attention core is one kernel of the
// core's FLOPs (half of them when causal: the masked blocks are skipped) reading Q, K, V and
// writing the output, at kFusedAttentionForwardShare of the device's matrix-product rate; its
// backward does 2.5 x those FLOPs (FlashAttention-2: five products against two, the
// probabilities recomputed) over twice the bytes, at kFusedAttentionBackwardShare; with
// `flash2` both rates are scaled by the device kind's flash2Share. Full recomputation adds one more forward to backward,
// selective recomputation the unfused attention cores' forward. TP all-reduces (S = micro-batch
// x the part's hidden-sized tensor) run between the kernels, blocking (collectives.h, over the
// TP groups of every replica at once); with sequence parallelism each is a reduce-scatter +
// all-gather of the same ring traffic, costed the same; ZeRO-3's parameter all-gathers
// likewise, once per layer in forward and again in backward — or, with overlap_param_gather
// (FSDP's prefetch), only what outlasts the layer's compute in that pass.
//
// Context parallelism (cp ranks): every op runs on 1 / cp of the micro-batch's tokens (causal
// attention balanced over the ranks), keeps and sends 1 / cp; each attention core's keys and
// values of the whole sequence go around the ring (an all-gather's traffic forward, twice that
// backward), blocking only where they outlast the fused attention kernels.
//
// Training precision follows the activations: 16-bit activations mean mixed precision (2-byte
// weights and gradients, fp32 master weights + Adam moments = 12 bytes per parameter), else
// fp32 (4 + 4 + 8), as the generic accounting has it; the plan's framework and optimizer
// choices change these bytes (training_setup.h), and an offloaded optimizer's step is its host
// link and CPU (optimizer_offload.h). Memory per device (ZeRO over dp, Rajbhandari et al. 2020):
//   ZeRO-0: (w + g + o) P    ZeRO-1: (w + g) P + o P / dp    ZeRO-2: w P + (g + o) P / dp
//   ZeRO-3: (w + g + o) P / dp + 2 layers' gathered weights
// with P the stage's parameters on one TP rank, + (w + g + o) per expert parameter a replica
// holds alone under expert parallelism (each expert whole on one replica of the dp group; its
// tokens arrive by an all-to-all over the group before the experts and leave by one after, in
// forward and again in backward), plus activations: what every op keeps for backward per
// micro-batch (TP-sharded tensors / tp; whole ones / tp too under sequence parallelism; an
// attention core keeps Q, K, V, plus its output and one f32 per softmax row when fused, or its
// probabilities when unfused and not recomputed) x the micro-batches in flight (GPipe: all of
// them; 1F1B: pp - stage), or with full recomputation only each layer's input plus one layer's
// kept activations; the micro-batches in flight are counted on the schedule's pass order when its
// pipeline stage's kept bytes peak (pipeline_sim.h). For a GPT layer in 16-bit, unfused and without dropout (the zoo's), this
// is sbh(8 + 24/t) + 2as^2b/t bytes: Korthikanti et al.'s sbh(10 + 24/t + 5as/ht) less its
// three dropout masks and the dropout's output.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "cost/cost_model.h"
#include "cost/gemm_tiles.h"
#include "graph/precision.h"
#include "parallel/collectives.h"
#include "parallel/parallel_plan.h"

namespace gp {

// FlashAttention-2 (Dao 2023) reaches up to 73 % of an A100's peak in forward and 63 % in
// backward, where large cuBLAS GEMMs reach about 90 % (CostParams' MatMul efficiency): a fused
// attention kernel runs at these shares of the device's matrix-product rate.
inline constexpr double kFusedAttentionForwardShare = 0.8;
inline constexpr double kFusedAttentionBackwardShare = 0.7;

// What large models train with on the cluster's first device: bf16 mixed precision where it
// has a bf16 rate above its f32 rate, else fp16 mixed precision where fp16 is faster (a V100),
// else fp32.
Precision defaultTrainingPrecision(const Cluster& c);

// Weights, gradients and optimizer state per device under ZeRO stage `zero` over dp replicas
// (the formulas above); `largestPartParams`: ZeRO-3 holds two parts' gathered weights.
struct StaticMemory {
  double weights = 0, gradients = 0, optimizer = 0;  // bytes on the device
  double host = 0;  // bytes in host memory: an offloaded optimizer's (not in total)
  double step = 0;  // bytes only while the optimizer steps, when the activations are freed (not in total)
  double total() const { return weights + gradients + optimizer; }
};
StaticMemory staticMemoryParts(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams);
int64_t staticMemoryBytes(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams);
// A stage's: staticMemoryParts over the parameters synchronised over dp, + (w + g + o) per
// parameter the replica holds alone (its experts under expert parallelism).
StaticMemory stageStaticMemory(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams,
                               int64_t localParams);
// Bytes as an integer, clamped to [0, 9e18] (no overflow on absurd sizes).
int64_t saturatingBytes(double bytes);

struct StageCost {
  double forward = 0;   // s per micro-batch: compute + TP collectives + ZeRO-3 gathers
  double backward = 0;  // s per micro-batch, recomputation included
  double blockingComm = 0;       // s per micro-batch of forward + backward spent in collectives
  // blockingComm by kind: TP collectives, ring attention (cp), MoE all-to-alls (ep), ZeRO-3 gathers
  double tpComm = 0, cpComm = 0, epComm = 0, zeroGather = 0;
  double recompute = 0;          // s per micro-batch of backward spent recomputing (compute only)
  std::vector<double> bucketBackward;  // s of the last backward per gradient bucket (a part), in backward order
  std::vector<double> bucketBytes;     // gradient bytes per device per bucket
  double sendBytes = 0;          // activation bytes per micro-batch and replica to the next stage
  double update = 0;             // s: the optimizer step on the stage's (sharded) parameters
  double paramGatherBytes = 0;   // ZeRO-1/2: weight bytes all-gathered after the update
  int64_t params = 0;            // parameters on one device of the stage, synchronised over dp
  int64_t localParams = 0;       // parameters only this replica holds (its experts)
  int64_t fp8Params = 0;         // parameters of FP8 products on one device (2 more bytes each)
  int64_t staticMemory = 0;      // bytes: weights, gradients, optimizer state
  StaticMemory staticParts;      // the same, apart (experts a replica holds alone included)
  double keptPerMicrobatch = 0;  // bytes kept per micro-batch in flight (full recomputation: the parts'
                                 // inputs; the last chunk: the loss's fp32 probabilities too)
  double workingSet = 0;         // bytes: full recomputation's one part recomputed at a time, or the
                                 // loss's backward (fp32 gradients) on the last chunk, the larger
                                 // (with activation offload, + two parts' checkpoints: the one
                                 // written or read, and the next one under way)
  double hostKeptPerMicrobatch = 0;  // bytes per micro-batch in flight in host memory (offloaded checkpoints)
  // Bytes: activations of its micro-batches in flight when its pipeline stage's memory peaks,
  // + working set (set by the pipeline simulation, which knows the schedule).
  int64_t activationMemory = 0;
  int64_t peakMemory() const { return staticMemory + activationMemory; }
};

// Devices of the groups a stage's collectives run over: the TP groups (one per replica) and
// the DP groups (one per shard), from the plan's rank -> device map.
std::vector<std::vector<int>> tpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
// DP groups hold every rank with the same weights: dp x cp of them (context ranks too).
std::vector<std::vector<int>> dpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
// The context-parallel rings: one per replica and TP shard.
std::vector<std::vector<int>> cpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
// ZeRO's sharding groups: each DP group cut into runs of p.shardSize() consecutive members
// (the DP groups themselves when the state is sharded over all of them).
std::vector<std::vector<int>> shardGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
// The replicas of a shard: the members at the same place of each sharding group of a DP group
// (none when the state is sharded over the whole DP group).
std::vector<std::vector<int>> replicaGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);
struct StageGroups {
  enum Which : uint8_t { Tp, Dp, Cp, Shard };
  std::vector<std::vector<int>> tp, dp, cp, shard;
  // The time of a collective over one of the group sets, remembered: a stack's identical layers
  // ask for the same ones.
  double time(const Cluster& c, Collective kind, Which which, double bytes, const std::vector<int>& serverOf) const;

 private:
  mutable std::map<std::tuple<Collective, Which, double>, double> times_;
};
StageGroups stageGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage);

// One part (prologue, layer, epilogue) of a stage, per micro-batch on one device.
struct PartCost {
  double forward = 0;      // compute
  double backward = 0;     // compute of the backward pass, without recomputation
  double coreForward = 0;  // compute of the unfused attention cores (what selective recomputation repeats)
  double arForward = 0;    // collectives in forward: TP all-reduces, MoE all-to-alls, ring attention not hidden
  double ringForward = 0;  // ring attention's key / value exchange in forward, before overlap
  double arBackward = 0;   // in backward
  // arForward / arBackward by kind: TP collectives (what the overlap leaves), MoE all-to-alls,
  // ring attention's exchange not hidden behind the attention kernels
  double tpForward = 0, tpBackward = 0, epForward = 0, epBackward = 0, cpForward = 0, cpBackward = 0;
  // ZeRO-3's weight all-gather in a forward and a backward pass: whole, or with
  // overlap_param_gather (prefetched while the part before computes) what outlasts the compute
  double gather = 0, gatherBackward = 0;
  int64_t params = 0;      // on one device, synchronised over dp (ZeRO shards these)
  int64_t localParams = 0; // on one device, its own (experts under expert parallelism)
  int64_t fp8Params = 0;   // on one device, in FP8 products (an FP8 copy and its transpose each; a shard of them under ZeRO-3)
  double saved = 0;        // activation bytes kept for backward without recomputation
  double savedSelective = 0;  // with selective recomputation
  double input = 0;        // bytes of the activation it reads from the part before (kept under full recomputation)
  double forwardTime() const { return forward + arForward + gather; }
  double backwardTime(Recompute r) const {
    return backward + arBackward + gatherBackward +
           (r == Recompute::Full ? forwardTime() : r == Recompute::Selective ? coreForward : 0);
  }
  double passTime(Recompute r) const { return forwardTime() + backwardTime(r); }  // forward + backward
  double kept(Recompute r) const { return r == Recompute::Selective ? savedSelective : saved; }
};

// A layer's weight product that runs in FP8 when the plan says so (not the embedding, the head
// or attention's own products).
bool fp8Product(const StackOp& op);
// Transformer Engine's FP8 casts around one such product, as bytes moved per sample: forward
// casts its input (read 16-bit, write FP8, the scaling's amax fused in); backward casts the
// output gradient to FP8 and transposes it, and transposes the FP8 input for the weight
// gradient. Taking the input as half the product's activation bytes A: 0.75 A forward, 1.5 A
// backward.
inline constexpr double kFp8CastForwardBytes = 0.75;
inline constexpr double kFp8CastBackwardBytes = 1.5;

// The shares of the large-product rate (cost/gemm_tiles.h) a weight product reaches at
// `samples` per micro-batch on one rank of a TP group of tp: forward (tokens x columns, over the
// reduction), the input's gradient (tokens x reduction, over the columns) and the weight's
// gradient (reduction x columns, over the tokens), each after the TP split (column-parallel
// products split their columns, row-parallel ones their reduction; under sequence parallelism a
// replicated product runs on 1 / tp of the tokens). 1 for an op that is no weight product of
// known shape, and for experts.
struct ProductShares {
  double forward = 1, inputGradient = 1, weightGradient = 1;
};
ProductShares productShares(const StackOp& op, double samples, int tp, bool sequenceParallel, int smCount,
                            GemmShares* shares = nullptr);

// Compute times of one part per micro-batch on one device.
struct PartTimes {
  double forward = 0, backward = 0, coreForward = 0;
  double attentionForward = 0, attentionBackward = 0;  // the fused attention kernels among them
  double productsForward = 0;  // the layers' weight products among forward (casts excluded)
};

class StageCostModel {
 public:
  StageCostModel(const LayerStack& st, const CostModel& cost);
  const LayerStack& stack() const { return *st_; }
  const Cluster& cluster() const { return cost_->cluster(); }
  const std::vector<int>& serverOf() const { return serverOf_; }
  // Rank -> device for plan p (planDevices, with the server order computed once).
  std::vector<int> rankDevices(const ParallelPlan& p) const { return p.devices.empty() ? serverOrder_ : p.devices; }
  // Bytes per parameter under a plan's framework and optimizer choices (training_setup.h).
  TrainingBytes bytes(const TrainingSetup& s, int zero) const { return trainingBytesFor(st_->activationType, s, zero); }
  TrainingBytes bytes(const ParallelPlan& p) const { return bytes(p.training, p.zero); }

  // One chunk (a stage when there are no virtual stages) of plan `p` with micro-batch size `mbs`,
  // on the devices of its pipeline stage from `rankDevice`; its activationMemory is left 0.
  StageCost stageCost(const ParallelPlan& p, int stage, int64_t mbs, const std::vector<int>& rankDevice) const;

  // Part `part` (-1 prologue, 0..L-1 layers, L epilogue) of a stage with these groups under plan p.
  PartCost partCost(const ParallelPlan& p, int part, int64_t mbs, int device, const StageGroups& groups) const;
  // Keys and values of a part's attention cores per sample on one TP shard: what ring attention
  // passes around the context ranks.
  double ringKvBytes(int part, int tp) const;

  // Compute times of one part (-1 prologue, 0..L-1 layers, L epilogue) on the device kind of
  // `device`, at micro-batch size mbs, tensor-parallel degree tp, cp context ranks (each runs
  // 1 / cp of the tokens; causal attention balanced over them), with or without sequence
  // parallelism, attention cores fused or not, products in FP8 or not (no collectives).
  PartTimes partTimes(int part, int64_t mbs, int tp, int cp, bool sequenceParallel, AttentionImpl attention, bool fp8,
                      int device) const;
  double partForward(int part, int64_t mbs, int tp, int device) const {
    return partTimes(part, mbs, tp, 1, false, AttentionImpl::Flash, false, device).forward;
  }

 private:
  const StackPart& partAt(int part) const;
  const LayerStack* st_;
  const CostModel* cost_;
  std::vector<int> serverOf_, serverOrder_;
  // (mbs, tp, cp, sequence parallel, attention, fp8, kind) -> per part
  mutable std::map<std::tuple<int64_t, int, int, bool, AttentionImpl, bool, int>, std::vector<PartTimes>> timesCache_;
};

}  // namespace gp
