#include "io/torch_split.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <tuple>

namespace gp {

std::string torchScopeKey(const std::string& opName, TorchNames names) {
  const size_t slash = opName.rfind('/');
  if (slash == std::string::npos || slash == 0) return "";
  std::string scope = opName.substr(0, slash);
  if (names == TorchNames::OnnxExport) return scope;
  if (scope == "forward") return "";
  std::replace(scope.begin(), scope.end(), '/', '.');
  return scope;
}

namespace {

std::string parentKey(const std::string& key, TorchNames names) {
  const size_t cut = key.rfind(names == TorchNames::OnnxExport ? '/' : '.');
  return cut == std::string::npos || cut == 0 ? std::string() : key.substr(0, cut);
}

std::string deviceName(std::span<const std::string> names, int32_t d) {
  return d >= 0 && d < static_cast<int32_t>(names.size()) ? names[d] : "device " + std::to_string(d);
}

// Forward ops in plan order: Kahn's algorithm, the earliest simulated start first.
std::vector<OpId> forwardPlanOrder(const Graph& g, std::span<const double> opStart) {
  const int32_t n = g.numOps();
  std::vector<int32_t> topoIndex(n), waiting(n, 0);
  for (int32_t i = 0; i < n; ++i) topoIndex[g.topoOrder()[i]] = i;
  using Key = std::tuple<double, int32_t, OpId>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  auto startOf = [&](OpId o) { return opStart.empty() ? 0.0 : opStart[o]; };
  for (OpId o = 0; o < n; ++o) {
    if (g.role(o) != OpRole::Forward) continue;
    for (OpId p : g.fanIn(o))
      if (g.role(p) == OpRole::Forward) ++waiting[o];
    if (waiting[o] == 0) ready.emplace(startOf(o), topoIndex[o], o);
  }
  std::vector<OpId> order;
  while (!ready.empty()) {
    const OpId o = std::get<2>(ready.top());
    ready.pop();
    order.push_back(o);
    for (OpId c : g.fanOut(o))
      if (g.role(c) == OpRole::Forward && --waiting[c] == 0) ready.emplace(startOf(c), topoIndex[c], c);
  }
  return order;
}

// An op that only passes weights or constants along (torch.onnx's Identity of a shared
// initializer, a Constant): it costs nothing and runs wherever PyTorch keeps the weight.
bool weightPlumbing(const Graph& g, OpId o) {
  if (g.flops(o) > 0) return false;
  for (TensorId t : g.inputs(o))
    if (g.tensorKind(t) != TensorKind::Parameter) return false;
  return true;
}

struct PartitionGraph {
  std::vector<int32_t> device;
  std::vector<std::vector<int32_t>> succ;
  std::vector<std::vector<std::pair<OpId, OpId>>> edgeOps;  // per succ entry: a producer and its consumer

