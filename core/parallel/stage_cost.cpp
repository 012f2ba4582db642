#include "parallel/stage_cost.h"

#include <algorithm>
#include <cmath>

#include "parallel/optimizer_offload.h"

namespace gp {

StaticMemory staticMemoryParts(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams) {
  const double P = static_cast<double>(params), n = dp;
  StaticMemory m{tb.weight * P, tb.grad * P, tb.optimizer * P, tb.host * P, tb.stepCopy * P};
  if (zero >= 1) m.optimizer /= n, m.host /= n, m.step /= n;
  if (zero >= 2) m.gradients /= n;
  if (zero >= 3) m.weights = m.weights / n + 2 * tb.weight * static_cast<double>(largestPartParams);
  return m;
}

int64_t staticMemoryBytes(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams) {
  return saturatingBytes(staticMemoryParts(tb, zero, dp, params, largestPartParams).total());
}

StaticMemory stageStaticMemory(const TrainingBytes& tb, int zero, int dp, int64_t params, int64_t largestPartParams,
                               int64_t localParams) {
  StaticMemory m = staticMemoryParts(tb, zero, dp, params, largestPartParams);
  const double own = static_cast<double>(localParams);
  m.weights += tb.weight * own;
  m.gradients += tb.grad * own;
  m.optimizer += tb.optimizer * own;
  m.host += tb.host * own;
  m.step += tb.stepCopy * own;
  return m;
}

int64_t saturatingBytes(double bytes) {
  constexpr double kMax = 9.0e18;  // below INT64_MAX
  return static_cast<int64_t>(std::ceil(std::clamp(bytes, 0.0, kMax)));
}

Precision defaultTrainingPrecision(const Cluster& c) {
  if (c.numDevices() == 0) return Precision::FP32;
  // A 16-bit type the file lists no rate for runs at the f32 rate (cluster_json): not a rate of its own.
  const DeviceSpec& d = c.device(0);
  const double f32 = d.peakFlops(DType::F32);
  if (d.peakFlops(DType::BF16) > f32) return Precision::BF16;
  if (d.peakFlops(DType::F16) > f32) return Precision::FP16;
  return Precision::FP32;
}

namespace {

int rankOf(const ParallelPlan& p, int stage, int replica, int context, int shard) {
  return ((stage * p.dp + replica) * p.cp + context) * p.tp + shard;
}

}  // namespace

std::vector<std::vector<int>> tpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  std::vector<std::vector<int>> out;
  for (int r = 0; r < p.dp; ++r)
    for (int x = 0; x < p.cp; ++x) {
      std::vector<int> g;
      for (int k = 0; k < p.tp; ++k) g.push_back(rankDevice[static_cast<size_t>(rankOf(p, stage, r, x, k))]);
      out.push_back(std::move(g));
    }
  return out;
}

std::vector<std::vector<int>> dpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  std::vector<std::vector<int>> out;
  for (int k = 0; k < p.tp; ++k) {
    std::vector<int> g;
    for (int r = 0; r < p.dp; ++r)
      for (int x = 0; x < p.cp; ++x) g.push_back(rankDevice[static_cast<size_t>(rankOf(p, stage, r, x, k))]);
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<std::vector<int>> shardGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  std::vector<std::vector<int>> dp = dpGroups(p, rankDevice, stage);
  const size_t n = static_cast<size_t>(p.shardSize());
  if (n >= static_cast<size_t>(p.gradientGroup())) return dp;
  std::vector<std::vector<int>> out;
  for (const std::vector<int>& g : dp)
    for (size_t at = 0; at < g.size(); at += n) out.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(at), g.begin() + static_cast<std::ptrdiff_t>(at + n));
  return out;
}

std::vector<std::vector<int>> replicaGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  const size_t n = static_cast<size_t>(p.shardSize());
  std::vector<std::vector<int>> out;
  if (n >= static_cast<size_t>(p.gradientGroup())) return out;
  for (const std::vector<int>& g : dpGroups(p, rankDevice, stage))
    for (size_t place = 0; place < n; ++place) {
      std::vector<int> r;
      for (size_t at = place; at < g.size(); at += n) r.push_back(g[at]);
      out.push_back(std::move(r));
    }
  return out;
}

StageGroups stageGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  StageGroups g;
  g.tp = tpGroups(p, rankDevice, stage);
  g.dp = dpGroups(p, rankDevice, stage);
  g.cp = cpGroups(p, rankDevice, stage);
  if (p.shardSize() < p.gradientGroup()) g.shard = shardGroups(p, rankDevice, stage);
  return g;
}

