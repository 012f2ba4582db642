// ParallelPlan: how one training step of a layer stack runs on a cluster with data (DP),
// tensor (TP) and pipeline (PP) parallelism, and the rules a plan must follow.
//
// The devices form a dp x cp x tp x pp mesh. Rank r = ((stage * dp + replica) * cp + c) * tp +
// shard: the TP group of a stage, replica and context rank is tp consecutive devices, then the
// context-parallel ranks, then the replicas, and stages are the outermost dimension (Megatron-LM's
// order), over the cluster's devices in
// server order (devices named `<server>/<gpu>` grouped by server). A plan may set its own
// `devices` order instead.
//
// The global batch is split over dp replicas, then into `microbatches` micro-batches each
// (micro-batch size = batch / (dp * microbatches)). The layers are cut into pp x v contiguous
// chunks [first, last) (`stages`); chunk k runs on pipeline stage k % pp, so each stage holds v
// chunks (virtual stages, Narayanan et al. 2021's interleaved 1F1B) or, with v = 1, one. Chunk 0
// also runs the prologue, the last chunk the epilogue.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster.h"
#include "parallel/layer_stack.h"
#include "parallel/training_setup.h"

namespace gp {

// Bounds every plan stays within, so that a hostile plan file cannot make a step's simulation
// allocate without limit: at most this many forward + backward passes per step over all stages
// (pp x micro-batches x 2), and this global batch.
inline constexpr int64_t kMaxPassesPerStep = int64_t{1} << 21;
inline constexpr int64_t kMaxGlobalBatch = 1'000'000;
inline constexpr int kMaxVirtualStages = 1 << 10;

enum class PipeSchedule : uint8_t { GPipe, OneFOneB };
std::string_view pipeScheduleName(PipeSchedule s);  // "gpipe", "1f1b"
PipeSchedule parsePipeSchedule(std::string_view name, const std::string& source);

// Activation recomputation of a stage (Korthikanti et al. 2022): none; selective, the attention
// cores only (what they keep inside is dropped and their forward runs again in backward); full,
// only each layer's input is kept and the whole forward runs again in backward.
enum class Recompute : uint8_t { None, Selective, Full };
std::string_view recomputeName(Recompute r);  // "none", "selective", "full"
Recompute parseRecompute(std::string_view name, const std::string& source);

// How attention cores run: one fused kernel each (FlashAttention: the probabilities are never
// stored, backward recomputes them) or as the graph's separate ops. `Flash` is the fastest fused
// kernel of the GPU (cuDNN's or FlashAttention-3 on Hopper, FlashAttention-2 before it);
// `Flash2` is FlashAttention-2 wherever it runs, as PyTorch's scaled_dot_product_attention
// dispatched it on Hopper up to 2.6 (its memory is Flash's; its rate DeviceSpec::flash2Share).
enum class AttentionImpl : uint8_t { Flash, Unfused, Flash2 };
std::string_view attentionImplName(AttentionImpl a);  // "flash", "unfused", "flash2"
inline bool fusedAttention(AttentionImpl a) { return a != AttentionImpl::Unfused; }
AttentionImpl parseAttentionImpl(std::string_view name, const std::string& source);

struct PipeStage {
  int first = 0, last = 0;  // layers [first, last)
  Recompute recompute = Recompute::None;
};

struct ParallelPlan {
  int dp = 1, tp = 1, pp = 1;
  // Context parallelism (ring attention, Megatron-LM's --context-parallel-size): each sample's
  // sequence split over cp ranks in 2 cp load-balanced chunks; every op runs on its rank's
  // tokens, attention exchanges keys and values around the ring (overlapped with the attention
  // kernel), and the gradients are synchronised over dp x cp.
  int cp = 1;
  // Model chunks per pipeline stage (interleaved 1F1B when > 1: pp > 1, schedule 1f1b and
  // micro-batches a multiple of pp, as Megatron-LM requires).
  int virtualStages = 1;
  int microbatches = 1;  // per replica and step
  PipeSchedule schedule = PipeSchedule::OneFOneB;
  int zero = 0;          // ZeRO stage: 0 none, 1 optimizer state, 2 + gradients, 3 + parameters (over dp)
  // ZeRO's sharding group (HSDP, hybrid ZeRO, Megatron-LM's --num-distributed-optimizer-instances):
  // the state ZeRO splits is split over groups of this many consecutive members of the gradient
  // group (dp x cp) and replicated across the groups; 0 = the whole gradient group. Gradients are
  // reduce-scattered inside a group and all-reduced across the replicas on 1 / group of the bytes;
  // parameters are all-gathered inside a group.
  int shardGroup = 0;
  // ZeRO-1 / 2 (Megatron-LM's distributed optimizer, --overlap-param-gather): each chunk's updated
  // weights are all-gathered while the next step's first forward pass runs through the chunk,
  // so only what outlasts that pass adds to the step.
  bool overlapParamGather = false;
  // Mixture of experts: each replica holds experts / dp of the experts (expert parallelism over
  // the dp group; tokens reach their expert by all-to-all, expert gradients are not all-reduced).
  bool expertParallel = false;
  AttentionImpl attention = AttentionImpl::Flash;
  // FP8 GEMMs (Transformer Engine's recipe, Megatron-LM's --fp8-format hybrid): the layers'
  // weight products run at the device's FP8 rate on inputs cast to FP8 each pass (the casts and
  // their scaling are kernels of their own), keep their inputs in FP8 for backward and hold an
  // FP8 copy of their weights and its transpose; the embedding, the head and attention stay
  // 16-bit, and so do master weights and the optimizer.
  bool fp8 = false;
  // Sequence parallelism (Korthikanti et al. 2022), with tp > 1: the ops tensor parallelism
  // leaves whole (norms, residual adds, dropout) run on 1/tp of the sequence each, so their time
  // and the activations every op keeps are divided by tp; each TP all-reduce becomes a
  // reduce-scatter + all-gather of the same ring traffic; stage-to-stage sends carry 1/tp.
  bool sequenceParallel = false;
  // Tensor-parallel communication overlapped with the products (Megatron-LM's --tp-comm-overlap,
  // Transformer Engine's userbuffers), with sequence parallelism: each all-gather and
  // reduce-scatter is split into chunks pipelined with the weight product beside it, so only the
  // communication that outlasts the layer's products blocks. Over NVLink only: a TP group that
  // spans servers gets no overlap.
  bool overlapTpComm = false;
  // The framework that runs the plan and the optimizer's choices (training_setup.h).
  TrainingSetup training;
  std::vector<PipeStage> stages;  // pp x virtualStages chunks, in layer order
  std::vector<int> devices;       // rank -> device; empty = server order

