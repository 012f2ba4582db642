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
  LoadOptions lo;
  lo.mode = GraphMode::Inference;  // the forward graph: backward and updates are costed per layer
  lo.precision = r.precision;
  lo.zoo.batch = 1;
  lo.zoo.seqLen = static_cast<int>(run.seqLen);
  const Graph g = loadModel(r.model, lo);
  const LayerStack st = detectLayerStack(g, r.model, 1);
  const CostModel cost(g, c, {}, o.calibration);
  const StageCostModel model(st, cost);
  ParallelPlan plan = run.plan;
  plan.stages = evenStages(st.numLayers(), plan.chunks(), run.recompute);
  if (std::string why = parallelPlanProblem(st, c, run.globalBatch, plan); !why.empty()) throw Error(r.file, why);
  const ParallelMeasurement m = simulateParallel(model, run.globalBatch, plan);
  // The caching allocator's peak, as the sources print it: the tensors and cuBLAS's workspaces
  // (NCCL's buffers are allocated beside it).
  for (const StageMemory& s : m.memory)
    out.simulatedPeakGiB = std::max(out.simulatedPeakGiB, (static_cast<double>(s.tensors()) + s.runtime.workspaces) / (1u << 30));
  out.plan = plan;
  if (m.feasible)
    out.simulated = inUnit(r, m.stepTime), out.stepTime = m.stepTime, out.breakdown = m.breakdown;
  else
    out.simulatedProblem = m.problem;
  if (run.peakMemoryGiB) out.memoryRatio = out.simulatedPeakGiB / *run.peakMemoryGiB;
  if (o.searchSeconds > 0 && m.feasible) {
    ParallelSearchOptions so;
    so.budgetSeconds = o.searchSeconds;
    so.fixed = {plan.attention, plan.fp8};
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

TableOrder orderOf(const std::string& table, const std::vector<const FidelityRow*>& rows) {
  TableOrder t;
  t.table = table;
  std::vector<const FidelityRow*> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const FidelityRow* a, const FidelityRow* b) {
    return stepSeconds(a->row, a->row.published) < stepSeconds(b->row, b->row.published);
  });
  for (const FidelityRow* r : sorted) t.rows.push_back(r->row.name);
  t.agrees = true;
  for (size_t i = 0; i < sorted.size() && t.agrees; ++i)
    for (size_t j = i + 1; j < sorted.size() && t.agrees; ++j) {
      const double pa = stepSeconds(sorted[i]->row, sorted[i]->row.published);
      const double pb = stepSeconds(sorted[j]->row, sorted[j]->row.published);
      if (std::isinf(pa) && std::isinf(pb)) continue;
      if (!std::isinf(pb) && pb < pa * kOrderTolerance) continue;  // a tie in the source
      const double sa = stepSeconds(sorted[i]->row, sorted[i]->simulated);
      const double sb = stepSeconds(sorted[j]->row, sorted[j]->simulated);
      if (!(sa * kSimulatedTolerance < sb)) {
        t.agrees = false;
        t.disagreement = "'" + sorted[i]->row.name + "' " + stepText(pa) + " and '" + sorted[j]->row.name + "' " +
                         stepText(pb) + " published, " + stepText(sa) + " and " + stepText(sb) + " simulated";
      }
    }
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
    if (r->simulated.has_value() != r->row.published.has_value()) ++s.unmatchedOom;
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
  rep.set = summarize(set);
  rep.check = summarize(check);
  rep.parallelSet = summarize(parallelSet);
  rep.parallelCheck = summarize(parallelCheck);
  for (const auto& [name, members] : tables)
    if (members.size() >= 2) rep.tables.push_back(orderOf(name, members));
  return rep;
}

}  // namespace gp