double StageGroups::time(const Cluster& c, Collective kind, Which which, double bytes, const std::vector<int>& serverOf) const {
  auto [it, fresh] = times_.try_emplace({kind, which, bytes}, 0.0);
  if (fresh) {
    const std::vector<std::vector<int>>& groups =
        which == Tp ? tp : which == Cp ? cp : which == Shard && !shard.empty() ? shard : dp;
    it->second = collectiveCost(c, kind, groups, bytes, serverOf).time;
  }
  return it->second;
}

std::vector<std::vector<int>> cpGroups(const ParallelPlan& p, const std::vector<int>& rankDevice, int stage) {
  std::vector<std::vector<int>> out;
  for (int r = 0; r < p.dp; ++r)
    for (int k = 0; k < p.tp; ++k) {
      std::vector<int> g;
      for (int x = 0; x < p.cp; ++x) g.push_back(rankDevice[static_cast<size_t>(rankOf(p, stage, r, x, k))]);
      out.push_back(std::move(g));
    }
  return out;
}

StageCostModel::StageCostModel(const LayerStack& st, const CostModel& cost)
    : st_(&st),
      cost_(&cost),
      serverOf_(gp::serverOf(cost.cluster())),
      serverOrder_(gp::serverOrder(cost.cluster())) {}

const StackPart& StageCostModel::partAt(int part) const {
  if (part < 0) return st_->prologue;
  if (part >= st_->numLayers()) return st_->epilogue;
  return st_->layers[static_cast<size_t>(part)];
}

bool fp8Product(const StackOp& op) {
  return op.cls == OpClass::MatMul && op.paramBytesRead > 0 && !op.attentionCore && !op.metadata;
}

namespace {

// Whether every group's devices share a server (TP overlap's userbuffers run over NVLink only).
bool withinServers(const std::vector<std::vector<int>>& groups, const std::vector<int>& serverOf) {
  for (const std::vector<int>& g : groups)
    for (int d : g)
      if (serverOf[static_cast<size_t>(d)] != serverOf[static_cast<size_t>(g.front())]) return false;
  return true;
}

}  // namespace

ProductShares productShares(const StackOp& op, double samples, int tp, bool sequenceParallel, int smCount,
                            GemmShares* shares) {
  if (op.gemmCols <= 0 || op.gemmDepth <= 0 || op.expert) return {};
  const bool sharded = op.split == TpSplit::Sharded;
  const double m = op.gemmRows * samples / (!sharded && sequenceParallel ? tp : 1);
  const double n = static_cast<double>(op.gemmCols) / (sharded && !op.rowParallel ? tp : 1);
  const double k = static_cast<double>(op.gemmDepth) / (sharded && op.rowParallel ? tp : 1);
  auto share = [&](const GemmShape& s) { return shares ? (*shares)(s, smCount) : gemmShapeShare(s, smCount); };
  return {share({m, n, k}), share({m, k, n}), share({k, n, m})};
}

