#include "fidelity/fidelity.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "cost/cost_model.h"
#include "fidelity/kernel_workloads.h"
#include "fusion/fuser.h"
#include "base/error.h"
#include "io/model_loader.h"
#include "parallel/layer_stack.h"
#include "parallel/parallel_search.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"
#include "placement/placer.h"
#include "session/parallel_task_load.h"
#include "sim/simulator.h"

namespace gp {
namespace {

constexpr double kOrderTolerance = 1.05;     // published figures closer than 5 % are a tie
constexpr double kSimulatedTolerance = 1.01; // a simulated difference under 1 % does not separate two plans

Graph workloadGraph(const PublishedRow& r) {
  if (!r.kernel.empty()) return withPrecision(kernelGraph(r.kernel, r.dims), r.precision);
  LoadOptions lo;
  lo.mode = r.mode;
  lo.precision = r.precision;
  auto dim = [&](const char* d) {
    auto it = r.dims.find(d);
    return it == r.dims.end() ? 0 : static_cast<int>(it->second);
  };
  lo.zoo.batch = dim("batch");
  lo.zoo.seqLen = dim("seq_len");
  lo.zoo.layers = dim("layers");
  lo.zoo.hidden = dim("hidden");
  return loadModel(r.model, lo);
}

Cluster rowCluster(const PublishedRow& r, const FidelityOptions& o) {
  Cluster c = loadCluster(r.cluster);
  if (o.profiled != nullptr && o.profiled->numDevices() >= c.numDevices()) {
    const std::string& kind = c.device(0).kind;
    for (int d = 0; d < o.profiled->numDevices(); ++d)
      if (sameDeviceKind(o.profiled->device(d).kind, kind)) {
        c = *o.profiled;
        break;
      }
  }
  c.setFramework(frameworkPreset(r.framework, "framework"));
  return c;
}

// A parallel run's per-GPU figure <-> seconds per step (the map is its own inverse):
// tokens/s/GPU = global batch x sequence / (step x GPUs), TFLOP/s/GPU = FLOPs / (step x GPUs).
double parallelStepSeconds(const PublishedRow& r, double v) {
  const ParallelRun& run = *r.parallel;
  const double perStep = r.unitKind == UnitKind::TokensPerGpu
                             ? static_cast<double>(run.globalBatch) * static_cast<double>(run.seqLen)
                             : run.flopsPerStep / 1e12;
  return perStep / (v * run.plan.devicesUsed());
}

// Published figures turned into seconds per step (OOM = infinity), to order a table.
double stepSeconds(const PublishedRow& r, std::optional<double> v) {
  if (!v) return std::numeric_limits<double>::infinity();
  switch (r.unitKind) {
    case UnitKind::Milliseconds: return *v * 1e-3;
    case UnitKind::Seconds: return *v;
    case UnitKind::Throughput: break;
    case UnitKind::TokensPerGpu:
    case UnitKind::TflopsPerGpu: return parallelStepSeconds(r, *v);
  }
  return r.itemsPerStep / *v;
}

double inUnit(const PublishedRow& r, double stepTime) {
  switch (r.unitKind) {
    case UnitKind::Milliseconds: return stepTime * 1e3;
    case UnitKind::Seconds: return stepTime;
    case UnitKind::Throughput: break;
    case UnitKind::TokensPerGpu:
    case UnitKind::TflopsPerGpu: return parallelStepSeconds(r, stepTime);  // the same map both ways
  }
  return r.itemsPerStep / stepTime;
}

// A parallel run: one step of its plan on its LLM, simulated.
void simulateParallelRow(const PublishedRow& r, const Cluster& c, const FidelityOptions& o, FidelityRow& out) {
  const ParallelRun& run = *r.parallel;
  ParallelLoad load;
  load.precision = r.precision;
  load.model.zoo.seqLen = static_cast<int>(run.seqLen);
  load.calibration = o.calibration;
  load.globalBatch = run.globalBatch;
  const auto task = loadParallelTask(r.model, c, load);
  const LayerStack& st = task->stack;
  const StageCostModel& model = task->model;
  ParallelPlan plan = run.plan;
  plan.stages = evenStages(st.numLayers(), plan.chunks(), run.recompute);
  if (std::string why = parallelPlanProblem(st, c, run.globalBatch, plan); !why.empty()) throw Error(r.file, why);
  const ParallelMeasurement m = simulateParallel(model, run.globalBatch, plan);
  // The caching allocator's peak, as the sources print it: the tensors and cuBLAS's workspaces
  // allocated, or the segments reserved for them (caching_allocator.h) where the source prints
  // the reserved peak (NCCL's buffers are allocated beside it); the last stage's where the source
  // logs the last rank.
  auto allocated = [&](const StageMemory& s) {
    return (run.peakMemoryReserved ? s.reserved : static_cast<double>(s.tensors()) + s.runtime.workspaces) / (1u << 30);
  };
  if (run.peakMemoryLastRank && !m.memory.empty())
    out.simulatedPeakGiB = allocated(m.memory.back());
  else
    for (const StageMemory& s : m.memory) out.simulatedPeakGiB = std::max(out.simulatedPeakGiB, allocated(s));
  out.plan = plan;
  out.verdict = memoryVerdict(m);
  out.stepTime = m.stepTime, out.breakdown = m.breakdown;
  if (m.feasible)
    out.simulated = inUnit(r, m.stepTime);
  else
    out.simulatedProblem = m.problem;
  if (run.peakMemoryGiB) out.memoryRatio = out.simulatedPeakGiB / *run.peakMemoryGiB;
  if (o.searchSeconds > 0 && m.feasible) {
    ParallelSearchOptions so;
    so.budgetSeconds = o.searchSeconds;
    so.fixed = FixedKnobs::of(plan);
    const ParallelResult best = exactSearch(model, run.globalBatch, so);
    SearchedPlan s;
    s.found = best.found && best.measurement.feasible;
    s.complete = best.complete;
    s.searchSeconds = best.searchSeconds;
    if (s.found) {
      s.plan = best.plan;
      s.stepTime = best.measurement.stepTime;
      s.speedup = m.stepTime / s.stepTime;
      s.changes = planChanges(plan, best.plan, run.globalBatch);
    }
    out.searched = s;
  }
}

// A kernel or a model: its placement on the row's cluster, one step simulated.
void simulateGraphRow(const PublishedRow& r, const Cluster& c, const FidelityOptions& o, FidelityRow& out) {
  const Graph g = workloadGraph(r);
  const CostModel cost(g, c, {}, o.calibration);
  Simulator sim(cost);
  PlacementResult p = runPlacement(r.placement, cost, sim);
  Measurement m = p.measurement;
  if (c.framework().fusesElementwise) {  // compiled: the compiler's elementwise fusion
    p.plan.fusionGroup = defaultFusion(g, p.plan.device);
    m = sim.run(p.plan, false);
  }
  if (m.feasible)
    out.simulated = inUnit(r, m.stepTime);
  else
    out.simulatedProblem = m.problem;
}

FidelityRow simulateRow(const PublishedRow& r, const FidelityOptions& o) {
  FidelityRow out;
  out.row = r;
  try {
    const Cluster c = rowCluster(r, o);
    out.clusterUsed = c.name();
    if (r.parallel)
      simulateParallelRow(r, c, o, out);
    else
      simulateGraphRow(r, c, o, out);
  } catch (const Error& e) {
    throw Error(r.file, "row '" + r.name + "': " + (e.source() == r.file ? e.problem() : std::string(e.what())));
  }
  if (out.simulated && r.published) {
    out.ratio = *out.simulated / *r.published;
    out.counted = !r.orderOnly;
  }
  return out;
}

// "1.57 s", "out of memory"
std::string stepText(double seconds) {
  if (std::isinf(seconds)) return "out of memory";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", seconds);
  return buf;
}

// A row's time per item for ranking it in its table: seconds per step, per token for parallel
// runs (layouts of one sweep may run different global batches); infinity (out of memory) stays so.
double perItem(const PublishedRow& r, double seconds) {
  if (!r.parallel) return seconds;
  return seconds / (static_cast<double>(r.parallel->globalBatch) * static_cast<double>(r.parallel->seqLen));
}

double simulatedSeconds(const FidelityRow& f) {
  if (f.row.parallel) return f.stepTime > 0 ? f.stepTime : std::numeric_limits<double>::infinity();
  return stepSeconds(f.row, f.simulated);
}

bool calledOver(const FidelityRow& f) {
  return f.row.parallel ? f.verdict.fit == MemoryFit::Over : !f.simulated.has_value();
}

// Kendall's tau, the simulator's pick and its regret, and the out-of-memory calls of a table.
void rankOf(const std::vector<const FidelityRow*>& rows, TableOrder& t) {
  std::vector<double> published, simulated;
  double best = std::numeric_limits<double>::infinity();
  const FidelityRow* pick = nullptr;
  for (const FidelityRow* f : rows) {
    const PublishedRow& r = f->row;
    const double sim = perItem(r, simulatedSeconds(*f));
    if (r.published) {
      published.push_back(perItem(r, stepSeconds(r, r.published)));
      simulated.push_back(sim);
      best = std::min(best, published.back());
    }
    if (r.ranOutOfMemory()) {
      ++t.ranOutOfMemory;
      if (f->row.parallel ? f->verdict.fit != MemoryFit::Fits : !f->simulated) ++t.outOfMemoryCalled;
    } else if (calledOver(*f)) {
      ++t.ranCalledOver;
    }
    if (!calledOver(*f) && (pick == nullptr || sim < perItem(pick->row, simulatedSeconds(*pick)))) pick = f;
  }
  t.tau = kendallTau(published, simulated);
  if (pick == nullptr) return;
  t.pick = pick->row.name;
  t.pickRanOutOfMemory = pick->row.ranOutOfMemory();
  if (pick->row.published && std::isfinite(best))
    t.regret = perItem(pick->row, stepSeconds(pick->row, pick->row.published)) / best - 1;
}

TableOrder orderOf(const std::string& table, const std::vector<const FidelityRow*>& all) {
  TableOrder t;
  t.table = table;
  t.sweep = all.front()->row.parallel.has_value();
  t.split = all.front()->row.split;
  std::vector<const FidelityRow*> sorted;
  for (const FidelityRow* f : all)
    if (!f->row.ranWithoutFigure) sorted.push_back(f);
  auto published = [](const FidelityRow* f) { return perItem(f->row, stepSeconds(f->row, f->row.published)); };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const FidelityRow* a, const FidelityRow* b) { return published(a) < published(b); });
  for (const FidelityRow* r : sorted) t.rows.push_back(r->row.name);
  t.agrees = true;
  for (size_t i = 0; i < sorted.size() && t.agrees; ++i)
    for (size_t j = i + 1; j < sorted.size() && t.agrees; ++j) {
      const double pa = published(sorted[i]), pb = published(sorted[j]);
      if (std::isinf(pa) && std::isinf(pb)) continue;
      if (!std::isinf(pb) && pb < pa * kOrderTolerance) continue;  // a tie in the source
      // A parallel row over memory is out of memory for the order (its step is still simulated).
      auto simulated = [](const FidelityRow* f) {
        return calledOver(*f) ? std::numeric_limits<double>::infinity() : perItem(f->row, simulatedSeconds(*f));
      };
      const double sa = simulated(sorted[i]), sb = simulated(sorted[j]);
      if (!(sa * kSimulatedTolerance < sb)) {
        t.agrees = false;
        auto seconds = [](const FidelityRow* f, double perItemSeconds) {
          return std::isinf(perItemSeconds) ? perItemSeconds : perItemSeconds / perItem(f->row, 1.0);
        };
        t.disagreement = "'" + sorted[i]->row.name + "' " + stepText(seconds(sorted[i], pa)) + " and '" +
                         sorted[j]->row.name + "' " + stepText(seconds(sorted[j], pb)) + " published, " +
                         stepText(seconds(sorted[i], sa)) + " and " + stepText(seconds(sorted[j], sb)) + " simulated";
      }
    }
  rankOf(all, t);
  return t;
}

}  // namespace

