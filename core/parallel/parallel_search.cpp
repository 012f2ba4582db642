#include "parallel/parallel_search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <tuple>

#include "parallel/memory_verdict.h"

namespace gp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      out.push_back(d);
      if (d != n / d) out.push_back(n / d);
    }
  std::sort(out.begin(), out.end());
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Even chunks for a plan with virtual stages: the first recomputation of none, selective, full
// under which every pipeline stage fits `capacity`, with its lower bound; nullopt when none fits.
template <typename ChunkOf>
std::optional<StagePartition> partitionChunks(const ParallelPlan& shapePlan, int64_t capacity, ChunkOf chunkOf) {
  const int pp = shapePlan.pp, chunks = shapePlan.chunks();
  int L = 0;
  for (const PipeStage& s : shapePlan.stages) L = std::max(L, s.last);
  for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
    ParallelPlan plan = shapePlan;
    plan.stages = evenStages(L, chunks, r);
    std::vector<double> pass, kept, workingSet;
    std::vector<int64_t> stat;
    for (int k = 0; k < chunks; ++k) {
      const PipeStage& c = plan.stages[static_cast<size_t>(k)];
      const auto ch = chunkOf(k == 0 ? -1 : c.first, k == chunks - 1 ? L : c.last - 1, r);
      pass.push_back(ch.pass), kept.push_back(ch.kept), workingSet.push_back(ch.workingSet), stat.push_back(ch.stat);
    }
    bool fits = true;
    StagePartition out;
    double before = 0;  // the passes of the chunks before chunk s
    for (int s = 0; s < pp && fits; ++s) {
      const std::vector<double> act = stageActivations(plan, s, kept, workingSet);
      double bytes = 0, stagePass = 0;
      for (int k = s; k < chunks; k += pp) bytes += static_cast<double>(stat[static_cast<size_t>(k)]) + act[static_cast<size_t>(k)], stagePass += pass[static_cast<size_t>(k)];
      fits = bytes <= static_cast<double>(capacity);
      out.bottleneck = std::max(out.bottleneck, stagePass);
      out.lowerBound = std::max(out.lowerBound, before + plan.microbatches * stagePass);
      before += pass[static_cast<size_t>(s)];
    }
    if (!fits) continue;
    out.stages = std::move(plan.stages);
    return out;
  }
  return std::nullopt;
}

}  // namespace

int devicesPerServer(const Cluster& c) {
  const std::vector<int> server = serverOf(c);
  return static_cast<int>(std::count(server.begin(), server.end(), server.empty() ? 0 : server[0]));
}

bool sequenceParallelFits(const LayerStack& st, int tp) { return tp > 1 && st.sequenceDivides(tp); }

bool contextParallelFits(const LayerStack& st, int cp, int tp) {
  return st.heads > 0 && st.seqLen > 0 && st.seqLen % (int64_t{2} * cp * (sequenceParallelFits(st, tp) ? tp : 1)) == 0;
}

ParallelPlan planOf(const PlanShape& shape, std::vector<PipeStage> stages) {
  ParallelPlan p;
  p.dp = shape.dp, p.tp = shape.tp, p.pp = shape.pp, p.microbatches = shape.microbatches;
  p.virtualStages = shape.virtualStages;
  p.cp = shape.cp;
  p.overlapParamGather = shape.zero > 0;  // a pure gain where there is a gather
  p.schedule = shape.schedule, p.zero = shape.zero, p.expertParallel = shape.expertParallel;
  p.shardGroup = shape.shardGroup;
  shape.fixed.applyTo(p);
  p.sequenceParallel = shape.sequenceParallel;
  p.overlapTpComm = shape.sequenceParallel;  // a pure gain where there is TP communication
  p.stages = std::move(stages);
  return p;
}