PartTimes StageCostModel::partTimes(int part, int64_t mbs, int tp, int cp, bool sequenceParallel, AttentionImpl attention,
                                     bool fp8, int device) const {
  const Cluster& c = cost_->cluster();
  int rep = device;  // first device of the same kind: the cache key
  for (int d = 0; d < device; ++d)
    if (c.device(d).kind == c.device(device).kind) {
      rep = d;
      break;
    }
  auto [it, fresh] = timesCache_.try_emplace({mbs, tp, cp, sequenceParallel, attention, fp8, rep});
  std::vector<PartTimes>& times = it->second;
  if (fresh) {
    const double weightScale = dtypeSize(st_->activationType) == 2 ? 0.5 : 1.0;  // parameters are f32 in the graph
    const double b = static_cast<double>(mbs) / cp;  // each context rank runs 1 / cp of the tokens
    const bool fused = fusedAttention(attention);
    const double kernelShare = attention == AttentionImpl::Flash2 ? cost_->cluster().device(rep).flash2Share : 1.0;
    GemmShares shares;
    for (int pi = -1; pi <= st_->numLayers(); ++pi) {
      PartTimes t;
      const StackPart& sp = partAt(pi);
      const bool layer = pi >= 0 && pi < st_->numLayers();
      double castForward = 0, castBackward = 0;  // FP8 casts: kernels of their own, no backward twice over
      double backward = 0;
      for (const StackOp& op : sp.ops) {
        if (op.metadata || (fused && op.attentionCore)) continue;
        const double split = op.split == TpSplit::Sharded || sequenceParallel ? tp : 1;
        const double flops = op.flops * b / split;
        const int64_t bytes = saturatingBytes((op.activationBytes * b + op.paramBytesRead * weightScale) / split);
        const bool inFp8 = fp8 && layer && fp8Product(op);
        const DType type = inFp8 ? DType::F8 : op.dtype;
        const ProductShares q = productShares(op, b, tp, sequenceParallel, c.device(rep).smCount, &shares);
        const double f = cost_->fusedTime(flops / q.forward, bytes, op.cls, type, rep);
        t.forward += f;
        backward += cost_->fusedTime(flops / q.inputGradient, bytes, op.cls, type, rep) +
                    cost_->fusedTime(flops / q.weightGradient, bytes, op.cls, type, rep);
        if (op.attentionCore) t.coreForward += f;
        if (fp8Product(op)) t.productsForward += f;
        if (inFp8) {
          const double moved = op.activationBytes * b / split;
          castForward += cost_->fusedTime(0, saturatingBytes(kFp8CastForwardBytes * moved), OpClass::Elementwise, op.dtype, rep);
          castBackward += cost_->fusedTime(0, saturatingBytes(kFp8CastBackwardBytes * moved), OpClass::Elementwise, op.dtype, rep);
        }
      }
      t.backward = backward + castBackward;
      t.forward += castForward;
      if (fused)
        for (const StackAttention& a : sp.attention) {
          const double split = a.sharded || sequenceParallel ? tp : 1;
          const double flops = a.flops * b / split * (a.causal ? 0.5 : 1.0);
          const double bytes = a.ioBytes * b / split;
          const double f = cost_->fusedTime(flops / (kFusedAttentionForwardShare * kernelShare), saturatingBytes(bytes),
                                            OpClass::MatMul, a.dtype, rep);
          const double bw = cost_->fusedTime(2.5 * flops / (kFusedAttentionBackwardShare * kernelShare), saturatingBytes(2 * bytes),
                                             OpClass::MatMul, a.dtype, rep);
          t.forward += f, t.attentionForward += f;
          t.backward += bw, t.attentionBackward += bw;
        }
      times.push_back(t);
    }
  }
  return times[static_cast<size_t>(part + 1)];
}

double StageCostModel::ringKvBytes(int part, int tp) const {
  // Q, K and V are kept whole-headed; K and V are 2 kv of the heads + 2 kv head-widths.
  const double kvShare = st_->heads > 0 && st_->kvHeads > 0
                             ? 2.0 * st_->kvHeads / (st_->heads + 2.0 * st_->kvHeads)
                             : 2.0 / 3.0;
  double bytes = 0;
  for (const StackAttention& a : partAt(part).attention) bytes += a.keptBytes * kvShare / (a.sharded ? tp : 1);
  return bytes;
}

