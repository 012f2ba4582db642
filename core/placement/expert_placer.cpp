// The human-expert rule of the placement papers (ColocRL, HDP, Baechi): a contiguous
// layer-wise split. Forward ops are grouped by their layer scope (an LSTM layer, a
// transformer block, a ResNet stage), the layers in topological order are cut into one
// contiguous run per device with about equal compute, the embedding goes on the first device
// and the softmax / loss on the last, and every backward or update op follows its forward op
// (TensorFlow's colocate_gradients_with_ops, which experts turn on).
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

#include "placement/placement_util.h"

namespace gp::placement {
namespace {

ScopeId ancestorAt(const Graph& g, ScopeId s, int depth) {
  while (g.scopeDepth(s) > depth) s = g.scopeParent(s);
  return s;
}

bool nameHas(const std::string& name, std::initializer_list<const char*> words) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (const char* w : words)
    if (s.find(w) != std::string::npos) return true;
  return false;
}

}  // namespace

Plan placeExpert(const Context& ctx, std::string& note) {
  const Graph& g = ctx.g;
  Plan plan = Plan::singleDevice(g.numOps());
  std::vector<OpId> forward;
  double total = 0;
  for (OpId op : g.topoOrder())
    if (g.role(op) == OpRole::Forward) forward.push_back(op), total += ctx.avgTime[op];

  // 1. The layer level: the shallowest scope depth with at least one layer per device and no
  //    layer heavier than two devices' share ("encoder" alone is not a layer, "encoder/layer_3" is).
  int depth = g.maxScopeDepth();
  std::unordered_map<ScopeId, double> time;
  for (int d = 1; d <= g.maxScopeDepth(); ++d) {
    time.clear();
    for (OpId op : forward) time[ancestorAt(g, g.opScope(op), d)] += ctx.avgTime[op];
    double heaviest = 0;
    for (const auto& [s, t] : time) heaviest = std::max(heaviest, t);
    if (static_cast<int>(time.size()) >= ctx.n && heaviest <= 2 * total / ctx.n) {
      depth = d;
      break;
    }
  }

  // 2. Layers in the order their first op runs; each goes on the device whose share of the
  //    cumulative compute its midpoint falls in, which cuts the sequence into contiguous runs.
  std::unordered_map<ScopeId, int> deviceOf;
  std::vector<ScopeId> layers;
  time.clear();
  for (OpId op : forward) {
    ScopeId s = ancestorAt(g, g.opScope(op), depth);
    if (time.emplace(s, 0.0).second) layers.push_back(s);
    time[s] += ctx.avgTime[op];
  }
  double before = 0;
  for (ScopeId s : layers) {
    double mid = before + time[s] / 2;
    before += time[s];
    int d = total > 0 ? static_cast<int>(mid / (total / ctx.n)) : 0;
    // 3. Experts put the embedding lookup on the first device and the softmax / loss on the last.
    if (nameHas(g.scopeName(s), {"embed"})) d = 0;
    if (nameHas(g.scopeName(s), {"softmax", "loss", "logits"})) d = ctx.n - 1;
    deviceOf[s] = std::clamp(d, 0, ctx.n - 1);
  }
  for (OpId op : forward) plan.device[op] = deviceOf[ancestorAt(g, g.opScope(op), depth)];

  // 4. Backward and update ops go with their forward op; derived ops with none (gradient
  //    accumulation) go with their first producer.
  for (OpId op : g.topoOrder()) {
    if (g.role(op) == OpRole::Forward) continue;
    if (g.forwardOf(op) != kNone) plan.device[op] = plan.device[g.forwardOf(op)];
    else if (!g.fanIn(op).empty()) plan.device[op] = plan.device[g.fanIn(op).front()];
  }
  note = "layer scopes at depth " + std::to_string(depth) + " (" + std::to_string(layers.size()) + " layers)";
  return plan;
}

}  // namespace gp::placement