std::vector<PlanShape> planShapes(const LayerStack& st, const Cluster& c, int64_t globalBatch, bool tpWithinServer,
                                  FixedKnobs fixed) {
  std::vector<PlanShape> out;
  const int n = c.numDevices();
  const int server = devicesPerServer(c);
  for (int64_t tp : divisors(n)) {
    if (!st.tpDivides(static_cast<int>(tp)) || (tpWithinServer && tp > server)) continue;
    for (int64_t pp : divisors(n / tp))
    for (int64_t cp : divisors(n / tp / pp)) {
      if (pp > st.numLayers()) continue;
      if (cp > 1 && !contextParallelFits(st, static_cast<int>(cp), static_cast<int>(tp))) continue;
      const int64_t dp = n / tp / pp / cp;
      if (globalBatch % dp) continue;
      // The members of a gradient group (dp x cp, tp apart) that share a server.
      const int perServer = tp <= server && server % tp == 0 ? static_cast<int>(server / tp) : 0;
      // Virtual stages: 1, and with 1F1B every v > 1 dividing the layers per stage.
      std::vector<int64_t> virtuals{1};
      if (pp > 1 && st.numLayers() % pp == 0)
        for (int64_t v : divisors(st.numLayers() / pp))
          if (v > 1) virtuals.push_back(v);
      for (int64_t m : divisors(globalBatch / dp)) {
        for (int sched = 0; sched < (pp > 1 ? 2 : 1); ++sched)
          for (int64_t v : virtuals) {
            if (v > 1 && (sched != 0 || m % pp != 0)) continue;
            for (int zero = 0; zero <= (dp * cp > 1 ? 3 : 0); ++zero)
              for (int ep = 0; ep <= (cp == 1 && st.experts > 0 && dp > 1 && st.experts % dp == 0 ? 1 : 0); ++ep)
                // ZeRO over the whole group, or ZeRO-3 sharded inside each server (HSDP: its per-layer
                // gathers stay on the server's links). ZeRO-1 / 2 in groups only adds memory: their
                // gradients cross the servers either way.
                for (int hsdp = 0; hsdp < 2; ++hsdp) {
                  const int group = hsdp ? perServer : 0;
                  if (hsdp && (zero != 3 || group <= 0 || group >= dp * cp || (dp * cp) % group != 0)) continue;
                  out.push_back({static_cast<int>(dp), static_cast<int>(tp), static_cast<int>(pp), static_cast<int>(m),
                                 static_cast<int>(v), sched == 0 ? PipeSchedule::OneFOneB : PipeSchedule::GPipe, zero,
                                 ep == 1, fixed, sequenceParallelFits(st, static_cast<int>(tp))});
                  out.back().cp = static_cast<int>(cp);
                  out.back().shardGroup = group;
                  if (!trainingSetupProblem(planOf(out.back(), {})).empty()) out.pop_back();  // not the framework's
                }
          }
      }
    }
  }
  return out;
}

std::vector<PartCost> stagePartCosts(const StageCostModel& model, int64_t globalBatch, const PlanShape& shape) {
  const int L = model.stack().numLayers();
  const ParallelPlan plan = planOf(shape, evenStages(L, shape.pp * shape.virtualStages));
  const std::vector<int> rankDevice = model.rankDevices(plan);
  const int64_t mbs = plan.microbatchSize(globalBatch);
  const StageGroups groups = stageGroups(plan, rankDevice, 0);
  std::vector<PartCost> parts;
  for (int pi = -1; pi <= L; ++pi) parts.push_back(model.partCost(plan, pi, mbs, rankDevice[0], groups));
  return parts;
}

std::optional<StagePartition> partitionStages(const StageCostModel& model, int64_t globalBatch, const PlanShape& shape) {
  return partitionStages(model, shape, stagePartCosts(model, globalBatch, shape));
}

