#include "plan_edits.h"

#include <algorithm>
#include <unordered_map>

#include "fusion/fuser.h"

namespace gp::planedit {

namespace {

// The smallest fusion group ids no op uses, one after the other.
class FreeIds {
 public:
  explicit FreeIds(const std::vector<int32_t>& groups) : used_(groups.size() + 1, 0) {
    for (int32_t id : groups)
      if (id >= 0 && static_cast<size_t>(id) < used_.size()) used_[static_cast<size_t>(id)] = 1;
  }
  int32_t take() {
    while (next_ < used_.size() && used_[next_]) ++next_;
    if (next_ < used_.size()) used_[next_] = 1;
    return static_cast<int32_t>(next_++);
  }

 private:
  std::vector<uint8_t> used_;
  size_t next_ = 0;
};

void dropEmptyFusion(Plan& p) {
  if (std::none_of(p.fusionGroup.begin(), p.fusionGroup.end(), [](int32_t id) { return id >= 0; }))
    p.fusionGroup.clear();
}

// "fusion group 7 spans …" -> "the new group spans …" (not "fusion group 71").
std::string nameNewGroup(std::string text, int32_t id) {
  const std::string label = "fusion group " + std::to_string(id);
  for (size_t at = text.find(label); at != std::string::npos; at = text.find(label, at)) {
    const size_t end = at + label.size();
    if (end < text.size() && text[end] >= '0' && text[end] <= '9') {
      at = end;
      continue;
    }
    text.replace(at, label.size(), "the new group");
  }
  return text;
}

}  // namespace

AssignResult assigned(const Graph& g, const Plan& plan, const std::vector<OpId>& ops, int32_t device) {
  AssignResult r;
  std::vector<uint8_t> groupTaken(g.colocGroupNames().size(), 0);
  for (OpId op : ops)
    if (op >= 0 && op < g.numOps()) {
      if (int32_t grp = g.colocGroup(op); grp != kNone) groupTaken[static_cast<size_t>(grp)] = 1;
      else r.moved.push_back(op);
    }
  if (std::find(groupTaken.begin(), groupTaken.end(), 1) != groupTaken.end())
    for (OpId op = 0; op < g.numOps(); ++op)
      if (int32_t grp = g.colocGroup(op); grp != kNone && groupTaken[static_cast<size_t>(grp)]) r.moved.push_back(op);
  std::sort(r.moved.begin(), r.moved.end());
  r.moved.erase(std::unique(r.moved.begin(), r.moved.end()), r.moved.end());
  std::erase_if(r.moved, [&](OpId op) { return plan.device[static_cast<size_t>(op)] == device; });
  r.plan = plan;
  for (OpId op : r.moved) r.plan.device[static_cast<size_t>(op)] = device;
  if (r.moved.empty() || plan.fusionGroup.empty()) return r;
  std::vector<uint8_t> split(static_cast<size_t>(g.numOps()), 0);  // per group id: not all on `device`
  for (OpId op = 0; op < g.numOps(); ++op)
    if (int32_t grp = r.plan.fusionGroup[static_cast<size_t>(op)]; grp >= 0 && r.plan.device[static_cast<size_t>(op)] != device)
      split[static_cast<size_t>(grp)] = 1;
  for (OpId op : r.moved)
    if (int32_t grp = r.plan.fusionGroup[static_cast<size_t>(op)]; grp >= 0 && split[static_cast<size_t>(grp)])
      r.leftFusion.push_back(op);
  if (!r.leftFusion.empty()) r.plan = withoutFusion(g, r.plan, r.leftFusion).plan;
  return r;
}

Plan withPriority(const Plan& plan, int32_t numOps, const std::vector<OpId>& ops, int32_t value) {
  Plan p = plan;
  if (p.priority.size() != static_cast<size_t>(numOps)) p.priority.assign(static_cast<size_t>(numOps), 0);
  for (OpId op : ops)
    if (op >= 0 && op < numOps) p.priority[static_cast<size_t>(op)] = value;
  return p;
}

LeaveResult withoutFusion(const Graph& g, const Plan& plan, const std::vector<OpId>& ops) {
  LeaveResult r{plan, 0};
  const int32_t n = g.numOps();
  std::vector<int32_t>& fg = r.plan.fusionGroup;
  if (fg.size() != static_cast<size_t>(n)) return r;
  // The groups the ops leave, with the ops that stay in them (ascending ids).
  std::unordered_map<int32_t, std::vector<OpId>> touched;
  for (OpId op : ops)
    if (op >= 0 && op < n && fg[static_cast<size_t>(op)] >= 0) {
      touched.try_emplace(fg[static_cast<size_t>(op)]);
      fg[static_cast<size_t>(op)] = -1;
    }
  if (touched.empty()) return r;
  for (OpId op = 0; op < n; ++op)
    if (auto it = touched.find(fg[static_cast<size_t>(op)]); it != touched.end()) it->second.push_back(op);
  // Split each into its connected parts: the first part keeps the id, single ops are alone.
  FreeIds fresh(fg);
  std::vector<OpId> stack, part;
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  std::vector<int32_t> ids;
  ids.reserve(touched.size());
  for (const auto& [id, members] : touched) ids.push_back(id);
  std::sort(ids.begin(), ids.end());  // deterministic ids for the split-off parts
  for (int32_t id : ids) {
    bool keptId = false;
    for (OpId start : touched[id]) {
      if (seen[static_cast<size_t>(start)]) continue;
      part.clear();
      stack.assign(1, start);
      seen[static_cast<size_t>(start)] = 1;
      while (!stack.empty()) {
        const OpId op = stack.back();
        stack.pop_back();
        part.push_back(op);
        for (auto span : {g.fanIn(op), g.fanOut(op)})
          for (OpId nb : span)
            if (!seen[static_cast<size_t>(nb)] && fg[static_cast<size_t>(nb)] == id) {
              seen[static_cast<size_t>(nb)] = 1;
              stack.push_back(nb);
            }
      }
      int32_t newId = -1;
      if (part.size() > 1) {
        newId = keptId ? fresh.take() : id;
        keptId = true;
      }
      for (OpId op : part) fg[static_cast<size_t>(op)] = newId;
    }
  }
  // The split parts may interleave with the ops that left (a cycle between kernels): then the
  // touched groups dissolve, which always satisfies the rules if the rest of the plan did.
  if (!fusionProblem(g, r.plan).empty()) {
    for (const auto& [id, members] : touched) {
      if (members.size() > 1) ++r.dissolved;
      for (OpId op : members) fg[static_cast<size_t>(op)] = -1;
    }
  }
  dropEmptyFusion(r.plan);
  return r;
}

FuseResult fused(const Graph& g, const Plan& plan, const std::vector<OpId>& ops) {
  FuseResult r;
  LeaveResult left = withoutFusion(g, plan, ops);
  r.plan = std::move(left.plan);
  r.dissolved = left.dissolved;
  const int32_t n = g.numOps();
  std::vector<int32_t>& fg = r.plan.fusionGroup;
  if (fg.size() != static_cast<size_t>(n)) fg.assign(static_cast<size_t>(n), -1);
  r.group = FreeIds(fg).take();
  for (OpId op : ops)
    if (op >= 0 && op < n) fg[static_cast<size_t>(op)] = r.group;
  r.problem = nameNewGroup(fusionProblem(g, r.plan), r.group);
  return r;
}

int32_t groupSize(const Plan& plan, int32_t group) {
  if (group < 0) return 0;
  return static_cast<int32_t>(std::count(plan.fusionGroup.begin(), plan.fusionGroup.end(), group));
}

FusionCount countFusion(const Plan& plan) {
  FusionCount c;
  std::vector<uint8_t> seen(plan.fusionGroup.size(), 0);
  for (int32_t id : plan.fusionGroup) {
    if (id < 0) continue;
    ++c.fusedOps;
    if (static_cast<size_t>(id) < seen.size() && !seen[static_cast<size_t>(id)]) {
      seen[static_cast<size_t>(id)] = 1;
      ++c.groups;
    }
  }
  return c;
}

}  // namespace gp::planedit
