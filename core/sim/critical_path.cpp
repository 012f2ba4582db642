// The critical path and slack of a simulated step: see critical_path.h.
#include "sim/critical_path.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <unordered_map>

#include "base/error.h"
#include "sim/kernels.h"

namespace gp {

namespace {

// The step as a graph: nodes 0..numOps-1 are kernels (node = the kernel's id, its first op;
// other op ids are unused), numOps.. are transfers in timeline order.
struct StepGraph {
  int32_t numOps = 0;
  std::vector<double> start, end;
  std::vector<uint8_t> ran;            // per node
  std::vector<int32_t> device;         // kernel: its device; transfer: its source
  std::vector<int32_t> tensor, dst;    // per transfer (index node - numOps)
  std::vector<int64_t> bytes;          // per transfer
  std::vector<int32_t> producerNode;   // per transfer: the kernel that made it, -1 for a parameter
  std::vector<int32_t> dataOff, data;  // CSR per node: its data predecessors
  std::vector<int32_t> prevOnDevice;   // per kernel node
  std::vector<int32_t> routeOff, routeChannel, prevOnChannel;  // CSR per transfer: channel and the transfer before on it
  bool isTransfer(int32_t v) const { return v >= numOps; }
  int32_t transferIndex(int32_t v) const { return v - numOps; }
};

int32_t homeDevice(const Graph& g, const Plan& plan, TensorId t) {
  if (g.tensorKind(t) == TensorKind::Parameter) return g.consumers(t).empty() ? -1 : plan.device[g.consumers(t)[0]];
  const OpId p = g.producer(t);
  return p == kNone ? -1 : plan.device[p];
}

StepGraph readStep(const CostModel& cost, const Plan& plan, const Measurement& m, const PlanKernels& kernels) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  const int32_t n = g.numOps();
  const int64_t nd = c.numDevices();
  StepGraph s;
  s.numOps = n;
  size_t transfers = 0;
  for (const TimelineEvent& e : m.timeline) transfers += e.kind == TimelineEvent::Kind::Transfer;
  const size_t nodes = static_cast<size_t>(n) + transfers;
  s.start.assign(nodes, 0);
  s.end.assign(nodes, 0);
  s.ran.assign(nodes, 0);
  s.device.assign(nodes, -1);
  std::unordered_map<int64_t, int32_t> transferOf;  // tensor * devices + dst -> node
  transferOf.reserve(transfers);
  auto badTimeline = [&](const std::string& why) { return Error(g.name(), "the timeline is not of this plan: " + why); };
  for (const TimelineEvent& e : m.timeline) {
    if (e.kind == TimelineEvent::Kind::Op) {
      if (e.id < 0 || e.id >= n) throw badTimeline("op " + std::to_string(e.id));
      const int32_t k = kernels.kernelOf(e.id);
      s.start[k] = e.start, s.end[k] = e.end, s.ran[k] = 1, s.device[k] = e.resource;
      continue;
    }
    if (e.id < 0 || e.id >= g.numTensors() || e.dst < 0 || e.dst >= nd) throw badTimeline("a transfer");
    const auto v = static_cast<int32_t>(n + s.tensor.size());
    s.start[v] = e.start, s.end[v] = e.end, s.ran[v] = 1, s.device[v] = homeDevice(g, plan, e.id);
    s.tensor.push_back(e.id);
    s.dst.push_back(e.dst);
    s.bytes.push_back(e.bytes);
    const OpId p = g.producer(e.id);
    s.producerNode.push_back(g.tensorKind(e.id) == TensorKind::Parameter || p == kNone ? -1 : kernels.kernelOf(p));
    transferOf[static_cast<int64_t>(e.id) * nd + e.dst] = v;
  }
  for (OpId op = 0; op < n; ++op)
    if (kernels.kernelOf(op) == op && !s.ran[op]) throw badTimeline("op " + g.opName(op) + " never ran");