std::optional<StagePartition> partitionStages(const StageCostModel& model, const PlanShape& shape,
                                              const std::vector<PartCost>& parts, double fill) {
  const LayerStack& st = model.stack();
  const Cluster& c = model.cluster();
  const int L = st.numLayers(), pp = shape.pp, m = shape.microbatches;
  ParallelPlan plan = planOf(shape, evenStages(L, pp * shape.virtualStages));
  std::vector<int> rankDevice = model.rankDevices(plan);
  int64_t capacity = std::numeric_limits<int64_t>::max();
  for (int r = 0; r < plan.devicesUsed(); ++r) {
    const int64_t cap = c.device(rankDevice[static_cast<size_t>(r)]).memCapacity;
    if (cap > 0) capacity = std::min(capacity, static_cast<int64_t>(static_cast<double>(cap) * fill));
  }

  // Parts [lo, hi] (inclusive, -1 the prologue, L the epilogue) as one chunk under recomputation r.
  // Parts accumulated into one stage or chunk, under each recomputation.
  const TrainingBytes tb = model.bytes(shape.fixed.training, shape.zero);
  struct Acc {
    double pass[3] = {0, 0, 0}, kept[3] = {0, 0, 0}, inputs = 0, largestSaved = 0;
    int64_t params = 0, largestParams = 0, local = 0;
    void add(const PartCost& pc) {
      for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        pass[static_cast<int>(r)] += pc.passTime(r);
        kept[static_cast<int>(r)] += pc.kept(r);
      }
      inputs += pc.input, largestSaved = std::max(largestSaved, pc.saved);
      params += pc.params, largestParams = std::max(largestParams, pc.params), local += pc.localParams;
    }
  };
  struct Chunk {
    double pass = 0, kept = 0, workingSet = 0;
    int64_t stat = 0;
  };
  auto staticOf = [&](const Acc& acc) {
    return stageStaticMemory(tb, shape.zero, shape.shardSize(), acc.params, acc.largestParams, acc.local).total();
  };
  auto chunkFrom = [&](const Acc& acc, Recompute r) {
    const bool full = r == Recompute::Full;
    return Chunk{acc.pass[static_cast<int>(r)], full ? acc.inputs : acc.kept[static_cast<int>(r)], full ? acc.largestSaved : 0,
                 saturatingBytes(staticOf(acc))};
  };
  const PartCost& prologue = parts.front();
  const PartCost& epilogue = parts.back();
  auto layer = [&](int l) -> const PartCost& { return parts[static_cast<size_t>(l + 1)]; };
  if (shape.virtualStages > 1)
    return partitionChunks(plan, capacity, [&](int lo, int hi, Recompute r) {
      Acc acc;
      for (int pi = lo; pi <= hi; ++pi) acc.add(parts[static_cast<size_t>(pi + 1)]);
      return chunkFrom(acc, r);
    });

  // Stage s over layers [a, b): pass time per micro-batch under the first recomputation that fits
  // (kInf when none does), for every a and b, each range extending the one before it.
  const size_t W = static_cast<size_t>(L + 1);
  std::vector<double> cost(static_cast<size_t>(pp) * W * W, kInf);
  std::vector<uint8_t> rec(cost.size(), 0);
  for (int s = 0; s < pp; ++s) {
    const int inFlight = shape.schedule == PipeSchedule::GPipe ? m : std::min(pp - s, m);
    for (int a = s; a < L; ++a) {  // stage s starts at layer s at the earliest
      Acc acc;
      if (s == 0) acc.add(prologue);
      for (int b = a + 1; b <= L - (pp - 1 - s); ++b) {
        acc.add(layer(b - 1));
        Acc whole = acc;
        if (s == pp - 1) {
          if (b != L) continue;
          whole.add(epilogue);
        }
        const size_t i = (static_cast<size_t>(s) * W + static_cast<size_t>(a)) * W + static_cast<size_t>(b);
        const double stat = staticOf(whole);
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
          const bool full = r == Recompute::Full;
          const double kept = full ? whole.inputs : whole.kept[static_cast<int>(r)];
          if (stat + inFlight * kept + (full ? whole.largestSaved : 0) <= static_cast<double>(capacity)) {
            cost[i] = whole.pass[static_cast<int>(r)];
            rec[i] = static_cast<uint8_t>(r);
            break;
          }
        }
        // Memory only grows with the range: when not even full recomputation fits, no longer
        // range from a does.
        if (cost[i] == kInf) break;
      }
    }
  }
  auto at = [&](int s, int a, int b) { return cost[(static_cast<size_t>(s) * W + static_cast<size_t>(a)) * W + static_cast<size_t>(b)]; };
  auto solve = [&](double cap, std::vector<double>& best, std::vector<int>& from, bool minMax) {
    best.assign(static_cast<size_t>(pp + 1) * W, kInf);
    from.assign(best.size(), -1);
    best[0] = 0;
    for (int s = 0; s < pp; ++s)
      for (int b = s + 1; b <= L; ++b)
        for (int a = s; a < b; ++a) {
          const double prev = best[static_cast<size_t>(s) * W + static_cast<size_t>(a)];
          const double t = at(s, a, b);
          if (prev == kInf || t == kInf || t > cap) continue;
          const double v = minMax ? std::max(prev, t) : prev + t;
          double& cur = best[static_cast<size_t>(s + 1) * W + static_cast<size_t>(b)];
          if (v < cur) cur = v, from[static_cast<size_t>(s + 1) * W + static_cast<size_t>(b)] = a;
        }
  };
  std::vector<double> best;
  std::vector<int> from;
  solve(kInf, best, from, true);
  const double bottleneck = best[static_cast<size_t>(pp) * W + static_cast<size_t>(L)];
  if (bottleneck == kInf) return std::nullopt;
  solve(bottleneck, best, from, false);
  StagePartition out;
  out.bottleneck = bottleneck;
  out.stages.resize(static_cast<size_t>(pp));
  for (int s = pp, b = L; s > 0; --s) {
    const int a = from[static_cast<size_t>(s) * W + static_cast<size_t>(b)];
    out.stages[static_cast<size_t>(s - 1)] = {
        a, b, static_cast<Recompute>(rec[(static_cast<size_t>(s - 1) * W + static_cast<size_t>(a)) * W + static_cast<size_t>(b)])};
    b = a;
  }
  double before = 0;
  for (int s = 0; s < pp; ++s) {
    const PipeStage& stg = out.stages[static_cast<size_t>(s)];
    const double t = at(s, stg.first, stg.last);
    out.lowerBound = std::max(out.lowerBound, before + m * t);
    before += t;
  }
  return out;
}

