#include "fusion/fuser.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "graph/op_class.h"
#include "sim/plan_check.h"

namespace gp {
namespace {

// Fusion groups under construction: union-find over ops with, per root, its members, size,
// anchor count and the first / last topological position of its ops.
class Groups {
 public:
  Groups(const Graph& g, const std::vector<int32_t>& device, FusionRules rules)
      : g_(g), device_(device), rules_(rules), n_(g.numOps()) {
    parent_.resize(static_cast<size_t>(n_));
    std::iota(parent_.begin(), parent_.end(), 0);
    pos_.resize(static_cast<size_t>(n_));
    const auto topo = g.topoOrder();
    for (int32_t i = 0; i < n_; ++i) pos_[static_cast<size_t>(topo[i])] = i;
    members_.resize(static_cast<size_t>(n_));
    role_.resize(static_cast<size_t>(n_));
    for (OpId op = 0; op < n_; ++op) {
      members_[op] = {op};
      role_[op] = fusionRole(g, op);
    }
    minPos_ = pos_;
    maxPos_ = pos_;
  }

  int32_t find(int32_t op) {
    while (parent_[op] != op) op = parent_[op] = parent_[parent_[op]];
    return op;
  }
  int32_t pos(OpId op) const { return pos_[op]; }
  FusionRole role(OpId op) const { return role_[op]; }

  // Merges the groups of `a` and `b` when every rule allows it; returns whether it did.
  bool tryMerge(OpId a, OpId b) {
    const int32_t ra = find(a), rb = find(b);
    if (ra == rb || device_[a] != device_[b]) return false;
    if (role_[a] == FusionRole::Never || role_[b] == FusionRole::Never) return false;
    const auto& ma = members_[ra];
    const auto& mb = members_[rb];
    if (static_cast<int>(ma.size() + mb.size()) > rules_.maxOps) return false;
    if (anchors(ma) + anchors(mb) > 1) return false;
    const int32_t lo = std::min(minPos_[ra], minPos_[rb]), hi = std::max(maxPos_[ra], maxPos_[rb]);
    for (const auto* m : {&ma, &mb})
      for (OpId op : *m) {
        for (OpId p : g_.fanIn(op)) {
          const int32_t rp = find(p);
          if (rp != ra && rp != rb && maxPos_[rp] >= lo) return false;
        }
        for (OpId c : g_.fanOut(op)) {
          const int32_t rc = find(c);
          if (rc != ra && rc != rb && minPos_[rc] <= hi) return false;
        }
      }
    const int32_t keep = std::min(ra, rb), gone = std::max(ra, rb);
    parent_[gone] = keep;
    auto& into = members_[keep];
    into.insert(into.end(), members_[gone].begin(), members_[gone].end());
    members_[gone].clear();
    members_[gone].shrink_to_fit();
    minPos_[keep] = lo;
    maxPos_[keep] = hi;
    return true;
  }

  std::vector<int32_t> result() {
    std::vector<int32_t> group(static_cast<size_t>(n_), -1), idOfRoot(static_cast<size_t>(n_), -1);
    int32_t next = 0;
    for (OpId op = 0; op < n_; ++op) {
      const int32_t r = find(op);
      if (members_[r].size() < 2) continue;
      if (idOfRoot[r] < 0) idOfRoot[r] = next++;
      group[op] = idOfRoot[r];
    }
    return group;
  }

 private:
  int anchors(const std::vector<OpId>& ops) const {
    int k = 0;
    for (OpId op : ops) k += role_[op] == FusionRole::Anchor;
    return k;
  }