PartCost StageCostModel::partCost(const ParallelPlan& p, int pi, int64_t mbs, int device, const StageGroups& groups) const {
  const Cluster& c = cost_->cluster();
  const StackPart& part = partAt(pi);
  const double b = static_cast<double>(mbs) / p.cp;  // per context rank
  PartCost pc;
  const PartTimes times = partTimes(pi, mbs, p.tp, p.cp, p.sequenceParallel, p.attention, p.fp8, device);
  pc.forward = times.forward;
  pc.backward = times.backward;
  pc.coreForward = times.coreForward;
  if (p.tp > 1 && part.tpAllReduceBytes > 0) {
    const double ar = groups.time(c, Collective::AllReduce, StageGroups::Tp, b * part.tpAllReduceBytes, serverOf_);
    pc.arForward = part.tpAllReducesForward * ar;
    pc.arBackward = part.tpAllReducesBackward * ar;
    if (p.overlapTpComm && withinServers(groups.tp, serverOf_)) {  // pipelined with the products beside them
      const double share = tpOverlapShare(p.training.framework);
      pc.arForward -= share * std::min(pc.arForward, times.productsForward);
      pc.arBackward -= share * std::min(pc.arBackward, 2 * times.productsForward);
    }
    pc.tpForward = pc.arForward, pc.tpBackward = pc.arBackward;
  }
  pc.params = part.params - part.shardedParams + (part.shardedParams + p.tp - 1) / p.tp;
  // A tied word embedding under a pipeline: the last stage keeps its own copy for the output
  // layer, vocabulary-parallel, and its gradient is summed with the first stage's (Megatron-LM's
  // embedding group).
  if (pi == st_->numLayers() && p.pp > 1) pc.params += (part.tiedParams + p.tp - 1) / p.tp;
  if (p.expertParallel && part.expertParams > 0) {
    // Each replica keeps experts / dp of the experts (TP-split like any product).
    const int64_t expertOnRank = (part.expertParams + p.tp - 1) / p.tp;
    pc.params -= expertOnRank;
    pc.localParams = (expertOnRank + p.dp - 1) / p.dp;
    const double a2a = groups.time(c, Collective::AllToAll, StageGroups::Dp, b * part.moeDispatchBytes, serverOf_);
    pc.arForward += 2 * a2a;
    pc.arBackward += 2 * a2a;
    pc.epForward = pc.epBackward = 2 * a2a;
  }
  if (p.cp > 1 && !part.attention.empty()) {
    // Ring attention: the keys and values of the whole sequence pass every context rank, an
    // all-gather's traffic forward, twice that backward (keys and values again, their gradients
    // reduce-scattered), overlapped with the attention kernels: only what outlasts them blocks.
    pc.ringForward = groups.time(c, Collective::AllGather, StageGroups::Cp, b * p.cp * ringKvBytes(pi, p.tp), serverOf_);
    pc.cpForward = std::max(0.0, pc.ringForward - times.attentionForward);
    pc.cpBackward = std::max(0.0, 2 * pc.ringForward - times.attentionBackward);
    pc.arForward += pc.cpForward;
    pc.arBackward += pc.cpBackward;
  }
  if (p.zero == 3 && p.shardSize() > 1) {
    pc.gather = pc.gatherBackward =
        groups.time(c, Collective::AllGather, StageGroups::Shard, bytes(p).weight * static_cast<double>(pc.params), serverOf_);
    if (p.overlapParamGather) {  // prefetched during the part before (about as long as this one's compute)
      pc.gather = std::max(0.0, pc.gather - times.forward);
      pc.gatherBackward = std::max(0.0, pc.gatherBackward - times.backward);
    }
  }
  const double whole = p.sequenceParallel ? p.tp : 1;
  const bool fp8Layer = p.fp8 && pi >= 0 && pi < st_->numLayers();
  for (const StackOp& op : part.ops) {
    // An FP8 product keeps its input (what autograd keeps of a product) in FP8: half the bytes.
    const double keep = fp8Layer && fp8Product(op) ? 0.5 : 1.0;
    pc.saved += keep * b * (op.savedBytes / whole + op.savedSplitBytes / p.tp);
    if (fp8Layer && fp8Product(op))
      pc.fp8Params += static_cast<int64_t>(op.paramBytesRead / 4 / (op.split == TpSplit::Sharded ? p.tp : 1));
  }
  pc.savedSelective = pc.saved;
  for (const StackAttention& a : part.attention) {
    const double split = a.sharded || p.sequenceParallel ? p.tp : 1;
    const double kept = b * a.keptBytes / split;
    // A fused kernel keeps its output, unless the next op (the output projection) keeps it anyway.
    const double fused = b * (std::max(0.0, a.outBytes - a.outKeptAfter) / split + a.statBytes / (a.sharded ? p.tp : 1));
    pc.saved += kept + (fusedAttention(p.attention) ? fused : b * a.innerBytes / split);
    pc.savedSelective += kept + (fusedAttention(p.attention) ? fused : 0);
  }
  const int L = st_->numLayers();
  if (pi >= 0 && pi < L)
    pc.input = b * (pi == 0 ? st_->prologue.outputBytes : st_->layers[static_cast<size_t>(pi - 1)].outputBytes) / whole;
  return pc;
}