  // data predecessors
  s.dataOff.assign(nodes + 1, 0);
  for (OpId k = 0; k < n; ++k) {
    s.dataOff[k + 1] = static_cast<int32_t>(s.data.size());
    if (kernels.kernelOf(k) != k) continue;
    const int32_t d = s.device[k];
    for (OpId op : kernels.ops(k))
      for (TensorId t : g.inputs(op)) {
        const TensorKind kind = g.tensorKind(t);
        const OpId p = g.producer(t);
        if (kind == TensorKind::GraphInput || (p != kNone && kernels.kernelOf(p) == k)) continue;
        int32_t from = -1;
        if (kind == TensorKind::Activation && p != kNone && plan.device[p] == d) {
          from = kernels.kernelOf(p);
        } else if (kind == TensorKind::Activation || homeDevice(g, plan, t) != d) {
          const auto it = transferOf.find(static_cast<int64_t>(t) * nd + d);
          if (it == transferOf.end()) throw badTimeline("tensor " + g.tensorName(t) + " never reached its reader");
          from = it->second;
        }
        if (from >= 0) s.data.push_back(from);
      }
    s.dataOff[k + 1] = static_cast<int32_t>(s.data.size());
  }
  for (size_t i = 0; i < transfers; ++i) {
    if (const int32_t p = s.producerNode[i]; p >= 0) s.data.push_back(p);
    s.dataOff[n + i + 1] = static_cast<int32_t>(s.data.size());
  }

  // the order on each device and on each channel: by start, then end, then node
  auto byTime = [&](int32_t a, int32_t b) {
    return s.start[a] != s.start[b] ? s.start[a] < s.start[b] : s.end[a] != s.end[b] ? s.end[a] < s.end[b] : a < b;
  };
  s.prevOnDevice.assign(static_cast<size_t>(n), -1);
  std::vector<std::vector<int32_t>> onDevice(static_cast<size_t>(nd));
  for (OpId k = 0; k < n; ++k)
    if (kernels.kernelOf(k) == k) onDevice[s.device[k]].push_back(k);
  for (auto& list : onDevice) {
    std::sort(list.begin(), list.end(), byTime);
    for (size_t i = 1; i < list.size(); ++i) s.prevOnDevice[list[i]] = list[i - 1];
  }
  s.routeOff.assign(transfers + 1, 0);
  std::vector<std::vector<int32_t>> onChannel(static_cast<size_t>(c.numChannels()));
  for (size_t i = 0; i < transfers; ++i) {
    for (int ch : c.route(s.device[n + i], s.dst[i])) {
      s.routeChannel.push_back(ch);
      onChannel[ch].push_back(static_cast<int32_t>(n + i));
    }
    s.routeOff[i + 1] = static_cast<int32_t>(s.routeChannel.size());
  }
  s.prevOnChannel.assign(s.routeChannel.size(), -1);
  for (int32_t ch = 0; ch < c.numChannels(); ++ch) {
    auto& list = onChannel[ch];
    std::sort(list.begin(), list.end(), byTime);
    for (size_t j = 1; j < list.size(); ++j) {
      const int32_t i = s.transferIndex(list[j]);
      int32_t slot = s.routeOff[i];  // this channel's place in the transfer's route
      while (s.routeChannel[slot] != ch) ++slot;
      s.prevOnChannel[slot] = list[j - 1];
    }
  }
  return s;
}

bool kernelMemoryBound(const CostModel& cost, const PlanKernels& kernels, int32_t k, int device,
                       KernelWorkScratch& scratch) {
  const Graph& g = cost.graph();
  if (!kernels.fused(k)) {
    if (cost.isMetadata(k) || cost.calibrated(k, device)) return false;
    return cost.memoryBound(cost.kernelFlops(k), g.bytesRead(k) + g.bytesWritten(k), k, device);
  }
  const KernelWork w = kernelWork(cost, kernels, k, scratch);
  return w.lead != kNone && cost.memoryBound(w.kernelFlops, w.bytesRead + w.bytesWritten, w.lead, device);
}

int32_t bottleneckChannel(const Cluster& c, const StepGraph& s, int32_t i) {
  int32_t best = -1;
  for (int32_t j = s.routeOff[i]; j < s.routeOff[i + 1]; ++j)
    if (best < 0 || c.channel(s.routeChannel[j]).bandwidth < c.channel(best).bandwidth) best = s.routeChannel[j];
  return best;
}

}  // namespace

double StepAnalysis::computeTime() const { return std::accumulate(computeByDevice.begin(), computeByDevice.end(), 0.0); }
double StepAnalysis::transferTime() const {
  return std::accumulate(transferByChannel.begin(), transferByChannel.end(), 0.0);
}