ParallelResult exactSearch(const StageCostModel& model, int64_t globalBatch, const ParallelSearchOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  ParallelResult res;
  res.method = "exact";
  const auto shapes = planShapes(model.stack(), model.cluster(), globalBatch, options.tpWithinServer, options.fixed);
  // Part costs depend on the stage's groups and the micro-batch size, not on pp, the schedule or
  // the virtual stages: shared by the shapes that differ only there.
  using Key = std::tuple<int, int, int, int64_t, int, bool, bool, int>;
  struct Parts {
    std::vector<PartCost> costs;
    double pass = 0;  // every part's pass without recomputation
    int64_t params = 0, local = 0;
  };
  std::map<Key, Parts> partCache;
  int64_t capacity = std::numeric_limits<int64_t>::max();
  for (int d = 0; d < model.cluster().numDevices(); ++d)
    if (const int64_t cap = model.cluster().device(d).memCapacity; cap > 0) capacity = std::min(capacity, cap);
  struct Candidate {
    size_t shape;
    const std::vector<PartCost>* parts;
    double bound;  // micro-batches x the passes / pp: the busiest stage holds at least the mean
  };
  std::vector<Candidate> cands;
  auto stopped = [&] {
    return (options.cancel && options.cancel->load()) || secondsSince(t0) > options.budgetSeconds;
  };
  for (size_t i = 0; i < shapes.size(); ++i) {
    const PlanShape& s = shapes[i];
    const Key key{s.dp, s.tp, s.cp, globalBatch / (int64_t{s.dp} * s.microbatches), s.zero, s.expertParallel, s.sequenceParallel,
                  s.shardGroup};
    auto [it, fresh] = partCache.try_emplace(key);
    Parts& sum = it->second;
    if (fresh) {
      sum.costs = stagePartCosts(model, globalBatch, s);
      for (const PartCost& pc : sum.costs) sum.pass += pc.passTime(Recompute::None), sum.params += pc.params, sum.local += pc.localParams;
    }
    // The stage with the most weights holds at least the mean: when even that does not fit, no
    // partition does.
    const double meanStatic =
        stageStaticMemory(model.bytes(s.fixed.training, s.zero), s.zero, s.shardSize(), sum.params / s.pp, 0, sum.local / s.pp).total();
    if (meanStatic > static_cast<double>(capacity)) continue;
    cands.push_back({i, &sum.costs, s.microbatches * sum.pass / s.pp});
    if (stopped()) {
      res.complete = false;
      break;
    }
  }
  // In order of that bound: partition (the dynamic programme's tighter bound), then simulate
  // while a shape's bound can still beat the best step.
  std::stable_sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) { return a.bound < b.bound; });
  // A plan within the memory verdict's band of its GPUs' capacity (an out-of-memory risk) is kept
  // aside: it is the answer only when no plan fits with room to spare.
  double bestStep = kInf;
  ParallelResult risky;
  int64_t partitioned = 0, fit = 0;
  for (const Candidate& cand : cands) {
    if (cand.bound >= bestStep) break;
    if (stopped()) {
      res.complete = false;
      break;
    }
    const PlanShape& shape = shapes[cand.shape];
    ++partitioned;
    const std::optional<StagePartition> part = partitionStages(model, shape, *cand.parts);
    if (!part) continue;
    ++fit;
    if (part->lowerBound >= bestStep) continue;
    // Simulated; kept as the best that fits, or aside when at out-of-memory risk. True when at risk.
    auto simulate = [&](ParallelPlan plan) {
      ParallelMeasurement meas = simulateParallel(model, globalBatch, plan, {false, true});
      ++res.evaluated;
      if (!meas.feasible || meas.stepTime >= bestStep) return false;
      const bool atRisk = !fitsWithRoom(meas);
      ParallelResult& into = atRisk ? risky : res;
      if (into.found && meas.stepTime >= into.measurement.stepTime) return atRisk;
      if (!atRisk) bestStep = meas.stepTime;
      into.plan = std::move(plan), into.measurement = std::move(meas), into.found = true;
      into.evaluatedToBest = res.evaluated;
      return atRisk;
    };
    if (!simulate(planOf(shape, part->stages))) continue;
    // At risk: the shape again with room for the peak's error (more recomputation, other boundaries).
    const auto roomy = partitionStages(model, shape, *cand.parts, 1 / (1 + kMemoryErrorShare));
    auto same = [](const PipeStage& x, const PipeStage& y) {
      return x.first == y.first && x.last == y.last && x.recompute == y.recompute;
    };
    if (roomy && roomy->lowerBound < bestStep &&
        !std::equal(roomy->stages.begin(), roomy->stages.end(), part->stages.begin(), part->stages.end(), same))
      simulate(planOf(shape, roomy->stages));
  }
  res.searchSeconds = secondsSince(t0);
  std::string aside;
  if (risky.found && !res.found) {
    res.plan = std::move(risky.plan), res.measurement = std::move(risky.measurement);
    res.found = true, res.evaluatedToBest = risky.evaluatedToBest;
    aside = "; no plan fits with room beyond the peak's error: this one is at out-of-memory risk";
  } else if (risky.found) {
    char gain[64];
    std::snprintf(gain, sizeof gain, "%.0f %%", (res.measurement.stepTime / risky.measurement.stepTime - 1) * 100);
    aside = std::string("; a plan ") + gain + " faster at out-of-memory risk set aside";
  }
  res.note = std::to_string(shapes.size()) + " shapes, " + std::to_string(cands.size()) + " within memory on average, " +
             std::to_string(partitioned) + " partitioned (the rest bounded out), " +
             std::to_string(fit) + " fit memory, " + std::to_string(res.evaluated) + " simulated" +
             (res.complete ? "" : " (stopped at the budget)") + aside;
  if (!res.found) res.note = "no plan fits the devices' memory: " + res.note;
  return res;
}