  int devicesUsed() const { return dp * cp * tp * pp; }
  int ranksPerStage() const { return dp * cp * tp; }
  int gradientGroup() const { return dp * cp; }  // the ranks holding the same weights
  // The ranks ZeRO splits its state over: the sharding group, or the whole gradient group.
  int shardSize() const { return zero > 0 && shardGroup > 0 && shardGroup < gradientGroup() ? shardGroup : gradientGroup(); }
  int chunks() const { return pp * virtualStages; }
  int stageOfChunk(int chunk) const { return chunk % pp; }
  int64_t microbatchSize(int64_t globalBatch) const { return globalBatch / (int64_t{dp} * microbatches); }
};

// What the user fixes for every plan a search tries: how attention runs, whether the layers'
// products run in FP8 (choices of numerics, not of speed alone), and the framework with its
// optimizer choices (the search searches what that framework can run).
struct FixedKnobs {
  AttentionImpl attention = AttentionImpl::Flash;
  bool fp8 = false;
  TrainingSetup training;
  void applyTo(ParallelPlan& p) const { p.attention = attention, p.fp8 = fp8, p.training = training; }
  // A plan's knobs for the plans a search tries: all of its training setup but the activation
  // offload, which needs full recomputation everywhere where the searches choose it per stage.
  static FixedKnobs of(const ParallelPlan& p) {
    FixedKnobs k{p.attention, p.fp8, p.training};
    k.training.activationOffload = false;
    return k;
  }
};

// `n` chunks of near-equal layer counts (the first ones take the remainder).
std::vector<PipeStage> evenStages(int layers, int n, Recompute recompute = Recompute::None);

// The layers per chunk when the plan has virtual stages and every chunk holds as many layers with
// the same recomputation; else 0 (the chunks are worth listing one by one).
int uniformChunkLayers(const ParallelPlan& p);

// The devices of the cluster in server order: servers (the name before the last '/') in the
// order they first appear, devices within a server in cluster order.
std::vector<int> serverOrder(const Cluster& c);
// The server index of every device (all 0 for names without '/').
std::vector<int> serverOf(const Cluster& c);

// Rank -> device for a plan (its own `devices`, else serverOrder).
std::vector<int> planDevices(const ParallelPlan& p, const Cluster& c);

// "" when the plan is valid for the stack, cluster and global batch; else the one-line reason:
// degrees below 1, dp*tp*pp other than the cluster's device count (a plan uses every device), tp
// not dividing the heads, the key / value heads or the hidden size, stages that do not cover the
// layers in order, a batch not divisible by dp x micro-batches, a ZeRO stage outside 0..3, a device
// list of the wrong size or with repeats, expert parallelism without experts or with dp not
// dividing them, sequence parallelism without tp > 1 or with tp not dividing the sequence, context
// parallelism on a model without attention, with a sequence 2 cp (x tp under sequence
// parallelism) does not divide, or with expert parallelism, TP communication overlap without
// sequence parallelism, virtual
// stages without pp > 1, without 1F1B or with micro-batches not a multiple of pp, FP8 without a
// 16-bit model or on devices without an FP8 rate above their 16-bit one, pp x v x
// micro-batches or the global batch beyond the bounds above, or a plan its framework cannot run
// (trainingSetupProblem).
std::string parallelPlanProblem(const LayerStack& st, const Cluster& c, int64_t globalBatch, const ParallelPlan& p);

// Plan files: JSON {"format": "graphplace-parallel-plan", "version": 1, "model", "cluster",
// "global_batch", "plan": {the knobs of plan_knobs.h, "stages": [[first, last], ...] (one per
// chunk), "recompute": ["none" | "selective" | "full" per chunk; true and false read as "full"
// and "none"], "devices": [names]}}.
struct ParallelPlanFile {
  std::string model, cluster;
  int64_t globalBatch = 0;
  ParallelPlan plan;
};
std::string parallelPlanJson(const ParallelPlanFile& f, const Cluster& c);
// Throws gp::Error(source, ...) naming the field; device names must exist in `c`.
ParallelPlanFile parseParallelPlanJson(const std::string& text, const std::string& source, const Cluster& c);

}  // namespace gp