std::vector<PathDelta> pathDeltas(const StepAnalysis& before, const StepAnalysis& after) {
  std::vector<PathDelta> out;
  const double tol = 1e-9 * std::max(before.stepTime, after.stepTime);
  auto add = [&](PathDelta::Part part, const std::vector<double>& b, const std::vector<double>& a) {
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const double d = (i < a.size() ? a[i] : 0.0) - (i < b.size() ? b[i] : 0.0);
      if (std::abs(d) > tol) out.push_back({part, static_cast<int32_t>(i), d});
    }
  };
  add(PathDelta::Part::Compute, before.computeByDevice, after.computeByDevice);
  add(PathDelta::Part::Transfer, before.transferByChannel, after.transferByChannel);
  add(PathDelta::Part::Queued, before.queuedByDevice, after.queuedByDevice);
  add(PathDelta::Part::LinkBusy, before.linkBusyByChannel, after.linkBusyByChannel);
  std::stable_sort(out.begin(), out.end(),
                   [](const PathDelta& x, const PathDelta& y) { return std::abs(x.seconds) > std::abs(y.seconds); });
  return out;
}

std::string viaName(PathStep::Via via) {
  switch (via) {
    case PathStep::Via::Start: return "start";
    case PathStep::Via::Data: return "data";
    case PathStep::Via::DeviceQueue: return "queued on device";
    case PathStep::Via::LinkBusy: return "link busy";
  }
  return "?";
}

std::string stepPlace(const Cluster& c, const PathStep& s) {
  return s.kind == PathStep::Kind::Kernel ? c.device(s.device).name
                                          : c.device(s.device).name + "->" + c.device(s.dst).name;
}

std::string stepName(const Graph& g, const PathStep& s) {
  return s.kind == PathStep::Kind::Kernel ? g.opName(s.id) : g.tensorName(s.id);
}