  int32_t add(int32_t d) {
    device.push_back(d);
    succ.emplace_back();
    edgeOps.emplace_back();
    return static_cast<int32_t>(device.size()) - 1;
  }
  void link(int32_t from, int32_t to, OpId producer, OpId consumer) {
    if (std::find(succ[from].begin(), succ[from].end(), to) != succ[from].end()) return;
    succ[from].push_back(to);
    edgeOps[from].emplace_back(producer, consumer);
  }
  // A path from `from` to any partition in `targets`, as (partition, index into succ) steps;
  // empty if none is reachable.
  std::vector<std::pair<int32_t, size_t>> pathTo(int32_t from, const std::set<int32_t>& targets) const {
    std::vector<std::pair<int32_t, size_t>> via(device.size(), {-1, 0});
    std::vector<char> seen(device.size(), 0);
    std::queue<int32_t> q;
    q.push(from);
    seen[from] = 1;
    while (!q.empty()) {
      const int32_t p = q.front();
      q.pop();
      for (size_t i = 0; i < succ[p].size(); ++i) {
        const int32_t s = succ[p][i];
        if (seen[s]) continue;
        seen[s] = 1;
        via[s] = {p, i};
        if (targets.count(s)) {
          std::vector<std::pair<int32_t, size_t>> path;
          for (int32_t at = s; at != from; at = via[at].first) path.push_back(via[at]);
          std::reverse(path.begin(), path.end());
          return path;
        }
        q.push(s);
      }
    }
    return {};
  }
};

constexpr int kCyclesListed = 5;

// Partitions in a topological order: Kahn's algorithm, earliest created first.
std::vector<int32_t> topologicalNumbering(const PartitionGraph& pg) {
  const size_t n = pg.device.size();
  std::vector<int32_t> indegree(n, 0), number(n, -1);
  for (const auto& s : pg.succ)
    for (int32_t t : s) ++indegree[t];
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<>> ready;
  for (size_t p = 0; p < n; ++p)
    if (indegree[p] == 0) ready.push(static_cast<int32_t>(p));
  int32_t next = 0;
  while (!ready.empty()) {
    const int32_t p = ready.top();
    ready.pop();
    number[p] = next++;
    for (int32_t t : pg.succ[p])
      if (--indegree[t] == 0) ready.push(t);
  }
  return number;
}

void assignPartitions(const Graph& g, const Plan& plan, std::span<const double> opStart,
                      std::span<const std::string> deviceNames, TorchSplit& out) {
  PartitionGraph pg;
  std::vector<int32_t> part(g.numOps(), -1);
  std::map<int32_t, int32_t> open;  // device -> its latest partition
  for (OpId o : forwardPlanOrder(g, opStart)) {
    if (weightPlumbing(g, o)) continue;  // no op of its own in PyTorch: the weight stays with its module
    const int32_t d = plan.device[o];
    std::set<int32_t> inputs;
    for (OpId p : g.fanIn(o))
      if (part[p] >= 0) inputs.insert(part[p]);
    auto it = open.find(d);
    int32_t target = it == open.end() ? -1 : it->second;
    if (target >= 0) {
      std::set<int32_t> others = inputs;
      others.erase(target);
      const auto path = others.empty() ? decltype(pg.pathTo(0, others)){} : pg.pathTo(target, others);
      if (!path.empty()) {  // joining would close a cycle: open another partition on d
        ++out.cyclesFound;
        if (out.cycles.size() < kCyclesListed) {
          std::string devices = deviceName(deviceNames, d), ops;
          for (const auto& [from, i] : path) {
            const auto [producer, consumer] = pg.edgeOps[from][i];
            devices += " -> " + deviceName(deviceNames, pg.device[pg.succ[from][i]]);
            ops += "'" + g.opName(producer) + "' (" + deviceName(deviceNames, plan.device[producer]) + ") feeds '" +
                   g.opName(consumer) + "' (" + deviceName(deviceNames, plan.device[consumer]) + "); ";
          }
          const int32_t last = pg.succ[path.back().first][path.back().second];
          OpId feeder = kNone;
          for (OpId p : g.fanIn(o))
            if (part[p] == last) feeder = p;
          devices += " -> " + deviceName(deviceNames, d);
          ops += "'" + g.opName(feeder) + "' (" + deviceName(deviceNames, plan.device[feeder]) + ") feeds '" +
                 g.opName(o) + "' (" + deviceName(deviceNames, d) + ")";
          out.cycles.push_back(devices + ": " + ops);
        }
        target = -1;
      }
    }
    if (target < 0) open[d] = target = pg.add(d);
    part[o] = target;
    for (OpId p : g.fanIn(o))
      if (part[p] >= 0 && part[p] != target) pg.link(part[p], target, p, o);
  }
  const std::vector<int32_t> number = topologicalNumbering(pg);
  out.partitionDevice.assign(pg.device.size(), -1);
  for (size_t p = 0; p < pg.device.size(); ++p) out.partitionDevice[number[p]] = pg.device[p];
  out.partitionOf.assign(g.numOps(), -1);
  for (OpId o = 0; o < g.numOps(); ++o)
    if (part[o] >= 0) out.partitionOf[o] = number[part[o]];
}

struct ScopeNode {
  std::vector<OpId> own;
  std::set<int32_t> devices;  // over the whole subtree
  std::vector<std::string> children;
};

// Why the placement does not follow the module tree, or "" when it does.
std::string alignmentProblem(const Graph& g, const Plan& plan, const std::map<std::string, ScopeNode>& tree,
                             std::span<const std::string> deviceNames) {
  for (const auto& [key, node] : tree) {
    if (node.devices.size() < 2) continue;
    const std::string where = key.empty() ? "the model itself" : "module '" + key + "'";
    for (OpId o : node.own) {
      std::set<int32_t> from;
      bool readsParameters = false;
      for (TensorId t : g.inputs(o)) {
        if (g.tensorKind(t) == TensorKind::Parameter) readsParameters = true;
        const OpId p = g.producer(t);
        if (p != kNone && !weightPlumbing(g, p) && g.role(p) == OpRole::Forward) from.insert(plan.device[p]);
      }
      const std::string op = "'" + g.opName(o) + "' (" + where + ", whose ops span several devices)";
      if (from.size() > 1)
        return op + " reads tensors from " + deviceName(deviceNames, *from.begin()) + " and " +
               deviceName(deviceNames, *std::next(from.begin()));
      if (g.flops(o) > 0 && readsParameters) return op + " uses weights of that module itself";
      if (g.flops(o) > 0 && !from.empty() && *from.begin() != plan.device[o])
        return op + " is placed on " + deviceName(deviceNames, plan.device[o]) + " but its inputs are on " +
               deviceName(deviceNames, *from.begin());
    }
  }
  return "";
}

void collectDeviceMap(const std::map<std::string, ScopeNode>& tree, const std::string& key,
                      std::vector<std::pair<std::string, int32_t>>& out) {
  const ScopeNode& node = tree.at(key);
  if (node.devices.size() == 1) {
    out.emplace_back(key, *node.devices.begin());
    return;
  }
  for (const std::string& child : node.children) collectDeviceMap(tree, child, out);
}

}  // namespace

TorchSplit splitForTorch(const Graph& g, const Plan& plan, std::span<const double> opStart, TorchNames names,
                         std::span<const std::string> deviceNames) {
  TorchSplit out;
  out.names = names;
  assignPartitions(g, plan, opStart, deviceNames, out);

  std::map<std::string, ScopeNode> tree;
  std::map<std::string, std::map<int32_t, double>> weights;
  for (OpId o = 0; o < g.numOps(); ++o) {
    if (out.partitionOf[o] < 0) continue;
    std::string key = torchScopeKey(g.opName(o), names);
    weights[key][out.partitionOf[o]] += g.flops(o) + 1;
    tree[key].own.push_back(o);
    for (;;) {
      tree[key].devices.insert(plan.device[o]);
      if (key.empty()) break;
      std::string parent = parentKey(key, names);
      auto& siblings = tree[parent].children;
      if (std::find(siblings.begin(), siblings.end(), key) == siblings.end()) siblings.push_back(key);
      key = std::move(parent);
    }
  }
  for (auto& [key, w] : weights) out.scopes.push_back({key, {w.begin(), w.end()}});
  if (tree.empty()) {
    out.notAligned = "the model has no forward ops";
    return out;
  }
  out.notAligned = alignmentProblem(g, plan, tree, deviceNames);
  out.moduleAligned = out.notAligned.empty();
  if (out.moduleAligned) collectDeviceMap(tree, "", out.deviceMap);
  return out;
}

}  // namespace gp