StageCost StageCostModel::stageCost(const ParallelPlan& p, int chunk, int64_t mbs, const std::vector<int>& rankDevice) const {
  const PipeStage& stg = p.stages[static_cast<size_t>(chunk)];
  const int L = st_->numLayers();
  const int stage = p.stageOfChunk(chunk);
  const int first = chunk == 0 ? -1 : stg.first;
  const int last = chunk == p.chunks() - 1 ? L : stg.last - 1;  // inclusive part range
  const int device = rankDevice[static_cast<size_t>(stage * p.ranksPerStage())];
  const StageGroups groups = stageGroups(p, rankDevice, stage);

  const TrainingBytes tb = bytes(p);
  StageCost sc;
  double saved = 0, largestSaved = 0, inputs = 0, largestInput = 0;
  int64_t largestLayerParams = 0;
  for (int pi = first; pi <= last; ++pi) {
    const PartCost pc = partCost(p, pi, mbs, device, groups);
    sc.forward += pc.forwardTime();
    const double bwd = pc.backwardTime(stg.recompute);
    sc.backward += bwd;
    const bool full = stg.recompute == Recompute::Full;
    sc.blockingComm += pc.arForward + pc.arBackward + pc.gather + pc.gatherBackward + (full ? pc.arForward + pc.gather : 0);
    sc.tpComm += pc.tpForward + pc.tpBackward + (full ? pc.tpForward : 0);
    sc.cpComm += pc.cpForward + pc.cpBackward + (full ? pc.cpForward : 0);
    sc.epComm += pc.epForward + pc.epBackward + (full ? pc.epForward : 0);
    sc.zeroGather += pc.gather + pc.gatherBackward + (full ? pc.gather : 0);
    sc.recompute += full ? pc.forward : stg.recompute == Recompute::Selective ? pc.coreForward : 0;
    sc.bucketBackward.push_back(bwd);
    sc.bucketBytes.push_back(tb.reduce * static_cast<double>(pc.params));
    sc.params += pc.params;
    sc.localParams += pc.localParams;
    sc.fp8Params += pc.fp8Params;
    largestLayerParams = std::max(largestLayerParams, pc.params);
    saved += pc.kept(stg.recompute);
    largestSaved = std::max(largestSaved, pc.saved);
    inputs += pc.input;
    largestInput = std::max(largestInput, pc.input);
  }
  std::reverse(sc.bucketBackward.begin(), sc.bucketBackward.end());
  std::reverse(sc.bucketBytes.begin(), sc.bucketBytes.end());
  if (chunk < p.chunks() - 1)
    sc.sendBytes = static_cast<double>(mbs) / p.cp * st_->layers[static_cast<size_t>(stg.last - 1)].outputBytes /
                   (p.sequenceParallel ? p.tp : 1);

  sc.staticParts = stageStaticMemory(tb, p.zero, p.shardSize(), sc.params, largestLayerParams, sc.localParams);
  // The FP8 copy of the weights and its transpose, kept for the step; under ZeRO-3 each rank
  // keeps its shard's (the layer's whole FP8 weight is gathered for its passes, as the 16-bit one).
  const double fp8Shards = p.zero == 3 ? static_cast<double>(p.shardSize()) : 1.0;
  sc.staticParts.weights += 2.0 * static_cast<double>(sc.fp8Params) / fp8Shards;
  sc.staticMemory = saturatingBytes(sc.staticParts.total());
  const bool full = stg.recompute == Recompute::Full;
  sc.keptPerMicrobatch = full ? inputs : saved;
  sc.workingSet = full ? largestSaved : 0;
  if (chunk == p.chunks() - 1) {
    // The loss over the model's output (softmax cross-entropy in fp32, the vocabulary split over
    // tp): what it keeps for backward and what its backward makes beside that, by the framework's
    // loss (training_setup.h).
    const double outputs = static_cast<double>(mbs) / p.cp * st_->epilogue.outputBytes /
                           std::max(1, dtypeSize(st_->activationType)) / p.tp;
    const LossBytes loss = lossBytesFor(p.training.framework);
    sc.keptPerMicrobatch += loss.kept * outputs;
    sc.workingSet = std::max(sc.workingSet, loss.working * outputs);
  }
  if (full && p.training.activationOffload) {
    // The checkpoints go to host memory as forward makes them and come back as backward needs
    // them, each copy beside its pass: only what outlasts the pass's compute adds to it.
    sc.hostKeptPerMicrobatch = inputs;
    sc.keptPerMicrobatch -= inputs;  // the loss's buffers stay
    sc.workingSet += 2 * largestInput;
    const double copy = inputs / hostLinkBandwidth(cost_->cluster().device(device));
    sc.forward += std::max(0.0, copy - sc.forward);
    sc.backward += std::max(0.0, copy - sc.backward);
  }

  const double P = static_cast<double>(sc.params);
  const double dp = static_cast<double>(p.shardSize());  // ZeRO shards over its sharding group
  // Optimizer step: Adam over the local shard, memory-bound (reads weights, gradients, master
  // weights and moments; writes weights, master weights and moments), ~10 FLOPs per element.
  const double local = (p.zero >= 1 ? P / dp : P) + static_cast<double>(sc.localParams);
  // With FP8, every FP8 weight is cast again once per step (read 16-bit, write the copy and its
  // transpose).
  const double updateBytes = local * (tb.weight + tb.grad + 2 * tb.optimizer + tb.weight) +
                             (tb.weight + 2) * static_cast<double>(sc.fp8Params) / fp8Shards;
  if (p.training.optimizerOffload)
    sc.update = offloadedUpdateSeconds(local, tb, cost_->cluster().device(device));
  else
    sc.update = local > 0 ? cost_->fusedTime(10 * local, saturatingBytes(updateBytes), OpClass::Elementwise, DType::F32, device) : 0;
  if ((p.zero == 1 || p.zero == 2) && p.shardSize() > 1) sc.paramGatherBytes = tb.weight * P;
  return sc;
}

}  // namespace gp