// Megatron-LM's split of `layers` over `n` stages: even where they divide, else the first and
// last stages take fewer (--decoder-first / last-pipeline-num-layers) and the others
// ceil(layers / n) each, as Megatron-LM can run them.
static std::vector<PipeStage> megatronStages(int layers, int n, Recompute recompute) {
  if (n < 2 || layers % n == 0) return evenStages(layers, n, recompute);
  const int middle = (layers + n - 1) / n;
  const int rest = layers - middle * (n - 2);
  const int first = rest / 2, last = rest - first;
  if (first < 1 || last > middle) return evenStages(layers, n, recompute);
  std::vector<PipeStage> out;
  int at = 0;
  for (int s = 0; s < n; ++s) {
    const int count = s == 0 ? first : s == n - 1 ? last : middle;
    out.push_back({at, at + count, recompute});
    at += count;
  }
  return out;
}

ParallelResult megatronPlan(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed) {
  const auto t0 = std::chrono::steady_clock::now();
  const LayerStack& st = model.stack();
  const Cluster& c = model.cluster();
  ParallelResult res;
  res.method = "megatron";
  const int n = c.numDevices(), server = devicesPerServer(c);
  // Model-parallel sizes in the rule's order: tp = 1, 2, 4, ... up to a server, then pp = 2, 4,
  // ... at the largest tp.
  std::vector<std::pair<int, int>> sizes;
  int maxTp = 1;
  for (int64_t d : divisors(n))
    if (d <= server && st.tpDivides(static_cast<int>(d))) {
      sizes.push_back({static_cast<int>(d), 1});
      maxTp = static_cast<int>(d);
    }
  for (int64_t pp : divisors(n / maxTp))
    if (pp > 1 && pp <= st.numLayers()) sizes.push_back({maxTp, static_cast<int>(pp)});
  ParallelPlan lastPlan;
  for (auto [tp, pp] : sizes) {
    const int64_t dp = n / tp / pp;
    if (globalBatch % dp) continue;
    for (Recompute recompute : {Recompute::None, Recompute::Selective, Recompute::Full}) {
      for (int64_t mbs : {1, 2, 4, 8}) {
        if ((globalBatch / dp) % mbs) continue;
        const int microbatches = static_cast<int>(globalBatch / dp / mbs);
        // Pipelines interleave (Narayanan et al. 2021's schedule) where the micro-batches are a
        // multiple of pp: every v whose pp x v chunks split the layers evenly.
        std::vector<int> virtualStages = {1};
        if (pp > 1 && microbatches % pp == 0)
          for (int v = 2; pp * v <= st.numLayers(); ++v)
            if (st.numLayers() % (pp * v) == 0) virtualStages.push_back(v);
        for (int v : virtualStages) {
          ParallelPlan plan;
          plan.dp = static_cast<int>(dp), plan.tp = tp, plan.pp = pp, plan.virtualStages = v;
          plan.microbatches = microbatches;
          fixed.applyTo(plan);
          plan.sequenceParallel = plan.overlapTpComm = sequenceParallelFits(st, tp);
          plan.stages = megatronStages(st.numLayers(), plan.pp * v, recompute);
          // A plan over memory is not simulated further (the last one is, below, if none fits).
          ParallelMeasurement meas = simulateParallel(model, globalBatch, plan, {false, true});
          ++res.evaluated;
          if (meas.feasible && (!res.found || meas.stepTime < res.measurement.stepTime)) {
            res.plan = std::move(plan), res.measurement = std::move(meas), res.found = true;
          } else if (!res.found) {
            lastPlan = std::move(plan);
          }
        }
      }
      if (res.found) {
        res.note = "the smallest model-parallel size that fits (tp " + std::to_string(tp) + ", pp " + std::to_string(pp) +
                   "), the best micro-batch size of 1, 2, 4, 8" + (pp > 1 ? " and interleaving" : "");
        res.searchSeconds = secondsSince(t0);
        return res;
      }
    }
  }
  res.found = !lastPlan.stages.empty();
  if (res.found) res.measurement = simulateParallel(model, globalBatch, lastPlan, {false, false});
  res.plan = std::move(lastPlan);
  res.note = res.found ? "no Megatron plan fits: " + res.measurement.problem
                       : "no Megatron plan: the global batch does not divide over the data-parallel replicas";
  res.searchSeconds = secondsSince(t0);
  return res;
}