  const Graph& g_;
  const std::vector<int32_t>& device_;
  FusionRules rules_;
  int32_t n_;
  std::vector<int32_t> parent_, pos_, minPos_, maxPos_;
  std::vector<std::vector<OpId>> members_;
  std::vector<FusionRole> role_;
};

}  // namespace

FusionRole fusionRole(const Graph& g, OpId op) {
  if (g.role(op) == OpRole::Update) return FusionRole::Never;  // parameter updates: kernels of their own
  const std::string_view type = g.opType(op);
  if (isMetadataOp(type)) return FusionRole::Fusible;
  switch (classifyOp(type)) {
    case OpClass::MatMul:
    case OpClass::Conv:
    case OpClass::Recurrent:
    case OpClass::Reduction:
    case OpClass::Normalization:  // reduces over its input first: it cannot ride in a GEMM's epilogue
      return FusionRole::Anchor;
    case OpClass::Elementwise:
      return FusionRole::Fusible;
    default:
      return FusionRole::Never;
  }
}

std::vector<int32_t> defaultFusion(const Graph& g, const std::vector<int32_t>& device, FusionRules rules) {
  Groups groups(g, device, rules);
  for (OpId op : g.topoOrder()) {
    if (groups.role(op) != FusionRole::Fusible) continue;
    for (OpId p : g.fanIn(op))
      if (groups.tryMerge(p, op)) break;
  }
  return groups.result();
}

std::vector<int32_t> fuseByPriority(const Graph& g, const std::vector<int32_t>& device,
                                    const std::vector<int32_t>& fusionPriority, FusionRules rules) {
  Groups groups(g, device, rules);
  const auto prio = [&](OpId op) { return fusionPriority[static_cast<size_t>(op)]; };
  auto before = [&](OpId a, OpId b) {
    return prio(a) != prio(b) ? prio(a) > prio(b) : groups.pos(a) < groups.pos(b);
  };
  std::vector<OpId> order;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (prio(op) > 0) order.push_back(op);
  std::sort(order.begin(), order.end(), before);
  std::vector<OpId> neighbours;
  for (OpId op : order) {
    neighbours.clear();
    for (OpId p : g.fanIn(op))
      if (prio(p) > 0) neighbours.push_back(p);
    const size_t producers = neighbours.size();
    for (OpId c : g.fanOut(op))
      if (prio(c) > 0) neighbours.push_back(c);
    std::stable_sort(neighbours.begin(), neighbours.begin() + static_cast<std::ptrdiff_t>(producers), before);
    std::stable_sort(neighbours.begin() + static_cast<std::ptrdiff_t>(producers), neighbours.end(), before);
    for (OpId nb : neighbours) groups.tryMerge(op, nb);
  }
  return groups.result();
}

std::string fusionProblem(const Graph& g, const Plan& plan, FusionRules rules) {
  const int32_t n = g.numOps();
  std::vector<int32_t> scratch;
  if (std::string why = fusionGroupsProblem(g, plan, scratch); !why.empty() || plan.fusionGroup.empty()) return why;
  // every op alone is a group of its own: key = group id, or -(op + 1)
  auto key = [&](OpId op) { return plan.fusionGroup[op] >= 0 ? plan.fusionGroup[op] : -(op + 1); };
  std::vector<int32_t> pos(static_cast<size_t>(n));
  const auto topo = g.topoOrder();
  for (int32_t i = 0; i < n; ++i) pos[static_cast<size_t>(topo[i])] = i;
  struct Info {
    std::vector<OpId> ops;
    int32_t lo = 0, hi = 0;
  };
  std::unordered_map<int32_t, Info> groups;
  for (OpId op : topo) {
    auto [it, fresh] = groups.try_emplace(key(op));
    if (fresh) it->second.lo = pos[op];
    it->second.hi = pos[op];
    it->second.ops.push_back(op);
  }
  auto name = [&](OpId op) { return "'" + g.opName(op) + "'"; };
  for (auto& [id, info] : groups) {
    if (id < 0) continue;
    const std::string label = "fusion group " + std::to_string(id);
    if (static_cast<int>(info.ops.size()) > rules.maxOps)
      return label + " has " + std::to_string(info.ops.size()) + " ops, more than " + std::to_string(rules.maxOps);
    int anchors = 0;
    for (OpId op : info.ops) {
      const FusionRole r = fusionRole(g, op);
      if (r == FusionRole::Never && info.ops.size() > 1)
        return label + " holds op " + name(op) + " of type " + std::string(g.opType(op)) + ", which never fuses";
      if (r == FusionRole::Anchor && ++anchors > 1)
        return label + " holds two heavy ops (" + name(info.ops[0]) + " … " + name(op) + ")";
    }
    // connected through data edges inside the group
    std::vector<OpId> stack{info.ops[0]}, seen{info.ops[0]};
    while (!stack.empty()) {
      const OpId op = stack.back();
      stack.pop_back();
      for (auto span : {g.fanIn(op), g.fanOut(op)})
        for (OpId nb : span)
          if (key(nb) == id && std::find(seen.begin(), seen.end(), nb) == seen.end()) {
            seen.push_back(nb);
            stack.push_back(nb);
          }
    }
    if (seen.size() != info.ops.size()) return label + " is not connected by data edges";
  }
  for (OpId x = 0; x < n; ++x)
    for (OpId y : g.fanOut(x)) {
      if (key(x) == key(y)) continue;
      const Info& gx = groups[key(x)];
      const Info& gy = groups[key(y)];
      if (gx.hi >= gy.lo)
        return "op " + name(y) + " reads op " + name(x) + " but their kernels interleave (a fused kernel's inputs " +
               "must all be ready before its first op, its outputs read after its last)";
    }
  return {};
}

}  // namespace gp
