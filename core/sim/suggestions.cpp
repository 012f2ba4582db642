// Suggested moves from the critical path: see suggestions.h.
#include "sim/suggestions.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <utility>

#include "sim/kernels.h"
#include "sim/move_features.h"
#include "sim/move_ranker.h"
#include "sim/simulator.h"

namespace gp {

namespace {

constexpr int kScopeLevels = 4;  // a path kernel's scope and the scopes above it tried as moves

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
  int32_t group = *std::max_element(out.fusionGroup.begin(), out.fusionGroup.end());
  const std::vector<std::vector<OpId>> one{move.ops};
  for (const std::vector<OpId>& fused : move.groups.empty() ? one : move.groups) {
    ++group;
    std::set<int32_t> merged;  // groups the fused ops were already in join the new one
    for (OpId op : fused)
      if (out.fusionGroup[op] >= 0) merged.insert(out.fusionGroup[op]);
    for (int32_t& gr : out.fusionGroup)
      if (merged.count(gr)) gr = group;
    for (OpId op : fused) out.fusionGroup[op] = group;
  }
  return out;
}

namespace {

ScopeId forwardScope(const Graph& g, OpId op) { return g.opScope(g.forwardOf(op) == kNone ? op : g.forwardOf(op)); }

// The deepest scope holding every op's forward scope.
ScopeId commonScope(const Graph& g, const std::vector<OpId>& ops) {
  ScopeId common = forwardScope(g, ops.front());
  for (OpId op : ops) {
    ScopeId s = forwardScope(g, op);
    while (g.scopeDepth(s) > g.scopeDepth(common)) s = g.scopeParent(s);
    while (g.scopeDepth(common) > g.scopeDepth(s)) common = g.scopeParent(common);
    while (s != common) s = g.scopeParent(s), common = g.scopeParent(common);
  }
  return common;
}

// Where `scope` (ending in '/') starts a component of `name`, or npos.
size_t componentAt(const std::string& name, const std::string& scope) {
  for (size_t at = name.find(scope); at != std::string::npos; at = name.find(scope, at + 1))
    if (at == 0 || name[at - 1] == '/') return at;
  return std::string::npos;
}

// The one op that reads `op`'s outputs, or kNone.
OpId soleConsumer(const Graph& g, OpId op) {
  OpId only = kNone;
  for (TensorId t : g.outputs(op))
    for (OpId c : g.consumers(t)) {
      if (only != kNone && c != only) return kNone;
      only = c;
    }
  return only;
}

// A fusion of two ops, one feeding the other, as a rule: every unfused op of the first's type
// whose outputs only the second's type reads, on one device, each pair a kernel of its own
// (fusing an edge that is its producer's only way out never closes a cycle).
std::optional<PlanMove> everyPair(const Graph& g, const Plan& plan, const PlanMove& move) {
  if (move.kind != PlanMove::Kind::Fuse || move.ops.size() != 2 || !move.groups.empty()) return std::nullopt;
  OpId from = move.ops[0], to = move.ops[1];
  const auto feeds = [&](OpId x, OpId y) {
    for (TensorId t : g.inputs(y))
      if (g.producer(t) == x) return true;
    return false;
  };
  if (!feeds(from, to)) std::swap(from, to);
  if (!feeds(from, to)) return std::nullopt;
  const auto unfused = [&](OpId op) { return plan.fusionGroup.empty() || plan.fusionGroup[op] < 0; };
  PlanMove r = move;
  r.groups = {{move.ops[0], move.ops[1]}};
  std::vector<char> used(static_cast<size_t>(g.numOps()), 0);
  used[from] = used[to] = 1;
  for (OpId u = 0; u < g.numOps(); ++u) {
    if (used[u] || g.opTypeId(u) != g.opTypeId(from) || !unfused(u)) continue;
    const OpId v = soleConsumer(g, u);
    if (v == kNone || used[v] || g.opTypeId(v) != g.opTypeId(to) || !unfused(v) || plan.device[u] != plan.device[v]) continue;
    used[u] = used[v] = 1;
    r.groups.push_back(u < v ? std::vector<OpId>{u, v} : std::vector<OpId>{v, u});
  }
  if (r.groups.size() < 2) return std::nullopt;
  r.ops.clear();
  for (const auto& grp : r.groups) r.ops.insert(r.ops.end(), grp.begin(), grp.end());
  std::sort(r.ops.begin(), r.ops.end());
  r.what = "fuse every " + std::string(g.opType(from)) + " into the " + std::string(g.opType(to)) +
           " that alone reads it (" + std::to_string(r.groups.size()) + " pairs)";
  return r;
}

}  // namespace

std::vector<PlanMove> inRepeats(const Graph& g, const Plan& plan, const PlanMove& move) {
  if (move.ops.empty()) return {};
  std::vector<std::vector<ScopeId>> children(static_cast<size_t>(g.numScopes()));
  for (ScopeId s = 0; s < g.numScopes(); ++s)
    if (g.scopeParent(s) != kNone) children[g.scopeParent(s)].push_back(s);
  const bool fuse = move.kind == PlanMove::Kind::Fuse;
  const std::vector<std::vector<OpId>> one{move.ops};
  const std::vector<std::vector<OpId>>& groups = fuse && !move.groups.empty() ? move.groups : one;

  std::vector<PlanMove> out;
  for (ScopeId scope = commonScope(g, move.ops); scope != kNone && g.scopeParent(scope) != kNone;
       scope = g.scopeParent(scope)) {
    const std::string from = g.scopeName(scope) + "/";
    std::vector<std::vector<OpId>> all = groups;
    std::vector<char> used(static_cast<size_t>(g.numOps()), 0);
    for (const auto& grp : groups)
      for (OpId op : grp) used[op] = 1;
    int repeats = 0;
    for (ScopeId sibling : children[g.scopeParent(scope)]) {
      if (sibling == scope) continue;
      const std::string to = g.scopeName(sibling) + "/";
      std::vector<std::vector<OpId>> mapped;
      bool ok = true;
      for (const auto& grp : groups) {
        std::vector<OpId> m;
        for (OpId op : grp) {
          const std::string& name = g.opName(op);
          const size_t at = componentAt(name, from);
          if (at == std::string::npos) {
            ok = !fuse;  // an op outside the scope moves once; a fused group lies inside it
            if (ok && !used[op]) m.push_back(op);
          } else {
            const OpId there = g.findOp(std::string(name).replace(at, from.size(), to));
            ok = there != kNone && !used[there];
            if (ok) m.push_back(there);
          }
          if (!ok) break;
        }
        if (ok && fuse && std::any_of(m.begin(), m.end(), [&](OpId op) { return plan.device[op] != plan.device[m.front()]; }))
          ok = false;
        if (!ok) break;
        mapped.push_back(std::move(m));
      }
      if (!ok) continue;
      for (auto& m : mapped) {
        for (OpId op : m) used[op] = 1;
        if (!m.empty()) all.push_back(std::move(m));
      }
      ++repeats;
    }
    if (repeats == 0) continue;
    PlanMove r = move;
    r.ops.clear();
    for (const auto& grp : all) r.ops.insert(r.ops.end(), grp.begin(), grp.end());
    std::sort(r.ops.begin(), r.ops.end());
    r.ops.erase(std::unique(r.ops.begin(), r.ops.end()), r.ops.end());
    r.groups = fuse ? std::move(all) : std::vector<std::vector<OpId>>{};
    const ScopeId parent = g.scopeParent(scope);
    r.what += ", and likewise in " + std::to_string(repeats) + " more of " +
              (g.scopeParent(parent) == kNone ? std::string() : g.scopeName(parent) + "/") + "*";
    out.push_back(std::move(r));
  }
  if (auto every = everyPair(g, plan, move)) out.push_back(std::move(*every));
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
  SuggestOptions o;
  o.pathKernels = pathKernels;
  o.stop = stop;
  return suggestMoves(cost, plan, a, top, o, tried);
}

std::vector<Suggestion> suggestMoves(const CostModel& cost, const Plan& plan, const StepAnalysis& a, int top,
                                     const SuggestOptions& options, int* tried) {
  const int pathKernels = options.pathKernels;
  const std::function<bool()>& stop = options.stop;
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
  std::vector<MoveOrigin> origins;  // where each candidate came from on the path
  std::set<std::pair<std::vector<OpId>, int32_t>> seen;
  PlanKernels formed;
  formed.form(plan, g.numOps());
  auto add = [&](PlanMove m, const MoveOrigin& origin) {
    // ops move with their fusion groups: a group split over two devices does not run
    if ((m.kind == PlanMove::Kind::Op || m.kind == PlanMove::Kind::Scope) && formed.anyFused()) {
      const size_t n = m.ops.size();
      for (size_t i = 0; i < n; ++i)
        if (const int32_t k = formed.kernelOf(m.ops[i]); formed.fused(k))
          m.ops.insert(m.ops.end(), formed.ops(k).begin(), formed.ops(k).end());
      std::sort(m.ops.begin(), m.ops.end());
      m.ops.erase(std::unique(m.ops.begin(), m.ops.end()), m.ops.end());
    }
    if (m.ops.empty() || !(options.kinds & moveKindBit(m.kind)) || !seen.emplace(m.ops, m.device).second) return;
    if ((m.kind == PlanMove::Kind::Op || m.kind == PlanMove::Kind::Scope) &&
        std::all_of(m.ops.begin(), m.ops.end(), [&](OpId op) { return plan.device[op] == m.device; }))
      return;
    candidates.push_back(std::move(m));
    origins.push_back(origin);
  };
  const auto under = opsUnderScopes(g);
  const Families families(g);
  for (const PathStep* k : kernels) {
    const std::vector<OpId> family = families.of({k->id});
    const auto from = [&](MoveGroup group, int level = 0) {
      return MoveOrigin{group, k->end - k->start, k->waited(), k->device, level};
    };
    for (int32_t d = 0; d < nd; ++d)
      if (d != k->device) add({PlanMove::Kind::Op, family, d, describe(g, family, k->id)}, from(MoveGroup::Family));
    // the kernel alone (a gradient beside its sibling gradients, away from its forward op)
    const auto own = formed.ops(k->id);
    if (own.size() < family.size())
      for (int32_t d = 0; d < nd; ++d)
        if (d != k->device) {
          std::vector<OpId> ops(own.begin(), own.end());
          std::sort(ops.begin(), ops.end());
          add({PlanMove::Kind::Op, ops, d, describe(g, ops, k->id) + " alone"}, from(MoveGroup::Alone));
        }
    // the scope of the op's forward op (a gradient's own scope sits under "gradients/")
    ScopeId scope = g.opScope(g.forwardOf(k->id) == kNone ? k->id : g.forwardOf(k->id));
    for (int level = 0; level < kScopeLevels && scope != kNone && g.scopeParent(scope) != kNone; ++level, scope = g.scopeParent(scope)) {
      if (under[scope].size() * 2 > static_cast<size_t>(g.numOps())) break;
      const std::vector<OpId> ops = families.of(under[scope]);
      for (int32_t d = 0; d < nd; ++d)
        add({PlanMove::Kind::Scope, ops, d, "scope " + g.scopeName(scope)}, from(MoveGroup::Scope, level));
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
    add({PlanMove::Kind::Fuse, ops, x.device, "fuse " + g.opName(x.id) + " with " + g.opName(y.id)},
        {MoveGroup::Fuse, duration(i - 1) + duration(i), y.waited(), x.device, 0});
  }
  const int32_t first = plan.priority.empty() ? 1 : *std::max_element(plan.priority.begin(), plan.priority.end()) + 1;
  for (size_t i : queued) {
    const PathStep& s = a.path[i];
    const auto ops = formed.ops(s.id);
    PlanMove m{PlanMove::Kind::Priority, std::vector<OpId>(ops.begin(), ops.end()), s.device,
               "run " + g.opName(s.id) + " first when ready"};
    m.priority = first;
    add(std::move(m), {MoveGroup::Priority, duration(i), s.waited(), s.device, 0});
  }

  // the order the candidates drawn from the path are simulated in: as drawn, or ranked
  std::vector<size_t> tryFirst(candidates.size());
  std::iota(tryFirst.begin(), tryFirst.end(), 0);
  std::vector<MoveFeatureRow> features;
  if (options.ranker || options.record) {
    MoveContext context(cost, plan, a, options.measured);
    for (size_t i = 0; i < candidates.size(); ++i) features.push_back(context.features(candidates[i], origins[i]));
  }
  const bool ranked = options.keep > 0 && tryFirst.size() > static_cast<size_t>(options.keep);
  if (ranked) {
    std::vector<double> score(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i)
      score[i] = options.ranker ? options.ranker->score(origins[i].group, features[i]) : heuristicMoveScore(origins[i]);
    std::stable_sort(tryFirst.begin(), tryFirst.end(), [&](size_t x, size_t y) { return score[x] > score[y]; });
  }

  Simulator sim(cost);
  Measurement m;
  std::vector<Suggestion> out;
  auto simulate = [&](size_t i) {
    const Plan changed = applyMove(plan, candidates[i]);
    if (candidates[i].kind == PlanMove::Kind::Fuse && options.allowFusion && !options.allowFusion(changed)) return;
    sim.run(changed, m, /*recordTimeline=*/false);
    if (tried) ++*tried;
    const bool shorter = m.feasible && m.stepTime < a.stepTime;
    if (shorter) out.push_back({candidates[i], m.stepTime});
    if (options.record && i < features.size())
      options.record({origins[i].group, features[i], shorter ? 100 * (a.stepTime - m.stepTime) / a.stepTime : 0.0, 0});
  };
  const auto stopped = [&] { return stop && stop(); };
  const auto best = [](const Suggestion& x, const Suggestion& y) { return x.stepTime < y.stepTime; };
  for (size_t n = 0; n < tryFirst.size() && !stopped(); ++n) {
    // ranked: `keep` at a time, the next `keep` only when none so far shortened the step
    if (ranked && n > 0 && n % static_cast<size_t>(options.keep) == 0 && !out.empty()) break;
    simulate(tryFirst[n]);
  }
  // the best moves again, in every repeat of their structure
  std::stable_sort(out.begin(), out.end(), best);
  const size_t firstRepeat = candidates.size();
  for (size_t i = 0; i < out.size() && i < static_cast<size_t>(std::max(pathKernels / 3, 1)) && !stopped(); ++i)
    for (PlanMove& r : inRepeats(g, plan, out[i].move)) add(std::move(r), MoveOrigin{});  // neither ranked nor recorded
  for (size_t i = firstRepeat; i < candidates.size() && !stopped(); ++i) simulate(i);
  std::stable_sort(out.begin(), out.end(), best);
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