ParallelResult dataParallelPlan(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed) {
  const auto t0 = std::chrono::steady_clock::now();
  const Cluster& c = model.cluster();
  ParallelResult res;
  res.method = "dp";
  const int n = c.numDevices();
  if (globalBatch % n) {
    res.note = "global batch " + std::to_string(globalBatch) + " does not divide over " + std::to_string(n) + " replicas";
    res.searchSeconds = secondsSince(t0);
    return res;
  }
  ParallelMeasurement last;
  ParallelPlan lastPlan;
  for (int zero = 0; zero <= (n > 1 ? 3 : 0); ++zero)
    for (int64_t m : divisors(globalBatch / n))
      for (Recompute recompute : {Recompute::None, Recompute::Selective, Recompute::Full}) {
      ParallelPlan plan;
      plan.dp = n, plan.zero = zero, plan.microbatches = static_cast<int>(m);
      plan.overlapParamGather = zero > 0;
      fixed.applyTo(plan);
      if (!trainingSetupProblem(plan).empty()) continue;  // a ZeRO stage the framework does not run
      plan.stages = evenStages(model.stack().numLayers(), 1, recompute);
      ParallelMeasurement meas = simulateParallel(model, globalBatch, plan, {false, false});
      ++res.evaluated;
      if (meas.feasible && (!res.found || ranksBefore(meas, res.measurement))) {
        res.plan = std::move(plan), res.measurement = std::move(meas), res.found = true;
        res.note = "the fastest of ZeRO 0-3 x micro-batch counts x recomputation none / selective / full: ZeRO-" + std::to_string(zero) + ", " +
                   std::to_string(m) + " micro-batches" +
                   (recompute == Recompute::None ? std::string() : ", " + std::string(recomputeName(recompute)) + " recomputation");
      } else if (!res.found) {
        last = std::move(meas), lastPlan = std::move(plan);
      }
    }
  res.searchSeconds = secondsSince(t0);
  if (res.found) return res;
  res.found = true;
  res.plan = std::move(lastPlan), res.measurement = std::move(last);
  res.note = "no data-parallel plan fits: " + res.measurement.problem;
  res.searchSeconds = secondsSince(t0);
  return res;
}

}  // namespace gp
