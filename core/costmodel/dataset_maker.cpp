#include "costmodel/dataset_maker.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <random>
#include <set>

#include "base/error.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "cluster/cluster.h"
#include "costmodel/cpu_cluster.h"
#include "fusion/fuser.h"

namespace gp {
namespace {

// The cost model only decides op classes and representative kernels here; any device does.
const Cluster& anyCluster() {
  static const Cluster c = cpuCluster(nullptr, "");
  return c;
}

class Vocabulary {
 public:
  int32_t operator()(std::string_view name) {
    auto [it, added] = index_.try_emplace(std::string(name), static_cast<int32_t>(names_.size()));
    if (added) names_.emplace_back(name);
    return it->second;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::map<std::string, int32_t, std::less<>> index_;
  std::vector<std::string> names_;
};

// The kernel's own FLOPs and bytes (what ran: a clamped kernel does less than its op).
void appendAnalytic(const CostModel& cost, OpId op, const KernelSpec& k, CostGraph& g) {
  const Graph& graph = cost.graph();
  g.nodeFlops.push_back(k.flops);
  g.nodeBytes.push_back(static_cast<double>(k.bytes));
  g.nodeClass.push_back(static_cast<int8_t>(cost.opClass(op)));
  g.nodeSignature.push_back(CalibrationTable::signature(graph, op, cost.opDType(op), ""));
}

void keep(const std::vector<RunTiming>& t, CostGraph& g) {
  for (const RunTiming& r : t) {
    g.runtime.push_back(std::max(r.seconds, 1e-9));
    g.spread.push_back(r.spread);
  }
}

// One kernel graph: `ops` (one op, or a fused group's ops in topological order) run back to
// back under each of `configs`; `runs` gets what each configuration runs.
CostGraph kernelCostGraph(const DatasetModel& m, const CostModel& cost, const std::vector<OpId>& ops,
                          const std::vector<KernelConfig>& configs, Vocabulary& vocab, std::vector<KernelRun>& runs) {
  const Graph& g = *m.graph;
  const bool fused = ops.size() > 1;
  CostGraph cg;
  // op names of zoo models start with the model's name already
  const std::string& first = g.opName(ops.front());
  cg.name = (first.rfind(m.name + "/", 0) == 0 ? first : m.name + "/" + first) + (fused ? " (fused)" : "");
  cg.family = m.family;
  std::vector<KernelSpec> specs;
  std::map<OpId, int32_t> nodeOf;
  for (OpId op : ops) {
    nodeOf[op] = static_cast<int32_t>(cg.opcode.size());
    specs.push_back(kernelSpecOf(cost, op));
    cg.opcode.push_back(vocab(g.opType(op)));
    appendNodeFeatures(specs.back(), fused, cg.nodeFeatures);
    appendAnalytic(cost, op, specs.back(), cg);
  }
  for (OpId op : ops)
    for (OpId p : g.fanIn(op))
      if (auto it = nodeOf.find(p); it != nodeOf.end()) cg.edges.push_back({it->second, nodeOf[op]});
  for (const KernelConfig& c : configs) {
    KernelRun run;
    run.threads = c.threads;
    for (const KernelSpec& k : specs)
      if (k.kind != KernelSpec::Kind::None) run.calls.push_back({k, c.layout, c.tiles});
    runs.push_back(std::move(run));
    appendConfigFeatures(c, false, cg.configFeatures);
    cg.threads.push_back(c.threads);
  }
  return cg;
}

// The kernel graph of `ops` measured under every kernelConfigs() configuration.
void kernelGraph(const DatasetModel& m, const CostModel& cost, const std::vector<OpId>& ops, MeasurementSource& source,
                 const DatasetMakeOptions& o, Vocabulary& vocab, CostDataset& out) {
  std::vector<KernelRun> runs;
  CostGraph cg = kernelCostGraph(m, cost, ops, kernelConfigs(source.threadChoices()), vocab, runs);
  keep(source.time(runs, o.repeats), cg);
  out.graphs.push_back(std::move(cg));
}

// The distinct kernels of a model: single ops (the first of each signature) and the groups the
// compilers' default fusion forms (the first of each sequence of signatures).
std::vector<std::vector<OpId>> distinctKernels(const CostModel& cost) {
  const Graph& g = cost.graph();
  auto runs = [&](OpId op) { return !cost.isMetadata(op) && kernelSpecOf(cost, op).kind != KernelSpec::Kind::None; };
  auto sig = [&](OpId op) { return CalibrationTable::signature(g, op, cost.opDType(op), ""); };
  std::vector<std::vector<OpId>> out;
  std::set<std::string> seen;
  for (OpId op : g.topoOrder())
    if (runs(op) && seen.insert(sig(op)).second) out.push_back({op});
  const auto groups = defaultFusion(g, std::vector<int32_t>(static_cast<size_t>(g.numOps()), 0));
  std::map<int32_t, std::vector<OpId>> members;
  for (OpId op : g.topoOrder())
    if (groups[static_cast<size_t>(op)] >= 0) members[groups[static_cast<size_t>(op)]].push_back(op);
  for (const auto& [id, ops] : members) {
    int kernels = 0;
    std::string key;
    for (OpId op : ops) {
      kernels += runs(op) ? 1 : 0;
      key += sig(op) + ";";
    }
    if (kernels >= 2 && seen.insert(key).second) out.push_back(ops);
  }
  return out;
}

void kernelGraphs(const DatasetModel& m, const CostModel& cost, MeasurementSource& source, const DatasetMakeOptions& o,
                  Vocabulary& vocab, CostDataset& out, const DatasetProgressFn& progress) {
  std::vector<std::vector<OpId>> chosen = distinctKernels(cost);
  if (o.maxKernelsPerModel > 0 && static_cast<int>(chosen.size()) > o.maxKernelsPerModel) {
    std::vector<std::vector<OpId>> spaced;  // evenly spaced, first and last included
    const auto n = static_cast<double>(chosen.size() - 1);
    size_t last = chosen.size();
    for (int i = 0; i < o.maxKernelsPerModel; ++i) {
      const auto at = static_cast<size_t>(std::llround(n * i / std::max(1, o.maxKernelsPerModel - 1)));
      if (at != last) spaced.push_back(chosen[at]);
      last = at;
    }
    chosen = std::move(spaced);
  }
  for (size_t i = 0; i < chosen.size(); ++i) {
    kernelGraph(m, cost, chosen[i], source, o, vocab, out);
    if (progress) progress({m.name, "kernels", static_cast<int64_t>(i + 1), static_cast<int64_t>(chosen.size())});
  }
}

// The plan-task graph of a model (nodes, edges, configurable nodes; no runtimes) and the runs
// of its candidate plans: all canonical, all alternative, then `count` random ones.
bool planCandidates(const DatasetModel& m, const CostModel& cost, int32_t threads, int count, uint64_t seed,
                    Vocabulary& vocab, CostGraph& cg, std::vector<KernelRun>& runs,
                    std::vector<std::vector<OpId>>* callOps = nullptr) {
  const Graph& g = *m.graph;
  const PlanLayout layout = planLayoutOf(cost);
  if (layout.configurable.empty()) return false;
  cg.name = m.name;
  cg.family = m.family;
  std::vector<int32_t> nodeOf(static_cast<size_t>(g.numOps()), -1);
  for (size_t i = 0; i < layout.nodes.size(); ++i) nodeOf[layout.nodes[i]] = static_cast<int32_t>(i);
  for (size_t i = 0; i < layout.nodes.size(); ++i) {
    const OpId op = layout.nodes[i];
    cg.opcode.push_back(vocab(g.opType(op)));
    appendNodeFeatures(layout.kernels[i], false, cg.nodeFeatures);
    appendAnalytic(cost, op, layout.kernels[i], cg);
    for (OpId p : g.fanIn(op))
      if (nodeOf[p] >= 0) cg.edges.push_back({nodeOf[p], static_cast<int32_t>(i)});
  }
  cg.configNodes = layout.configurable;
  std::mt19937_64 rng(seed ^ std::hash<std::string>{}(m.name));
  std::vector<std::vector<KernelConfig>> plans;
  const size_t nc = layout.configurable.size();
  plans.emplace_back(nc, KernelConfig{threads, 0, 1});
  plans.emplace_back(nc, KernelConfig{threads, 1, 1});
  for (int p = 0; p < count; ++p) {
    std::vector<KernelConfig> c(nc);
    // each plan has its own mix: a share q of the nodes in the other layout
    const double q = std::uniform_real_distribution<double>(0, 1)(rng);
    for (auto& k : c) {
      k.threads = threads;
      k.layout = std::uniform_real_distribution<double>(0, 1)(rng) < q ? 1 : 0;
      k.tiles = std::uniform_real_distribution<double>(0, 1)(rng) < 0.25 ? 4 : 1;
    }
    plans.push_back(std::move(c));
  }
  for (const auto& plan : plans) {
    double bytes = 0;
    std::vector<OpId> ops;
    runs.push_back(planRun(cost, layout, plan, threads, &bytes, callOps ? &ops : nullptr));
    if (callOps) callOps->push_back(std::move(ops));
    cg.conversionBytes.push_back(bytes);
    cg.threads.push_back(threads);
    for (const KernelConfig& c : plan) appendConfigFeatures(c, true, cg.configFeatures);
  }
  return true;
}

int32_t mostThreads(const MeasurementSource& source) {
  const auto t = source.threadChoices();
  return t.empty() ? 1 : *std::max_element(t.begin(), t.end());
}

void planGraph(const DatasetModel& m, const CostModel& cost, MeasurementSource& source, const DatasetMakeOptions& o,
               Vocabulary& vocab, CostDataset& out, const DatasetProgressFn& progress) {
  CostGraph cg;
  std::vector<KernelRun> runs;
  if (!planCandidates(m, cost, mostThreads(source), o.planConfigs, o.seed, vocab, cg, runs)) return;
  if (progress) progress({m.name, "plans", 0, static_cast<int64_t>(runs.size())});
  keep(source.time(runs, o.repeats), cg);
  if (progress) progress({m.name, "plans", static_cast<int64_t>(runs.size()), static_cast<int64_t>(runs.size())});
  out.graphs.push_back(std::move(cg));
}

CostDataset header(CostTask task, const std::string& deviceKind, const DatasetMakeOptions& o) {
  CostDataset d;
  d.task = task;
  d.collection = "graphplace";
  d.deviceKind = deviceKind;
  d.nodeWidth = kNodeWidth;
  d.configWidth = kConfigWidth;
  d.repeats = o.repeats;
  d.noise = "median of " + std::to_string(o.repeats) +
            " timed runs after one warm-up, runs interleaved round-robin over the configurations of a kernel "
            "(plan task: of a model); spread = (max - min) / median";
  return d;
}

}  // namespace

std::string modelFamily(const std::string& spec) {
  std::string name = spec.rfind("zoo:", 0) == 0 ? spec.substr(4) : spec;
  if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (const auto cut = name.find_first_of("_."); cut != std::string::npos && cut > 0) name = name.substr(0, cut);
  size_t end = name.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
  if (end >= 3) name.resize(end);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

PlanLayout planLayoutOf(const CostModel& cost) {
  const Graph& g = cost.graph();
  PlanLayout l;
  for (OpId op : g.topoOrder()) {
    l.nodes.push_back(op);
    l.kernels.push_back(kernelSpecOf(cost, op));
    if (layoutConfigurable(l.kernels.back().kind)) l.configurable.push_back(static_cast<int32_t>(l.nodes.size() - 1));
  }
  return l;
}

KernelRun planRun(const CostModel& cost, const PlanLayout& layout, const std::vector<KernelConfig>& configs,
                  int32_t threads, double* conversionBytes, std::vector<OpId>* callOps) {
  const Graph& g = cost.graph();
  if (configs.size() != layout.configurable.size())
    throw Error("dataset", "a plan configures " + std::to_string(configs.size()) + " nodes, the model has " +
                               std::to_string(layout.configurable.size()));
  std::vector<int8_t> lay(static_cast<size_t>(g.numOps()), -1);
  std::vector<uint8_t> tiles(static_cast<size_t>(g.numOps()), 1);
  for (size_t i = 0; i < configs.size(); ++i) {
    const OpId op = layout.nodes[static_cast<size_t>(layout.configurable[i])];
    lay[op] = static_cast<int8_t>(configs[i].layout);
    tiles[op] = configs[i].tiles;
  }
  KernelRun run;
  run.threads = threads;
  double bytes = 0;
  std::set<std::pair<TensorId, int>> converted;
  for (size_t i = 0; i < layout.nodes.size(); ++i) {
    const OpId op = layout.nodes[i];
    if (lay[op] < 0) {  // no choice: the first producer's layout
      lay[op] = 0;
      for (TensorId t : g.inputs(op))
        if (const OpId p = g.producer(t); p != kNone && lay[p] >= 0) {
          lay[op] = lay[p];
          break;
        }
    }
    const KernelSpec& k = layout.kernels[i];
    if (k.kind == KernelSpec::Kind::None) continue;
    for (TensorId t : g.inputs(op)) {
      const OpId p = g.producer(t);
      if (p == kNone || lay[p] == lay[op] || !converted.insert({t, lay[op]}).second) continue;
      const int64_t elements = g.tensorBytes(t) / std::max(1, dtypeSize(g.dtype(t)));
      if (elements <= 1) continue;
      const KernelSpec conv = layoutConversion(elements);
      run.calls.push_back({conv, 1, 1});
      if (callOps) callOps->push_back(kNone);
      bytes += static_cast<double>(conv.bytes);
    }
    run.calls.push_back({k, static_cast<uint8_t>(lay[op]), tiles[op]});
    if (callOps) callOps->push_back(op);
  }
  if (conversionBytes) *conversionBytes = bytes;
  return run;
}

PlanCandidates makePlanCandidates(const DatasetModel& m, const MeasurementSource& source, int count, uint64_t seed) {
  const CostModel cost(*m.graph, anyCluster());
  PlanCandidates pc;
  pc.data = header(CostTask::Plan, source.deviceKind(), DatasetMakeOptions{});
  pc.data.repeats = 0;
  pc.data.noise = "not measured: candidate plans";
  Vocabulary vocab;
  CostGraph cg;
  if (!planCandidates(m, cost, mostThreads(source), count, seed, vocab, cg, pc.runs, &pc.callOps))
    throw Error(m.name, "the model has no op with a layout choice (GEMM, convolution, pooling, softmax, normalization)");
  cg.runtime.assign(pc.runs.size(), 1.0);  // placeholders until measured
  pc.data.graphs.push_back(std::move(cg));
  pc.data.opcodes = vocab.names();
  return pc;
}

KernelQueries kernelQueries(const CostModel& cost, const std::vector<OpId>& ops, int32_t threads,
                           const std::string& deviceKind) {
  const Graph& g = cost.graph();
  KernelQueries q;
  q.data = header(CostTask::Kernel, deviceKind, DatasetMakeOptions{});
  q.data.repeats = 0;
  q.data.noise = "not measured: kernels to predict";
  const DatasetModel m{"model", "", &g};
  Vocabulary vocab;
  std::map<std::string, size_t> graphOf;
  for (OpId op : ops) {
    if (cost.isMetadata(op) || kernelSpecOf(cost, op).kind == KernelSpec::Kind::None) continue;
    const auto [it, added] =
        graphOf.try_emplace(CalibrationTable::signature(g, op, cost.opDType(op), ""), q.ops.size());
    if (!added) {
      q.ops[it->second].push_back(op);
      continue;
    }
    std::vector<KernelRun> runs;
    CostGraph cg = kernelCostGraph(m, cost, {op}, {KernelConfig{threads, 0, 1}}, vocab, runs);
    cg.runtime.assign(1, 1.0);  // placeholder
    q.data.graphs.push_back(std::move(cg));
    q.ops.push_back({op});
  }
  q.data.opcodes = vocab.names();
  return q;
}

MadeDatasets makeCostDatasets(const std::vector<DatasetModel>& models, MeasurementSource& source,
                              const DatasetMakeOptions& options, const DatasetProgressFn& progress) {
  if (options.repeats < 1) throw Error("dataset", "repeats must be at least 1");
  MadeDatasets out;
  out.kernels = header(CostTask::Kernel, source.deviceKind(), options);
  out.plans = header(CostTask::Plan, source.deviceKind(), options);
  Vocabulary vocab;
  for (const DatasetModel& m : models) {
    const CostModel cost(*m.graph, anyCluster());
    if (options.kernels) kernelGraphs(m, cost, source, options, vocab, out.kernels, progress);
    if (options.plans) planGraph(m, cost, source, options, vocab, out.plans, progress);
  }
  out.kernels.opcodes = out.plans.opcodes = vocab.names();
  return out;
}

}  // namespace gp
