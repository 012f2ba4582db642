#include "parallel/pipeline_sim.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <queue>

namespace gp {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct Pass {
  bool forward;
  int microbatch;
};

std::vector<Pass> passOrder(PipeSchedule schedule, int stage, int pp, int m) {
  std::vector<Pass> out;
  if (schedule == PipeSchedule::GPipe) {
    for (int j = 0; j < m; ++j) out.push_back({true, j});
    for (int j = m - 1; j >= 0; --j) out.push_back({false, j});
    return out;
  }
  const int warmup = std::min(pp - stage - 1, m);
  for (int j = 0; j < warmup; ++j) out.push_back({true, j});
  for (int i = 0; i < m - warmup; ++i) {
    out.push_back({true, warmup + i});
    out.push_back({false, i});
  }
  for (int j = m - warmup; j < m; ++j) out.push_back({false, j});
  return out;
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

// A collective with its channels, merged with a second phase that follows it (an all-gather
// after a send).
CollectiveCost then(CollectiveCost a, const CollectiveCost& b) {
  a.time += b.time;
  a.channels.insert(a.channels.end(), b.channels.begin(), b.channels.end());
  std::sort(a.channels.begin(), a.channels.end());
  a.channels.erase(std::unique(a.channels.begin(), a.channels.end()), a.channels.end());
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

ParallelMeasurement simulateParallel(const StageCostModel& model, int64_t globalBatch, const ParallelPlan& plan,
                                     const ParallelSimOptions& options) {
  ParallelMeasurement out;
  const Cluster& c = model.cluster();
  out.problem = parallelPlanProblem(model.stack(), c, globalBatch, plan);
  if (!out.problem.empty()) {
    out.feasible = false;
    return out;
  }
  const int pp = plan.pp, m = plan.microbatches, used = plan.devicesUsed();
  out.rankDevice = planDevices(plan, c);
  out.rankDevice.resize(static_cast<size_t>(used));
  const int64_t mbs = plan.microbatchSize(globalBatch);
  for (int s = 0; s < pp; ++s) out.stages.push_back(model.stageCost(plan, s, mbs, out.rankDevice));

  for (int r = 0; r < used; ++r) {
    const int s = r / (plan.dp * plan.tp);
    const DeviceSpec& d = c.device(out.rankDevice[static_cast<size_t>(r)]);
    const int64_t peak = out.stages[static_cast<size_t>(s)].peakMemory();
    out.peakMemory.push_back(peak);
    out.capacity.push_back(d.memCapacity);
    if (out.feasible && d.memCapacity > 0 && peak > d.memCapacity) {
      out.feasible = false;
      out.problem = "stage " + std::to_string(s) + " on " + d.name + " needs " + gib(static_cast<double>(peak)) + ", " +
                    gib(static_cast<double>(peak - d.memCapacity)) + " over its " + gib(static_cast<double>(d.memCapacity));
    }
  }
  if (!out.feasible && options.skipWhenOverMemory) return out;

  // Costs of the transfers and collectives each stage requests.
  const auto& servers = model.serverOf();
  std::vector<CollectiveCost> sendFwd(static_cast<size_t>(pp)), sendBwd(static_cast<size_t>(pp));
  for (int s = 0; s + 1 < pp; ++s) {
    std::vector<int> a, b;
    for (int k = 0; k < plan.dp * plan.tp; ++k) {
      a.push_back(out.rankDevice[static_cast<size_t>(s * plan.dp * plan.tp + k)]);
      b.push_back(out.rankDevice[static_cast<size_t>((s + 1) * plan.dp * plan.tp + k)]);
    }
    const double bytes = out.stages[static_cast<size_t>(s)].sendBytes;
    const double part = bytes / plan.tp;
    CollectiveCost gatherNext = collectiveCost(c, Collective::AllGather, tpGroups(plan, out.rankDevice, s + 1), bytes, servers);
    CollectiveCost gatherHere = collectiveCost(c, Collective::AllGather, tpGroups(plan, out.rankDevice, s), bytes, servers);
    sendFwd[static_cast<size_t>(s)] = then(pointToPointCost(c, a, b, part), gatherNext);
    sendBwd[static_cast<size_t>(s)] = then(pointToPointCost(c, b, a, part), gatherHere);
  }
  std::vector<std::vector<CollectiveCost>> sync(static_cast<size_t>(pp));
  std::vector<CollectiveCost> paramGather(static_cast<size_t>(pp));
  const Collective syncKind = plan.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter;
  for (int s = 0; s < pp; ++s) {
    const StageCost& sc = out.stages[static_cast<size_t>(s)];
    const auto groups = dpGroups(plan, out.rankDevice, s);
    for (double bytes : sc.bucketBytes) sync[static_cast<size_t>(s)].push_back(collectiveCost(c, syncKind, groups, bytes, servers));
    if (sc.paramGatherBytes > 0)
      paramGather[static_cast<size_t>(s)] = collectiveCost(c, Collective::AllGather, groups, sc.paramGatherBytes, servers);
  }

  // The event loop.
  std::vector<double> channelFree(static_cast<size_t>(c.numChannels()), 0.0);
  auto reserve = [&](const CollectiveCost& cc, double now) {
    double start = now;
    for (int ch : cc.channels) start = std::max(start, channelFree[static_cast<size_t>(ch)]);
    const double end = start + cc.time;
    for (int ch : cc.channels) channelFree[static_cast<size_t>(ch)] = end;
    return std::pair{start, end};
  };
  std::vector<std::vector<Pass>> order;
  for (int s = 0; s < pp; ++s) order.push_back(passOrder(plan.schedule, s, pp, m));
  std::vector<std::vector<double>> arrivalF(static_cast<size_t>(pp), std::vector<double>(static_cast<size_t>(m), kNever));
  std::vector<std::vector<double>> arrivalB = arrivalF;
  std::fill(arrivalF[0].begin(), arrivalF[0].end(), 0.0);
  std::vector<size_t> next(static_cast<size_t>(pp), 0);
  std::vector<double> stageFree(static_cast<size_t>(pp), 0.0), passesEnd(static_cast<size_t>(pp), 0.0);
  std::vector<double> syncEnd(static_cast<size_t>(pp), 0.0), stageEnd(static_cast<size_t>(pp), 0.0);
  std::vector<size_t> bucketsDone(static_cast<size_t>(pp), 0);
  const bool shardedGrads = plan.zero >= 2 && plan.dp > 1;
  const size_t bucketRounds = shardedGrads ? static_cast<size_t>(m) : 1;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue;
  auto record = [&](PipelineEvent e) {
    if (options.timeline) out.events.push_back(e);
  };

  auto finishStage = [&](int s) {  // every bucket synchronised: optimizer step, then ZeRO-1/2 gather
    const StageCost& sc = out.stages[static_cast<size_t>(s)];
    const double start = std::max(syncEnd[static_cast<size_t>(s)], passesEnd[static_cast<size_t>(s)]);
    const double end = start + sc.update;
    record({PipelineEvent::Kind::Update, s, -1, -1, start, end});
    stageEnd[static_cast<size_t>(s)] = end;
    if (sc.paramGatherBytes > 0) queue.push({end, Ev::GatherReady, s, 0});
  };
  auto tryStart = [&](int s) {
    const auto su = static_cast<size_t>(s);
    const StageCost& sc = out.stages[su];
    while (next[su] < order[su].size()) {
      const Pass pass = order[su][next[su]];
      const double ready = (pass.forward ? arrivalF : arrivalB)[su][static_cast<size_t>(pass.microbatch)];
      if (ready == kNever) return;
      const double start = std::max(stageFree[su], ready);
      const double end = start + (pass.forward ? sc.forward : sc.backward);
      stageFree[su] = end;
      record({pass.forward ? PipelineEvent::Kind::Forward : PipelineEvent::Kind::Backward, s, pass.microbatch, -1, start, end});
      if (pass.forward && s == pp - 1) arrivalB[su][static_cast<size_t>(pass.microbatch)] = end;
      queue.push({end, Ev::PassDone, s, static_cast<int>(next[su])});
      const bool last = ++next[su] == order[su].size();
      if (last) passesEnd[su] = end;
      // Gradient buckets: after the last backward, or after every backward when ZeRO-2/3 keeps
      // only a shard of the gradients (each micro-batch's are reduce-scattered at once).
      if (!pass.forward && (last || shardedGrads)) {
        double t = start;
        for (size_t k = 0; k < sc.bucketBackward.size(); ++k) {
          t += sc.bucketBackward[k];
          queue.push({std::min(t, end), Ev::BucketReady, s, static_cast<int>(k)});
        }
      }
      if (last && sc.bucketBackward.empty()) finishStage(s);
    }
  };
  for (int s = 0; s < pp; ++s) tryStart(s);
  while (!queue.empty()) {
    const Event e = queue.top();
    queue.pop();
    const auto su = static_cast<size_t>(e.stage);
    if (e.kind == Ev::PassDone) {
      const Pass pass = order[su][static_cast<size_t>(e.index)];
      const auto j = static_cast<size_t>(pass.microbatch);
      if (pass.forward && e.stage + 1 < pp) {
        auto [start, end] = reserve(sendFwd[su], e.time);
        arrivalF[su + 1][j] = end;
        record({PipelineEvent::Kind::Send, e.stage, pass.microbatch, -1, start, end, false});
        tryStart(e.stage + 1);
      } else if (!pass.forward && e.stage > 0) {
        auto [start, end] = reserve(sendBwd[su - 1], e.time);
        arrivalB[su - 1][j] = end;
        record({PipelineEvent::Kind::Send, e.stage, pass.microbatch, -1, start, end, true});
        tryStart(e.stage - 1);
      }
    } else if (e.kind == Ev::BucketReady) {
      if (plan.dp > 1) {
        auto [start, end] = reserve(sync[su][static_cast<size_t>(e.index)], e.time);
        syncEnd[su] = std::max(syncEnd[su], end);
        record({PipelineEvent::Kind::GradSync, e.stage, -1, e.index, start, end});
      }
      if (++bucketsDone[su] == out.stages[su].bucketBackward.size() * bucketRounds) finishStage(e.stage);
    } else {
      auto [start, end] = reserve(paramGather[su], e.time);
      stageEnd[su] = end;
      record({PipelineEvent::Kind::ParamGather, e.stage, -1, -1, start, end});
    }
  }
  for (int s = 0; s < pp; ++s)
    if (next[static_cast<size_t>(s)] != order[static_cast<size_t>(s)].size()) {
      out.feasible = false;
      out.problem = "the pipeline schedule deadlocked at stage " + std::to_string(s);
      return out;
    }

  const double lastPass = *std::max_element(passesEnd.begin(), passesEnd.end());
  out.stepTime = *std::max_element(stageEnd.begin(), stageEnd.end());
  double busy = 0, comm = 0;
  for (int s = 0; s < pp; ++s) {
    const StageCost& sc = out.stages[static_cast<size_t>(s)];
    busy += m * (sc.forward + sc.backward);
    const double exposed = std::max(0.0, syncEnd[static_cast<size_t>(s)] - passesEnd[static_cast<size_t>(s)]);
    comm = std::max(comm, m * sc.blockingComm + exposed);
  }
  out.bubbleShare = lastPass > 0 ? std::max(0.0, 1 - busy / pp / lastPass) : 0;
  {
    const auto critical = static_cast<size_t>(std::max_element(stageEnd.begin(), stageEnd.end()) - stageEnd.begin());
    const StageCost& sc = out.stages[critical];
    StepBreakdown& b = out.breakdown;
    b.stage = static_cast<int>(critical);
    b.passComm = m * sc.blockingComm;
    b.recompute = m * sc.recompute;
    b.compute = m * (sc.forward + sc.backward) - b.passComm - b.recompute;
    b.bubble = passesEnd[critical] - m * (sc.forward + sc.backward);
    b.optimizer = sc.update;
    b.dpExposed = stageEnd[critical] - passesEnd[critical] - sc.update;
  }
  out.commShare = out.stepTime > 0 ? comm / out.stepTime : 0;
  if (out.stepTime > 0) {
    out.samplesPerSecond = static_cast<double>(globalBatch) / out.stepTime;
    const double peak = c.device(out.rankDevice[0]).peakFlops(model.stack().activationType);
    const double modelFlops = 3 * model.stack().forwardFlopsPerSample() * static_cast<double>(globalBatch);
    out.mfu = peak > 0 ? modelFlops / (out.stepTime * used * peak) : 0;
  }
  return out;
}

}  // namespace gp
