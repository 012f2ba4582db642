// Suggested moves from the critical path: see suggestions.h.
#include "sim/suggestions.h"

#include <algorithm>
#include <set>
#include <utility>

#include "sim/kernels.h"
#include "sim/simulator.h"

namespace gp {

namespace {

std::string describe(const Graph& g, const std::vector<OpId>& ops, OpId lead) {
  std::string s = g.opName(lead);
  if (ops.size() > 1) s += " and " + std::to_string(ops.size() - 1) + " more";
  return s;
}

// The ops under each scope (itself or below it), the root left out.
std::vector<std::vector<OpId>> opsUnderScopes(const Graph& g) {
  std::vector<std::vector<OpId>> under(static_cast<size_t>(g.numScopes()));
  for (OpId op = 0; op < g.numOps(); ++op)
    for (ScopeId s = g.opScope(op); s != kNone && g.scopeParent(s) != kNone; s = g.scopeParent(s))
      under[s].push_back(op);
  return under;
}

}  // namespace

const char* moveKindName(PlanMove::Kind kind) {
  switch (kind) {
    case PlanMove::Kind::Op: return "op";
    case PlanMove::Kind::Scope: return "scope";
    case PlanMove::Kind::Fuse: return "fuse";
    case PlanMove::Kind::Priority: return "priority";
  }
  return "?";
}

Plan applyMove(const Plan& plan, const PlanMove& move) {
  Plan out = plan;
  if (move.kind == PlanMove::Kind::Priority) {
    if (out.priority.empty()) out.priority.assign(plan.device.size(), 0);
    for (OpId op : move.ops) out.priority[op] = move.priority;
    return out;
  }
  if (move.kind != PlanMove::Kind::Fuse) {
    for (OpId op : move.ops) out.device[op] = move.device;
    return out;
  }
  if (out.fusionGroup.empty()) out.fusionGroup.assign(plan.device.size(), -1);
  const int32_t group = *std::max_element(out.fusionGroup.begin(), out.fusionGroup.end()) + 1;
  std::set<int32_t> merged;  // groups the fused ops were already in join the new one
  for (OpId op : move.ops)
    if (out.fusionGroup[op] >= 0) merged.insert(out.fusionGroup[op]);
  for (int32_t& gr : out.fusionGroup)
    if (merged.count(gr)) gr = group;
  for (OpId op : move.ops) out.fusionGroup[op] = group;
  return out;
}

namespace {

// Each op's family (opFamily) for many ops: members per forward op and per colocation group.
class Families {
 public:
  explicit Families(const Graph& g) : g_(g), byRoot_(static_cast<size_t>(g.numOps())), byGroup_(g.colocGroupNames().size()) {
    for (OpId o = 0; o < g.numOps(); ++o) {
      byRoot_[root(o)].push_back(o);
      if (g.colocGroup(o) != kNone) byGroup_[static_cast<size_t>(g.colocGroup(o))].push_back(o);
    }
  }
  // The families of `ops`, sorted, each op once.
  std::vector<OpId> of(const std::vector<OpId>& ops) const {
    std::vector<OpId> out;
    for (OpId op : ops)
      for (OpId member : byRoot_[root(op)]) {
        out.push_back(member);
        if (g_.colocGroup(member) != kNone)
          for (OpId o : byGroup_[static_cast<size_t>(g_.colocGroup(member))]) out.push_back(o);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  OpId root(OpId op) const { return g_.forwardOf(op) == kNone ? op : g_.forwardOf(op); }
  const Graph& g_;
  std::vector<std::vector<OpId>> byRoot_, byGroup_;
};

}  // namespace

std::vector<OpId> opFamily(const Graph& g, OpId op) { return Families(g).of({op}); }

std::vector<Suggestion> suggestMoves(const CostModel& cost, const Plan& plan, const StepAnalysis& a, int top,
                                     int pathKernels, const std::function<bool()>& stop, int* tried) {
  const Graph& g = cost.graph();
  const int32_t nd = cost.cluster().numDevices();
  if (tried) *tried = 0;
  if (top <= 0 || a.path.empty()) return {};

  // the path's kernels, longest first
  std::vector<const PathStep*> kernels;
  for (const PathStep& s : a.path)
    if (s.kind == PathStep::Kind::Kernel) kernels.push_back(&s);
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const PathStep* x, const PathStep* y) { return x->end - x->start > y->end - y->start; });
  if (static_cast<int>(kernels.size()) > pathKernels) kernels.resize(static_cast<size_t>(std::max(pathKernels, 0)));

