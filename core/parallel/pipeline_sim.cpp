#include "parallel/pipeline_sim.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <queue>
#include <unordered_map>
#include <span>

#include "base/byte_text.h"
#include "parallel/caching_allocator.h"

namespace gp {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

using Pass = PipelinePass;

std::string gib(double bytes) { return gibText(bytes); }

// A collective with its channels, merged with a second phase that follows it (an all-gather
// after a send).
CollectiveCost then(CollectiveCost a, const CollectiveCost& b, int numChannels) {
  a.time += b.time;
  addChannels(a.channels, b.channels, numChannels);
  return a;
}

enum class Ev : uint8_t { PassDone, BucketReady, GatherReady };
struct Event {
  double time;
  Ev kind;
  int stage, index;  // PassDone: index into the stage's pass order; BucketReady: bucket
  bool operator>(const Event& o) const { return time > o.time; }
};

}  // namespace

std::vector<double> stageActivations(const ParallelPlan& plan, int stage, std::span<const double> kept,
                                     std::span<const double> workingSet) {
  const int v = plan.virtualStages;
  std::vector<int> inFlight(static_cast<size_t>(v), 0), atPeak(static_cast<size_t>(v), 0);
  double total = 0, peak = -1;
  auto local = [&](int chunk) { return static_cast<size_t>(chunk / plan.pp); };
  // The peak comes before the steady phase's second round: GPipe's after its forwards; 1F1B's
  // steady phase repeats every pp x v forward-backward pairs, each round adding and freeing every
  // chunk alike, so the warm-up (at most (v + 1) pp forwards) and one round (2 pp v) hold it.
  const size_t enough = plan.schedule == PipeSchedule::GPipe
                            ? static_cast<size_t>(plan.microbatches)
                            : static_cast<size_t>(v + 1) * static_cast<size_t>(plan.pp) * 3;
  for (const Pass& pass : pipelinePassOrder(plan, stage, enough)) {
    const double k = kept[static_cast<size_t>(pass.chunk)];
    inFlight[local(pass.chunk)] += pass.forward ? 1 : -1;
    total += pass.forward ? k : -k;
    if (total > peak) peak = total, atPeak = inFlight;
  }
  std::vector<double> out(static_cast<size_t>(plan.chunks()), 0.0);
  int widest = stage;
  for (int c = stage; c < plan.chunks(); c += plan.pp) {
    out[static_cast<size_t>(c)] = atPeak[local(c)] * kept[static_cast<size_t>(c)];
    if (workingSet[static_cast<size_t>(c)] > workingSet[static_cast<size_t>(widest)]) widest = c;
  }
  out[static_cast<size_t>(widest)] += workingSet[static_cast<size_t>(widest)];
  return out;
}

std::vector<PipelinePass> pipelinePassOrder(const ParallelPlan& plan, int stage, size_t limit) {
  const int pp = plan.pp, m = plan.microbatches, v = plan.virtualStages;
  std::vector<Pass> out;
  if (plan.schedule == PipeSchedule::GPipe) {
    for (int j = 0; j < m && out.size() < limit; ++j) out.push_back({true, stage, j});
    for (int j = m - 1; j >= 0 && out.size() < limit; --j) out.push_back({false, stage, j});
    return out;
  }
  // Megatron-LM's interleaved order (v = 1: plain 1F1B): the k-th forward of a stage runs chunk
  // (k mod pp v) / pp for micro-batch (k / pp v) pp + k mod pp; backwards count chunks down.
  const int total = m * v, group = pp * v;
  auto pass = [&](bool forward, int k) {
    const int inGroup = k % group;
    const int local = v == 1 ? 0 : forward ? inGroup / pp : v - 1 - inGroup / pp;
    const int microbatch = v == 1 ? k : k / group * pp + k % pp;
    return Pass{forward, local * pp + stage, microbatch};
  };
  const int warmup = std::min(v == 1 ? pp - stage - 1 : 2 * (pp - stage - 1) + (v - 1) * pp, total);
  for (int k = 0; k < warmup && out.size() < limit; ++k) out.push_back(pass(true, k));
  for (int i = 0; i < total - warmup && out.size() < limit; ++i) {
    out.push_back(pass(true, warmup + i));
    out.push_back(pass(false, i));
  }
  for (int k = total - warmup; k < total && out.size() < limit; ++k) out.push_back(pass(false, k));
  return out;
}

