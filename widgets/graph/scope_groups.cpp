#include "graph/scope_groups.h"

#include <algorithm>
#include <array>
#include <climits>
#include <map>
#include <string_view>

namespace gp {
namespace {

using Kind = ScopeGroups::Kind;

constexpr size_t kWide = 4;  // a loose op with this many inputs (outputs) merges (spreads) groups

bool isShapeOp(std::string_view type) {
  static constexpr std::array<std::string_view, 17> kTypes = {
      "Constant", "ConstantOfShape", "Shape", "Size", "Gather", "Unsqueeze", "Squeeze", "Concat", "Reshape",
      "Slice",    "Cast",            "Range", "Expand", "Identity", "Where", "Equal", "NonZero"};
  return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
}

std::string_view lastComponent(std::string_view name) {
  const size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

class Grouper {
 public:
  Grouper(const Graph& g, const ScopeGroupOptions& opt, ScopeGroups& out) : g_(g), opt_(opt), out_(out) {}

  void run() {
    init();
    if (!opt_.enabled) return;
    std::vector<ScopeId> queue{0};
    for (size_t i = 0; i < queue.size(); ++i) {
      const ScopeId p = queue[i];
      groupCalls(p);
      foldLooseOps(p);
      foldRuns(p);
      queue.insert(queue.end(), out_.children[p].begin(), out_.children[p].end());
    }
  }

  std::vector<std::vector<OpId>> direct;  // per node: the ops shown directly in it

 private:
  void init() {
    const int32_t ns = std::max(1, g_.numScopes()), n = g_.numOps();
    out_.numGraphScopes = ns;
    out_.parent.assign(ns, kNone);
    out_.children.assign(ns, {});
    out_.kind.assign(ns, Kind::Scope);
    out_.label.assign(ns, {});
    out_.calls.assign(ns, 0);
    callIndex_.assign(ns, -1);
    direct.assign(ns, {});
    count_.assign(ns, 0);
    first_.assign(ns, INT32_MAX);
    for (ScopeId s = 1; s < g_.numScopes(); ++s) out_.parent[s] = g_.scopeParent(s);
    out_.opNode.resize(n);
    for (OpId op = 0; op < n; ++op) {
      const ScopeId s = g_.opScope(op);
      out_.opNode[op] = s;
      direct[s].push_back(op);
      for (ScopeId a = s; a != kNone; a = out_.parent[a]) {
        ++count_[a];
        first_[a] = std::min(first_[a], op);
      }
    }
    for (ScopeId s = 1; s < ns; ++s)
      if (out_.parent[s] != kNone) out_.children[out_.parent[s]].push_back(s);
    for (auto& kids : out_.children) sortByFirst(kids);
    pos_.assign(n, 0);
    const auto topo = g_.topoOrder();
    for (int32_t i = 0; i < static_cast<int32_t>(topo.size()); ++i) pos_[topo[i]] = i;
    target_.assign(n, kNone);
    loose_.assign(n, 0);
  }

  void sortByFirst(std::vector<ScopeId>& v) const {
    std::stable_sort(v.begin(), v.end(), [&](ScopeId a, ScopeId b) { return first_[a] < first_[b]; });
  }

  // Display order: the calls of a Calls group by call number (other children first), else by first op.
  void sortChildren(ScopeId p) {
    auto& v = out_.children[p];
    if (out_.kind[p] == Kind::Calls)
      std::stable_sort(v.begin(), v.end(), [&](ScopeId a, ScopeId b) { return callIndex_[a] < callIndex_[b]; });
    else
      sortByFirst(v);
  }

  ScopeId addNode(ScopeId parent, Kind kind, std::string label) {
    const auto id = static_cast<ScopeId>(out_.parent.size());
    out_.parent.push_back(parent);
    out_.children.emplace_back();
    out_.kind.push_back(kind);
    out_.label.push_back(std::move(label));
    out_.calls.push_back(0);
    callIndex_.push_back(-1);
    direct.emplace_back();
    count_.push_back(0);
    first_.push_back(INT32_MAX);
    return id;
  }

  std::string_view name(ScopeId s) const {
    return s < out_.numGraphScopes ? lastComponent(g_.scopeName(s)) : std::string_view(out_.label[s]);
  }

  int items(ScopeId p) const { return static_cast<int>(out_.children[p].size() + direct[p].size()); }

  // Moves op from its node into `to` (a child of that node).
  void moveOp(OpId op, ScopeId to) {
    out_.opNode[op] = to;
    direct[to].push_back(op);
    ++count_[to];
    first_[to] = std::min(first_[to], op);
  }

  // The child of `p` whose subtree holds `op`; `p` when op lies directly in p; kNone outside p.
  ScopeId childOf(ScopeId p, OpId op) const {
    ScopeId s = out_.opNode[op];
    if (s == p) return p;
    while (s != kNone && out_.parent[s] != p) s = out_.parent[s];
    return s;
  }

  // Sibling scopes `name`, `name_1`, … `name_N` -> one group `name` holding the calls in order.
  void groupCalls(ScopeId p) {
    const std::vector<ScopeId> kids = out_.children[p];  // a copy: addNode grows out_.children
    if (kids.size() < 2) return;
    const bool crowded = items(p) > opt_.maxItems;
    std::map<std::string_view, std::vector<std::pair<int32_t, ScopeId>>> families;
    for (ScopeId c : kids) {
      if (c >= out_.numGraphScopes) continue;
      std::string_view base;
      int32_t call = 0;
      splitCallSuffix(name(c), base, call);
      families[base].push_back({call, c});
    }
    bool changed = false;
    for (auto& [base, members] : families) {
      if (members.size() < 2) continue;
      const bool hasBase = std::any_of(members.begin(), members.end(), [](const auto& m) { return m.first == 0; });
      if (!hasBase || members.size() == kids.size()) continue;  // all of p: p already is that group
      int64_t ops = 0;
      for (const auto& m : members) ops += count_[m.second];
      const bool big = ops >= 2 * static_cast<int64_t>(members.size());
      if (!crowded && (static_cast<int>(members.size()) < opt_.minCalls || !big)) continue;
      std::sort(members.begin(), members.end());
      const ScopeId f = addNode(p, Kind::Calls, std::string(base));
      out_.calls[f] = static_cast<int32_t>(members.size());
      for (const auto& [call, c] : members) {
        out_.parent[c] = f;
        callIndex_[c] = call;
        out_.children[f].push_back(c);
        count_[f] += count_[c];
        first_[f] = std::min(first_[f], first_[c]);
      }
      changed = true;
    }
    if (!changed) return;
    std::vector<ScopeId>& now = out_.children[p];
    now.erase(std::remove_if(now.begin(), now.end(), [&](ScopeId c) { return out_.parent[c] != p; }), now.end());
    for (ScopeId s = out_.numGraphScopes; s < static_cast<ScopeId>(out_.parent.size()); ++s)
      if (out_.parent[s] == p && std::find(now.begin(), now.end(), s) == now.end()) now.push_back(s);
    sortByFirst(now);
  }

  // Many loose ops next to sub-scopes: each joins the sub-scope it feeds (the earliest consumer's),
  // else the one feeding it (the latest producer's), following chains of loose ops but not through
  // a loose op joining (spreading to) several others; leftover shape plumbing becomes "shape ops".
  void foldLooseOps(ScopeId p) {
    if (static_cast<int>(direct[p].size()) <= opt_.looseOpsMax || out_.children[p].empty()) return;
    std::vector<OpId> loose = std::move(direct[p]);  // moved out: addNode grows `direct`
    direct[p].clear();
    std::sort(loose.begin(), loose.end(), [&](OpId a, OpId b) { return pos_[a] < pos_[b]; });
    for (OpId op : loose) loose_[op] = 1, target_[op] = kNone;
    auto targetOf = [&](OpId v) -> ScopeId {
      if (loose_[v]) return target_[v];
      const ScopeId c = childOf(p, v);
      return c != kNone && c != p ? c : kNone;
    };
    for (int round = 0; round < 4; ++round) {
      bool changed = false;
      for (auto it = loose.rbegin(); it != loose.rend(); ++it) {
        if (target_[*it] != kNone) continue;
        int32_t best = INT32_MAX;
        for (OpId v : g_.fanOut(*it)) {
          if (loose_[v] && g_.fanIn(v).size() >= kWide) continue;  // a loose merge: inputs stay with their producers
          if (const ScopeId t = targetOf(v); t != kNone && pos_[v] < best) best = pos_[v], target_[*it] = t;
        }
        changed |= target_[*it] != kNone;
      }
      for (OpId op : loose) {
        if (target_[op] != kNone) continue;
        int32_t best = -1;
        for (OpId u : g_.fanIn(op)) {
          if (loose_[u] && g_.fanOut(u).size() >= kWide) continue;  // a loose fan-out: consumers stay apart
          if (const ScopeId t = targetOf(u); t != kNone && pos_[u] > best) best = pos_[u], target_[op] = t;
        }
        changed |= target_[op] != kNone;
      }
      if (!changed) break;
    }
    std::vector<OpId> rest;
    for (OpId op : loose) {
      if (target_[op] != kNone)
        moveOp(op, target_[op]);
      else
        rest.push_back(op);
      loose_[op] = 0;
      target_[op] = kNone;
    }
    std::vector<OpId> shape;
    if (static_cast<int>(rest.size()) > opt_.looseOpsMax)
      for (OpId op : rest)
        if (isShapeOp(g_.opType(op))) shape.push_back(op);
    if (shape.size() >= 2) {
      const ScopeId s = addNode(p, Kind::ShapeOps, "shape ops");
      for (OpId op : shape) moveOp(op, s);
      out_.children[p].push_back(s);
      sortChildren(p);
      rest.erase(std::remove_if(rest.begin(), rest.end(), [&](OpId op) { return out_.opNode[op] != p; }), rest.end());
    }
    std::sort(rest.begin(), rest.end());
    direct[p] = std::move(rest);
  }

  std::string itemLabel(bool isOp, int32_t id) const {
    if (isOp) return std::string(lastComponent(g_.opName(id)));
    return std::string(name(id));
  }

  // More than maxItems boxes: consecutive items (by first op) folded into runs.
  void foldRuns(ScopeId p) {
    const int n = items(p);
    if (n <= opt_.maxItems) return;
    // a scope of ops only (one layer, one step) is read as its ops unless it is huge
    if (p != 0 && out_.children[p].empty() && n <= 4 * opt_.maxItems) return;
    struct Item {
      int32_t first;
      bool isOp;
      int32_t id;
    };
    std::vector<Item> list;
    list.reserve(n);
    for (ScopeId c : out_.children[p]) list.push_back({first_[c], false, c});
    for (OpId op : direct[p]) list.push_back({op, true, op});
    if (out_.kind[p] != Kind::Calls)  // a Calls group's children are in call order already
      std::stable_sort(list.begin(), list.end(), [](const Item& a, const Item& b) { return a.first < b.first; });
    const int chunk = std::max(8, (n + 23) / 24);  // at most 24 runs, of about equal size
    const int runs = (n + chunk - 1) / chunk;
    out_.children[p].clear();
    direct[p].clear();
    for (int k = 0; k < runs; ++k) {
      const int b = static_cast<int>(static_cast<int64_t>(n) * k / runs);
      const int e = static_cast<int>(static_cast<int64_t>(n) * (k + 1) / runs);
      if (e - b == 1) {  // a lone item stays as it is
        if (list[b].isOp)
          direct[p].push_back(list[b].id);
        else
          out_.children[p].push_back(list[b].id);
        continue;
      }
      std::string label;
      const Item &lo = list[b], &hi = list[e - 1];
      if (out_.kind[p] == Kind::Calls && !lo.isOp && !hi.isOp && callIndex_[lo.id] >= 0 && callIndex_[hi.id] >= 0)
        label = std::string(name(p)) + " (calls " + std::to_string(callIndex_[lo.id]) + "–" +
                std::to_string(callIndex_[hi.id]) + ")";
      else
        label = itemLabel(lo.isOp, lo.id) + " … " + itemLabel(hi.isOp, hi.id);
      const ScopeId r = addNode(p, Kind::Run, std::move(label));
      callIndex_[r] = lo.isOp ? -1 : callIndex_[lo.id];
      for (int i = b; i < e; ++i) {
        if (list[i].isOp) {
          moveOp(list[i].id, r);
        } else {
          out_.parent[list[i].id] = r;
          out_.children[r].push_back(list[i].id);
          count_[r] += count_[list[i].id];
          first_[r] = std::min(first_[r], first_[list[i].id]);
        }
      }
      out_.children[p].push_back(r);
    }
    sortChildren(p);
    std::sort(direct[p].begin(), direct[p].end());
  }

  const Graph& g_;
  const ScopeGroupOptions& opt_;
  ScopeGroups& out_;
  std::vector<int32_t> count_, first_, callIndex_;  // per node: subtree ops, first op, call number
  std::vector<int32_t> pos_;                        // per op: topological position
  std::vector<ScopeId> target_;                     // per op: scratch of foldLooseOps
  std::vector<uint8_t> loose_;
};

}  // namespace

bool splitCallSuffix(std::string_view name, std::string_view& base, int32_t& call) {
  base = name;
  call = 0;
  const size_t us = name.rfind('_');
  if (us == std::string_view::npos || us == 0 || us + 1 >= name.size() || name.size() - us > 7) return false;
  int32_t n = 0;
  for (size_t i = us + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    n = n * 10 + (name[i] - '0');
  }
  if (n == 0 || name[us + 1] == '0') return false;  // torch's first call has no suffix: "x_0" is a name
  base = name.substr(0, us);
  call = n;
  return true;
}

ScopeGroups groupScopes(const Graph& g, const ScopeGroupOptions& options) {
  ScopeGroups out;
  Grouper grouper(g, options, out);
  grouper.run();
  return out;
}

}  // namespace gp