bool sameDeviceKind(const std::string& a, const std::string& b) {
  auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  const std::string la = lower(a), lb = lower(b);
  return !la.empty() && !lb.empty() && (la.find(lb) != std::string::npos || lb.find(la) != std::string::npos);
}

SplitSummary summarize(const std::vector<const FidelityRow*>& rows) {
  SplitSummary s;
  std::vector<double> ratios, logs;
  for (const FidelityRow* r : rows) {
    if (r->row.orderOnly) continue;
    if (!r->simulated.has_value() != r->row.ranOutOfMemory()) ++s.unmatchedOom;
    if (!r->counted) continue;
    ratios.push_back(r->ratio);
    const double f = std::exp(std::abs(std::log(r->ratio)));
    logs.push_back(f);
    if (f > s.worstFactor) s.worstFactor = f, s.worstRow = r->row.name;
    if (f > 3) ++s.beyond3x;
  }
  s.rows = static_cast<int>(ratios.size());
  auto median = [](std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : std::sqrt(v[n / 2 - 1] * v[n / 2]);
  };
  s.medianRatio = median(ratios);
  s.medianFactor = median(logs);
  return s;
}

namespace {

double medianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool beyondShare(double ratio, double share) { return ratio > 1 + share || ratio < 1 / (1 + share); }

// The peak memory over all parallel rows, and the steps and peaks of each framework's rows.
void summarizeMemoryAndFrameworks(FidelityReport& rep) {
  std::vector<double> memory;
  std::map<TrainingFramework, std::vector<const FidelityRow*>> set, check;
  std::map<TrainingFramework, std::vector<double>> memoryOf;
  for (const FidelityRow& r : rep.rows) {
    if (!r.row.parallel) continue;
    const TrainingFramework f = r.row.parallel->plan.training.framework;
    (r.row.split == RowSplit::Set ? set : check)[f].push_back(&r);
    if (r.memoryRatio > 0) memory.push_back(r.memoryRatio), memoryOf[f].push_back(r.memoryRatio);
  }
  rep.memoryMedianRatio = medianOf(memory);
  for (double m : memory) rep.memoryBeyond25 += beyondShare(m, 0.25);
  for (TrainingFramework f : {TrainingFramework::Generic, TrainingFramework::Megatron, TrainingFramework::DeepSpeed,
                              TrainingFramework::Torchtitan}) {
    if (!set.count(f) && !check.count(f)) continue;
    FrameworkSummary s;
    s.framework = f;
    s.set = summarize(set[f]);
    s.check = summarize(check[f]);
    for (const FidelityRow* r : check[f])
      if (r->counted) s.checkWithin10 += !beyondShare(r->ratio, 0.10), s.checkBeyond30 += beyondShare(r->ratio, 0.30);
    s.memoryRows = static_cast<int>(memoryOf[f].size());
    s.memoryMedianRatio = medianOf(memoryOf[f]);
    for (double m : memoryOf[f]) s.memoryBeyond25 += beyondShare(m, 0.25);
    rep.frameworks.push_back(s);
  }
}

}  // namespace