StepAnalysis analyzeStep(const CostModel& cost, const Plan& plan, const Measurement& m) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  if (m.timeline.empty() && g.numOps() > 0)
    throw Error(g.name(), m.problem.empty() ? "the step has no timeline to explain (simulate it with the timeline)"
                                            : "the plan did not run: " + m.problem);
  PlanKernels kernels;
  kernels.form(plan, g.numOps());
  const StepGraph s = readStep(cost, plan, m, kernels);
  const int32_t n = s.numOps;
  const auto nodes = static_cast<int32_t>(s.start.size());
  const double tol = 1e-12 * std::max(m.stepTime, 1e-9);

  StepAnalysis a;
  a.stepTime = m.stepTime;
  a.computeByDevice.assign(static_cast<size_t>(c.numDevices()), 0.0);
  a.memoryBoundByDevice = a.queuedByDevice = a.computeByDevice;
  a.transferByChannel.assign(static_cast<size_t>(c.numChannels()), 0.0);
  a.linkBusyByChannel = a.transferByChannel;

  // ---- slack: latest finish over data and order edges, in reverse topological order ----
  std::vector<std::vector<int32_t>> succ(static_cast<size_t>(nodes));
  std::vector<int32_t> indegree(static_cast<size_t>(nodes), 0);
  auto edge = [&](int32_t from, int32_t to) {
    succ[from].push_back(to);
    ++indegree[to];
  };
  for (int32_t v = 0; v < nodes; ++v) {
    if (!s.ran[v]) continue;
    for (int32_t j = s.dataOff[v]; j < s.dataOff[v + 1]; ++j) edge(s.data[j], v);
    if (v < n && s.prevOnDevice[v] >= 0) edge(s.prevOnDevice[v], v);
    if (s.isTransfer(v))
      for (int32_t j = s.routeOff[s.transferIndex(v)]; j < s.routeOff[s.transferIndex(v) + 1]; ++j)
        if (s.prevOnChannel[j] >= 0) edge(s.prevOnChannel[j], v);
  }
  std::vector<int32_t> order;
  order.reserve(static_cast<size_t>(nodes));
  for (int32_t v = 0; v < nodes; ++v)
    if (s.ran[v] && indegree[v] == 0) order.push_back(v);
  for (size_t i = 0; i < order.size(); ++i)
    for (int32_t w : succ[order[i]])
      if (--indegree[w] == 0) order.push_back(w);
  std::vector<double> latestFinish(static_cast<size_t>(nodes), m.stepTime);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (int32_t w : succ[*it]) latestFinish[*it] = std::min(latestFinish[*it], latestFinish[w] - (s.end[w] - s.start[w]));
  a.opSlack.assign(static_cast<size_t>(g.numOps()), 0.0);
  for (OpId op = 0; op < g.numOps(); ++op) {
    const int32_t k = kernels.kernelOf(op);
    a.opSlack[op] = std::max(0.0, latestFinish[k] - s.end[k]);
  }

  // ---- the critical path, backwards from the last to finish ----
  int32_t v = -1;
  for (int32_t u = 0; u < nodes; ++u)
    if (s.ran[u] && (v < 0 || s.end[u] > s.end[v])) v = u;
  KernelWorkScratch scratch;
  while (v >= 0) {
    PathStep step;
    step.start = s.start[v], step.end = s.end[v];
    int32_t next = -1;
    double ready = 0;
    for (int32_t j = s.dataOff[v]; j < s.dataOff[v + 1]; ++j)
      if (next < 0 || s.end[s.data[j]] > ready) next = s.data[j], ready = s.end[s.data[j]];
    step.ready = ready;
    step.via = next >= 0 ? PathStep::Via::Data : PathStep::Via::Start;
    if (!s.isTransfer(v)) {
      step.kind = PathStep::Kind::Kernel;
      step.id = v;
      step.device = s.device[v];
      step.memoryBound = kernelMemoryBound(cost, kernels, v, step.device, scratch);
      if (ready < step.start - tol && s.prevOnDevice[v] >= 0) {
        next = s.prevOnDevice[v];
        step.via = PathStep::Via::DeviceQueue;
      }
      a.computeByDevice[step.device] += step.end - step.start;
      if (step.memoryBound) a.memoryBoundByDevice[step.device] += step.end - step.start;
    } else {
      const int32_t i = s.transferIndex(v);
      step.kind = PathStep::Kind::Transfer;
      step.id = s.tensor[i];
      step.device = s.device[v];
      step.dst = s.dst[i];
      step.bytes = s.bytes[i];
      step.channel = bottleneckChannel(c, s, i);
      if (ready < step.start - tol) {
        int32_t blocker = -1, slot = -1;
        for (int32_t j = s.routeOff[i]; j < s.routeOff[i + 1]; ++j)
          if (const int32_t p = s.prevOnChannel[j]; p >= 0 && (blocker < 0 || s.end[p] > s.end[blocker]))
            blocker = p, slot = j;
        if (blocker >= 0) {
          next = blocker;
          step.via = PathStep::Via::LinkBusy;
          step.waitedOn = s.routeChannel[slot];
        }
      }
      if (step.channel >= 0) a.transferByChannel[step.channel] += step.end - step.start;
    }
    a.path.push_back(step);
    if (step.via == PathStep::Via::Start || step.start <= 0) break;
    v = next;
  }
  std::reverse(a.path.begin(), a.path.end());
  // waits: the union of the waiting intervals per device and per channel (they can overlap)
  std::vector<std::vector<std::pair<double, double>>> queued(a.queuedByDevice.size()), busy(a.linkBusyByChannel.size());
  for (const PathStep& p : a.path)
    if (p.via == PathStep::Via::DeviceQueue) queued[p.device].emplace_back(p.ready, p.start);
    else if (p.via == PathStep::Via::LinkBusy) busy[p.waitedOn].emplace_back(p.ready, p.start);
  auto unionLength = [](std::vector<std::pair<double, double>>& spans) {
    std::sort(spans.begin(), spans.end());
    double total = 0, reach = -1;
    for (const auto& [from, to] : spans) {
      if (to <= reach) continue;
      total += to - std::max(from, reach);
      reach = to;
    }
    return total;
  };
  for (size_t d = 0; d < queued.size(); ++d) a.queuedByDevice[d] = unionLength(queued[d]);
  for (size_t ch = 0; ch < busy.size(); ++ch) a.linkBusyByChannel[ch] = unionLength(busy[ch]);
  return a;
}

}  // namespace gp