  std::vector<PlanMove> candidates;
  std::set<std::pair<std::vector<OpId>, int32_t>> seen;
  auto add = [&](PlanMove m) {
    if (m.ops.empty() || !seen.emplace(m.ops, m.device).second) return;
    if ((m.kind == PlanMove::Kind::Op || m.kind == PlanMove::Kind::Scope) &&
        std::all_of(m.ops.begin(), m.ops.end(), [&](OpId op) { return plan.device[op] == m.device; }))
      return;
    candidates.push_back(std::move(m));
  };
  const auto under = opsUnderScopes(g);
  const Families families(g);
  for (const PathStep* k : kernels) {
    const std::vector<OpId> family = families.of({k->id});
    for (int32_t d = 0; d < nd; ++d)
      if (d != k->device) add({PlanMove::Kind::Op, family, d, describe(g, family, k->id)});
    // the scope of the op's forward op (a gradient's own scope sits under "gradients/")
    ScopeId scope = g.opScope(g.forwardOf(k->id) == kNone ? k->id : g.forwardOf(k->id));
    for (int level = 0; level < 2 && scope != kNone && g.scopeParent(scope) != kNone; ++level, scope = g.scopeParent(scope)) {
      if (under[scope].size() * 2 > static_cast<size_t>(g.numOps())) break;
      const std::vector<OpId> ops = families.of(under[scope]);
      for (int32_t d = 0; d < nd; ++d) add({PlanMove::Kind::Scope, ops, d, "scope " + g.scopeName(scope)});
    }
  }
  // fusions of neighbours on the path (one device, joined by data) and queued kernels run first:
  // the `pathKernels` pairs of the most time and the `pathKernels` longest waits
  std::vector<size_t> pairs, queued;
  for (size_t i = 1; i < a.path.size(); ++i) {
    const PathStep& x = a.path[i - 1];
    const PathStep& y = a.path[i];
    if (x.kind == PathStep::Kind::Kernel && y.kind == PathStep::Kind::Kernel && y.via == PathStep::Via::Data &&
        x.device == y.device)
      pairs.push_back(i);
    if (y.kind == PathStep::Kind::Kernel && y.via == PathStep::Via::DeviceQueue) queued.push_back(i);
  }
  auto longest = [&](std::vector<size_t>& steps, auto key) {
    std::stable_sort(steps.begin(), steps.end(), [&](size_t i, size_t j) { return key(i) > key(j); });
    if (static_cast<int>(steps.size()) > pathKernels) steps.resize(static_cast<size_t>(std::max(pathKernels, 0)));
  };
  const auto duration = [&](size_t i) { return a.path[i].end - a.path[i].start; };
  longest(pairs, [&](size_t i) { return duration(i - 1) + duration(i); });
  longest(queued, [&](size_t i) { return a.path[i].waited(); });
  for (size_t i : pairs) {
    const PathStep& x = a.path[i - 1];
    const PathStep& y = a.path[i];
    std::vector<OpId> ops{x.id, y.id};
    std::sort(ops.begin(), ops.end());
    add({PlanMove::Kind::Fuse, ops, x.device, "fuse " + g.opName(x.id) + " with " + g.opName(y.id)});
  }
  const int32_t first = plan.priority.empty() ? 1 : *std::max_element(plan.priority.begin(), plan.priority.end()) + 1;
  PlanKernels formed;
  formed.form(plan, g.numOps());
  for (size_t i : queued) {
    const PathStep& s = a.path[i];
    const auto ops = formed.ops(s.id);
    PlanMove m{PlanMove::Kind::Priority, std::vector<OpId>(ops.begin(), ops.end()), s.device,
               "run " + g.opName(s.id) + " first when ready"};
    m.priority = first;
    add(std::move(m));
  }

  Simulator sim(cost);
  Measurement m;
  std::vector<Suggestion> out;
  for (const PlanMove& c : candidates) {
    if (stop && stop()) break;
    sim.run(applyMove(plan, c), m, /*recordTimeline=*/false);
    if (tried) ++*tried;
    if (m.feasible && m.stepTime < a.stepTime) out.push_back({c, m.stepTime});
  }
  std::stable_sort(out.begin(), out.end(), [](const Suggestion& x, const Suggestion& y) { return x.stepTime < y.stepTime; });
  // the same ops to several devices with the same result (equal devices): the first one only
  std::vector<Suggestion> distinct;
  for (Suggestion& s : out) {
    const bool same = std::any_of(distinct.begin(), distinct.end(), [&](const Suggestion& d) {
      return d.stepTime == s.stepTime && d.move.kind == s.move.kind && d.move.ops == s.move.ops;
    });
    if (!same) distinct.push_back(std::move(s));
  }
  out.swap(distinct);
  if (static_cast<int>(out.size()) > top) out.resize(static_cast<size_t>(top));
  return out;
}

}  // namespace gp