FidelityReport runFidelity(const std::vector<PublishedRow>& rows, const FidelityOptions& options) {
  FidelityReport rep;
  rep.rows.reserve(rows.size());
  for (const PublishedRow& r : rows) {
    rep.rows.push_back(simulateRow(r, options));
    if (options.profiled != nullptr && rep.rows.back().clusterUsed == options.profiled->name()) ++rep.rowsOnProfiled;
  }
  std::vector<const FidelityRow*> set, check, parallelSet, parallelCheck;
  std::map<std::string, std::vector<const FidelityRow*>> tables;
  for (const FidelityRow& r : rep.rows) {
    const bool isSet = r.row.split == RowSplit::Set;
    if (r.row.parallel)
      (isSet ? parallelSet : parallelCheck).push_back(&r);
    else
      (isSet ? set : check).push_back(&r);
    if (!r.row.table.empty()) tables[r.row.table].push_back(&r);
    if (r.memoryRatio > 0) {
      ++rep.memoryRows;
      const double f = std::exp(std::abs(std::log(r.memoryRatio)));
      if (f > rep.memoryWorstFactor) rep.memoryWorstFactor = f, rep.memoryWorstRow = r.row.name;
    }
  }
  summarizeMemoryAndFrameworks(rep);
  rep.set = summarize(set);
  rep.check = summarize(check);
  rep.parallelSet = summarize(parallelSet);
  rep.parallelCheck = summarize(parallelCheck);
  for (const auto& [name, members] : tables)
    if (members.size() >= 2) rep.tables.push_back(orderOf(name, members));
  std::vector<const TableOrder*> sweepsSet, sweepsCheck;
  for (const TableOrder& t : rep.tables)
    if (t.sweep) (t.split == RowSplit::Set ? sweepsSet : sweepsCheck).push_back(&t);
  rep.sweepsSet = summarizeSweeps(sweepsSet);
  rep.sweepsCheck = summarizeSweeps(sweepsCheck);
  return rep;
}