std::string breakdownChanges(const StepBreakdown& from, double fromStep, const StepBreakdown& to, double toStep) {
  struct Part {
    const char* name;
    double a, b;
  };
  std::vector<Part> parts = {{"compute", from.compute, to.compute},
                             {"recomputation", from.recompute, to.recompute},
                             {"collectives inside the passes", from.passComm, to.passComm},
                             {"bubble and transfers", from.bubble, to.bubble},
                             {"exposed gradient sync", from.dpExposed, to.dpExposed},
                             {"optimizer", from.optimizer, to.optimizer}};
  std::stable_sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.b - x.a < y.b - y.a; });
  const double floor = 0.01 * std::max(fromStep, toStep);
  std::string out;
  char text[160];
  for (const Part& p : parts) {
    if (std::abs(p.b - p.a) < floor) continue;
    auto shown = [&](double v) { return std::abs(v) < 1e-9 * std::max(fromStep, toStep) ? 0.0 : v; };  // no "-4e-16 s"
    std::snprintf(text, sizeof text, "%s%s %.3g -> %.3g s", out.empty() ? "" : ", ", p.name, shown(p.a), shown(p.b));
    out += text;
  }
  return out.empty() ? "no part of the step moved by 1 %" : out;
}

ParallelMeasurement simulateParallel(const StageCostModel& model, int64_t globalBatch, const ParallelPlan& plan,
                                     const ParallelSimOptions& options) {
  ParallelMeasurement out;
  const Cluster& c = model.cluster();
  out.problem = parallelPlanProblem(model.stack(), c, globalBatch, plan);
  if (!out.problem.empty()) {
    out.feasible = false;
    return out;
  }
  const int pp = plan.pp, m = plan.microbatches, used = plan.devicesUsed(), chunks = plan.chunks();
  const int perStage = plan.ranksPerStage();
  out.rankDevice = model.rankDevices(plan);
  out.rankDevice.resize(static_cast<size_t>(used));
  const int64_t mbs = plan.microbatchSize(globalBatch);
  for (int k = 0; k < chunks; ++k) out.stages.push_back(model.stageCost(plan, k, mbs, out.rankDevice));
  auto chunksOf = [&](int s) {  // the chunks of pipeline stage s
    std::vector<int> ks;
    for (int k = s; k < chunks; k += pp) ks.push_back(k);
    return ks;
  };
  std::vector<double> kept, workingSet, hostKept;
  for (const StageCost& sc : out.stages)
    kept.push_back(sc.keptPerMicrobatch), workingSet.push_back(sc.workingSet), hostKept.push_back(sc.hostKeptPerMicrobatch);
  for (int s = 0; s < pp; ++s) {
    const std::vector<double> act = stageActivations(plan, s, kept, workingSet);
    for (int k : chunksOf(s)) out.stages[static_cast<size_t>(k)].activationMemory = saturatingBytes(act[static_cast<size_t>(k)]);
    StageMemory mem;
    for (int k : chunksOf(s)) {
      const StageCost& sc = out.stages[static_cast<size_t>(k)];
      mem.statics.weights += sc.staticParts.weights;
      mem.statics.gradients += sc.staticParts.gradients;
      mem.statics.optimizer += sc.staticParts.optimizer;
      mem.statics.host += sc.staticParts.host;
      mem.statics.step += sc.staticParts.step;
      mem.activations = saturatingBytes(static_cast<double>(mem.activations) + static_cast<double>(sc.activationMemory));
    }
    if (plan.training.activationOffload) {
      const std::vector<double> none(out.stages.size(), 0.0);  // no working set in host memory
      for (double bytes : stageActivations(plan, s, hostKept, none)) mem.hostActivations += bytes;
    }
    out.memory.push_back(mem);
  }
  const std::vector<RuntimeMemory> runtime = stageRuntimeMemory(c, plan, out.rankDevice, model.serverOf());
  for (int s = 0; s < pp; ++s) {
    StageMemory& mem = out.memory[static_cast<size_t>(s)];
    mem.runtime = runtime[static_cast<size_t>(s)];
    const DeviceSpec& first = c.device(out.rankDevice[static_cast<size_t>(s * perStage)]);
    mem.reserved = reservedPeakBytes(mem, c.framework(), cublasWorkspaceBytes(first));
  }

  for (int r = 0; r < used; ++r) {
    const int s = r / perStage;
    const DeviceSpec& d = c.device(out.rankDevice[static_cast<size_t>(r)]);
    const int64_t peak = out.memory[static_cast<size_t>(s)].total();
    out.peakMemory.push_back(peak);
    out.capacity.push_back(d.memCapacity);
    if (out.feasible && d.memCapacity > 0 && peak > d.memCapacity) {
      out.feasible = false;
      out.problem = "stage " + std::to_string(s) + " on " + d.name + " needs " + gib(static_cast<double>(peak)) + ", " +
                    gib(static_cast<double>(peak - d.memCapacity)) + " over its " + gib(static_cast<double>(d.memCapacity));
    }
  }
  if (!out.feasible && options.skipWhenOverMemory) return out;

  // Costs of the transfers and collectives each chunk requests: chunk k sends to chunk k + 1, on
  // the next pipeline stage (the last stage's chunks to the first stage's next chunk).
  const auto& servers = model.serverOf();
  // Chunks on the same pair of stages sending the same bytes (interleaved chunks, identical
  // layers) share their costs.
  std::map<std::pair<int, double>, std::pair<CollectiveCost, CollectiveCost>> sendCosts;  // (stage, bytes)
  std::vector<const CollectiveCost*> sendFwd(static_cast<size_t>(chunks)), sendBwd(static_cast<size_t>(chunks));
  std::vector<std::vector<std::vector<int>>> tpOf(static_cast<size_t>(pp));
  for (int k = 0; k + 1 < chunks; ++k) {
    const int s = k % pp, t = (k + 1) % pp;
    const double bytes = out.stages[static_cast<size_t>(k)].sendBytes;
    auto [it, fresh] = sendCosts.try_emplace({s, bytes});
    if (fresh) {
      std::vector<int> a, b;
      for (int i = 0; i < perStage; ++i) {
        a.push_back(out.rankDevice[static_cast<size_t>(s * perStage + i)]);
        b.push_back(out.rankDevice[static_cast<size_t>(t * perStage + i)]);
      }
      for (int x : {s, t})
        if (tpOf[static_cast<size_t>(x)].empty()) tpOf[static_cast<size_t>(x)] = tpGroups(plan, out.rankDevice, x);
      const double part = bytes / plan.tp;
      const CollectiveCost gatherNext = collectiveCost(c, Collective::AllGather, tpOf[static_cast<size_t>(t)], bytes, servers);
      const CollectiveCost gatherHere = collectiveCost(c, Collective::AllGather, tpOf[static_cast<size_t>(s)], bytes, servers);
      it->second = {then(pointToPointCost(c, a, b, part), gatherNext, c.numChannels()),
                    then(pointToPointCost(c, b, a, part), gatherHere, c.numChannels())};
    }
    sendFwd[static_cast<size_t>(k)] = &it->second.first;
    sendBwd[static_cast<size_t>(k)] = &it->second.second;
  }
  std::vector<std::vector<const CollectiveCost*>> sync(static_cast<size_t>(chunks));  // into syncCosts
  std::vector<CollectiveCost> paramGather(static_cast<size_t>(chunks));
  const Collective syncKind = plan.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter;
  std::vector<std::map<double, CollectiveCost>> syncCosts(static_cast<size_t>(pp));  // identical buckets alike
  // With a sharding group smaller than the gradient group (HSDP): reduce-scatter inside each
  // sharding group, all-reduce of the shard across its replicas; gathers inside the group.
  const int shard = plan.shardSize();
  const bool hybrid = shard < plan.gradientGroup();
  for (int k = 0; k < chunks; ++k) {
    const StageCost& sc = out.stages[static_cast<size_t>(k)];
    const auto groups = shardGroups(plan, out.rankDevice, k % pp);     // the data-parallel groups unless hybrid
    const auto replicas = replicaGroups(plan, out.rankDevice, k % pp);  // none unless hybrid
    for (double bytes : sc.bucketBytes) {
      auto [it, fresh] = syncCosts[static_cast<size_t>(k % pp)].try_emplace(bytes);
      if (fresh) {
        const CollectiveCost across = hybrid ? collectiveCost(c, Collective::AllReduce, replicas, bytes / shard, servers) : CollectiveCost{};
        it->second = !hybrid    ? collectiveCost(c, syncKind, groups, bytes, servers)
                     : shard == 1 ? across
                                  : then(collectiveCost(c, Collective::ReduceScatter, groups, bytes, servers), across, c.numChannels());
      }
      sync[static_cast<size_t>(k)].push_back(&it->second);
    }
    if (sc.paramGatherBytes > 0)
      paramGather[static_cast<size_t>(k)] = collectiveCost(c, Collective::AllGather, groups, sc.paramGatherBytes, servers);
  }

  // The event loop. A transfer or collective holds its channels from its start until its end.
  // Channels that every one of them holds all or none of are always free at the same time, so
  // the loop keeps one free time per such class (a 16,384-GPU collective holds tens of
  // thousands of channels, in a handful of classes): the classes refine "every channel alike" by
  // each cost's channels in turn.
  std::vector<const CollectiveCost*> held;
  for (const auto& [key, costs] : sendCosts) held.insert(held.end(), {&costs.first, &costs.second});
  for (const auto& perBytes : syncCosts)
    for (const auto& [bytes, cost] : perBytes) held.push_back(&cost);
  for (const CollectiveCost& g : paramGather) held.push_back(&g);
  std::vector<int> classOf(static_cast<size_t>(c.numChannels()), 0);
  int classes = 1;
  for (const CollectiveCost* cc : held) {
    std::unordered_map<int, int> split;  // old class -> its part held by cc
    for (int ch : cc->channels) {
      int& cls = classOf[static_cast<size_t>(ch)];
      cls = split.try_emplace(cls, classes).first->second;
      if (cls == classes) ++classes;
    }
  }
  std::unordered_map<const CollectiveCost*, std::vector<int>> classesHeld;
  std::vector<int> seen(static_cast<size_t>(classes), -1);
  for (size_t i = 0; i < held.size(); ++i) {
    std::vector<int>& list = classesHeld[held[i]];
    for (int ch : held[i]->channels) {
      const int cls = classOf[static_cast<size_t>(ch)];
      if (seen[static_cast<size_t>(cls)] != static_cast<int>(i)) list.push_back(cls);
      seen[static_cast<size_t>(cls)] = static_cast<int>(i);
    }
  }
  std::vector<double> classFree(static_cast<size_t>(classes), 0.0);
  auto reserve = [&](const CollectiveCost& cc, double now) {
    const std::vector<int>& list = classesHeld.at(&cc);
    double start = now;
    for (int cls : list) start = std::max(start, classFree[static_cast<size_t>(cls)]);
    const double end = start + cc.time;
    for (int cls : list) classFree[static_cast<size_t>(cls)] = end;
    return std::pair{start, end};
  };
  std::vector<std::vector<Pass>> order;
  for (int s = 0; s < pp; ++s) order.push_back(pipelinePassOrder(plan, s));
  std::vector<std::vector<double>> arrivalF(static_cast<size_t>(chunks), std::vector<double>(static_cast<size_t>(m), kNever));
  std::vector<std::vector<double>> arrivalB = arrivalF;
  std::fill(arrivalF[0].begin(), arrivalF[0].end(), 0.0);
  std::vector<size_t> next(static_cast<size_t>(pp), 0);
  std::vector<double> stageFree(static_cast<size_t>(pp), 0.0), passesEnd(static_cast<size_t>(pp), 0.0);
  std::vector<double> syncEnd(static_cast<size_t>(pp), 0.0), stageEnd(static_cast<size_t>(pp), 0.0);
  std::vector<int> backwardsDone(static_cast<size_t>(chunks), 0);
  std::vector<size_t> bucketsLeft(static_cast<size_t>(pp), 0);
  const bool shardedGrads = plan.zero >= 2 && plan.shardSize() > 1;
  const size_t bucketRounds = shardedGrads ? static_cast<size_t>(m) : 1;
  for (int k = 0; k < chunks; ++k) bucketsLeft[static_cast<size_t>(k % pp)] += out.stages[static_cast<size_t>(k)].bucketBackward.size() * bucketRounds;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue;
  auto record = [&](PipelineEvent e) {
    if (options.timeline) out.events.push_back(e);
  };

  auto finishStage = [&](int s) {  // every bucket synchronised: optimizer step, then ZeRO-1/2 gathers
    const auto su = static_cast<size_t>(s);
    double update = 0;
    for (int k : chunksOf(s)) update += out.stages[static_cast<size_t>(k)].update;
    const double start = std::max(syncEnd[su], passesEnd[su]);
    const double end = start + update;
    record({PipelineEvent::Kind::Update, s, -1, -1, start, end});
    stageEnd[su] = end;
    for (int k : chunksOf(s))
      if (out.stages[static_cast<size_t>(k)].paramGatherBytes > 0) queue.push({end, Ev::GatherReady, k, 0});
  };
  auto tryStart = [&](int s) {
    const auto su = static_cast<size_t>(s);
    while (next[su] < order[su].size()) {
      const Pass pass = order[su][next[su]];
      const auto ku = static_cast<size_t>(pass.chunk);
      const StageCost& sc = out.stages[ku];
      const double ready = (pass.forward ? arrivalF : arrivalB)[ku][static_cast<size_t>(pass.microbatch)];
      if (ready == kNever) return;
      const double start = std::max(stageFree[su], ready);
      const double end = start + (pass.forward ? sc.forward : sc.backward);
      stageFree[su] = end;
      record({pass.forward ? PipelineEvent::Kind::Forward : PipelineEvent::Kind::Backward, s, pass.microbatch, -1, start, end,
              false, pass.chunk});
      if (pass.forward && pass.chunk == chunks - 1) arrivalB[ku][static_cast<size_t>(pass.microbatch)] = end;
      queue.push({end, Ev::PassDone, s, static_cast<int>(next[su])});
      if (++next[su] == order[su].size()) passesEnd[su] = end;
      // Gradient buckets: after the chunk's last backward, or after every backward when ZeRO-2/3
      // keeps only a shard of the gradients (each micro-batch's are reduce-scattered at once).
      if (!pass.forward && (++backwardsDone[ku] == m || shardedGrads)) {
        double t = start;
        for (size_t b = 0; b < sc.bucketBackward.size(); ++b) {
          t += sc.bucketBackward[b];
          queue.push({std::min(t, end), Ev::BucketReady, pass.chunk, static_cast<int>(b)});
        }
      }
    }
  };
  for (int s = 0; s < pp; ++s) tryStart(s);
  while (!queue.empty()) {
    const Event e = queue.top();
    queue.pop();
    if (e.kind == Ev::PassDone) {
      const Pass pass = order[static_cast<size_t>(e.stage)][static_cast<size_t>(e.index)];
      const auto k = static_cast<size_t>(pass.chunk);
      const auto j = static_cast<size_t>(pass.microbatch);
      if (pass.forward && pass.chunk + 1 < chunks) {
        auto [start, end] = reserve(*sendFwd[k], e.time);
        arrivalF[k + 1][j] = end;
        record({PipelineEvent::Kind::Send, e.stage, pass.microbatch, -1, start, end, false, pass.chunk});
        tryStart((pass.chunk + 1) % pp);
      } else if (!pass.forward && pass.chunk > 0) {
        auto [start, end] = reserve(*sendBwd[k - 1], e.time);
        arrivalB[k - 1][j] = end;
        record({PipelineEvent::Kind::Send, e.stage, pass.microbatch, -1, start, end, true, pass.chunk});
        tryStart((pass.chunk - 1) % pp);
      }
    } else if (e.kind == Ev::BucketReady) {  // e.stage holds the chunk
      const int s = e.stage % pp;
      const auto su = static_cast<size_t>(s);
      if (plan.gradientGroup() > 1) {
        auto [start, end] = reserve(*sync[static_cast<size_t>(e.stage)][static_cast<size_t>(e.index)], e.time);
        syncEnd[su] = std::max(syncEnd[su], end);
        record({PipelineEvent::Kind::GradSync, s, -1, e.index, start, end, false, e.stage});
      }
      if (--bucketsLeft[su] == 0) finishStage(s);
    } else {  // GatherReady, e.stage holds the chunk
      const int s = e.stage % pp;
      auto [start, end] = reserve(paramGather[static_cast<size_t>(e.stage)], e.time);
      // Overlapped: the next step's first forward through the chunk hides as much.
      const double hidden = plan.overlapParamGather ? out.stages[static_cast<size_t>(e.stage)].forward : 0;
      stageEnd[static_cast<size_t>(s)] = std::max(stageEnd[static_cast<size_t>(s)], end - hidden);
      record({PipelineEvent::Kind::ParamGather, s, -1, -1, start, end, false, e.stage});
    }
  }
  for (int s = 0; s < pp; ++s)
    if (next[static_cast<size_t>(s)] != order[static_cast<size_t>(s)].size()) {
      out.feasible = false;
      out.problem = "the pipeline schedule deadlocked at stage " + std::to_string(s);
      return out;
    }

  // Per pipeline stage, per micro-batch: its chunks' passes, collectives in them, recomputation.
  std::vector<double> pass(static_cast<size_t>(pp), 0.0), blocking = pass, recompute = pass, update = pass;
  std::vector<double> tpComm = pass, cpComm = pass, epComm = pass, zeroGather = pass;
  for (int k = 0; k < chunks; ++k) {
    const StageCost& sc = out.stages[static_cast<size_t>(k)];
    const auto su = static_cast<size_t>(k % pp);
    pass[su] += sc.forward + sc.backward;
    blocking[su] += sc.blockingComm;
    tpComm[su] += sc.tpComm, cpComm[su] += sc.cpComm, epComm[su] += sc.epComm, zeroGather[su] += sc.zeroGather;
    recompute[su] += sc.recompute;
    update[su] += sc.update;
  }
  const double lastPass = *std::max_element(passesEnd.begin(), passesEnd.end());
  out.stepTime = *std::max_element(stageEnd.begin(), stageEnd.end());
  double busy = 0, comm = 0;
  for (int s = 0; s < pp; ++s) {
    const auto su = static_cast<size_t>(s);
    busy += m * pass[su];
    const double exposed = std::max(0.0, syncEnd[su] - passesEnd[su]);
    comm = std::max(comm, m * blocking[su] + exposed);
  }
  out.bubbleShare = lastPass > 0 ? std::max(0.0, 1 - busy / pp / lastPass) : 0;
  {
    const auto critical = static_cast<size_t>(std::max_element(stageEnd.begin(), stageEnd.end()) - stageEnd.begin());
    StepBreakdown& b = out.breakdown;
    b.stage = static_cast<int>(critical);
    b.passComm = m * blocking[critical];
    b.tpComm = m * tpComm[critical], b.cpComm = m * cpComm[critical], b.epComm = m * epComm[critical];
    b.zeroGather = m * zeroGather[critical];
    b.recompute = m * recompute[critical];
    b.compute = m * pass[critical] - b.passComm - b.recompute;
    b.bubble = passesEnd[critical] - m * pass[critical];
    b.optimizer = update[critical];
    b.dpExposed = stageEnd[critical] - passesEnd[critical] - update[critical];
  }
  out.commShare = out.stepTime > 0 ? comm / out.stepTime : 0;
  if (out.stepTime > 0) {
    out.samplesPerSecond = static_cast<double>(globalBatch) / out.stepTime;
    // Against the peak of the products' precision: FP8's under FP8 GEMMs.
    const double peak = c.device(out.rankDevice[0]).peakFlops(plan.fp8 ? DType::F8 : model.stack().activationType);
    const double modelFlops = 3 * model.stack().forwardFlopsPerSample() * static_cast<double>(globalBatch);
    out.mfu = peak > 0 ? modelFlops / (out.stepTime * used * peak) : 0;
  }
  return out;
}

}  // namespace gp