std::optional<double> kendallTau(const std::vector<double>& a, const std::vector<double>& b) {
  int64_t concordant = 0, discordant = 0, tiedA = 0, tiedB = 0, pairs = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    for (size_t j = i + 1; j < a.size() && j < b.size(); ++j) {
      ++pairs;
      const int sa = (a[i] < a[j]) - (a[i] > a[j]), sb = (b[i] < b[j]) - (b[i] > b[j]);
      if (sa == 0) ++tiedA;
      if (sb == 0) ++tiedB;
      if (sa != 0 && sb != 0) (sa == sb ? concordant : discordant) += 1;
    }
  const double denominator = std::sqrt(static_cast<double>(pairs - tiedA) * static_cast<double>(pairs - tiedB));
  if (denominator <= 0) return std::nullopt;
  return static_cast<double>(concordant - discordant) / denominator;
}

SweepSummary summarizeSweeps(const std::vector<const TableOrder*>& sweeps) {
  SweepSummary s;
  std::vector<double> taus;
  double regret = 0;
  for (const TableOrder* t : sweeps) {
    ++s.sweeps;
    if (t->tau) taus.push_back(*t->tau);
    if (t->regret) ++s.withRegret, regret += *t->regret;
    s.picksOutOfMemory += t->pickRanOutOfMemory ? 1 : 0;
    s.ranOutOfMemory += t->ranOutOfMemory;
    s.outOfMemoryCalled += t->outOfMemoryCalled;
    s.ranCalledOver += t->ranCalledOver;
  }
  s.ranked = static_cast<int>(taus.size());
  if (!taus.empty()) {
    std::sort(taus.begin(), taus.end());
    const size_t n = taus.size();
    s.medianTau = n % 2 ? taus[n / 2] : (taus[n / 2 - 1] + taus[n / 2]) / 2;
  }
  if (s.withRegret > 0) s.meanRegret = regret / s.withRegret;
  return s;
}

}  // namespace gp
