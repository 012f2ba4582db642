#include "graph/graph_builder.h"

#include <algorithm>
#include <limits>

#include "base/error.h"

namespace gp {

std::string_view scopeOfName(std::string_view opName) {
  while (!opName.empty() && opName.front() == '/') opName.remove_prefix(1);
  auto slash = opName.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : opName.substr(0, slash);
}

void GraphBuilder::fail(const std::string& problem) const { throw Error(source_, problem); }

TensorId GraphBuilder::newTensor(TensorDesc&& t, TensorKind kind, OpId producer) {
  auto id = static_cast<TensorId>(g_.tName_.size());
  if (id == std::numeric_limits<TensorId>::max()) fail("too many tensors");
  g_.tName_.emplace_back();
  g_.tKind_.push_back(kind);
  g_.tProducer_.push_back(kNone);
  g_.tDType_.push_back(DType::Unknown);
  g_.tRank_.push_back(-1);
  g_.tDimOff_.push_back(0);
  g_.tBytes_.push_back(0);
  resolved_.push_back(0);
  setTensor(id, std::move(t), kind, producer);
  g_.tensorIndex_.insert(id, g_.tName_);
  return id;
}

void GraphBuilder::setTensor(TensorId id, TensorDesc&& t, TensorKind kind, OpId producer) {
  if (t.shapeKnown && t.shape.size() > 127) fail("tensor '" + t.name + "' has rank over 127");
  int64_t numel = 1;
  if (t.shapeKnown) {
    for (int64_t d : t.shape) {
      if (d < 0) fail("tensor '" + t.name + "' has a negative dimension");
      if (d != 0 && numel > std::numeric_limits<int64_t>::max() / d) fail("tensor '" + t.name + "' is too large");
      numel *= d;
    }
    g_.tRank_[id] = static_cast<int8_t>(t.shape.size());
    g_.tDimOff_[id] = static_cast<uint32_t>(g_.dims_.size());
    g_.dims_.insert(g_.dims_.end(), t.shape.begin(), t.shape.end());
  }
  g_.tKind_[id] = kind;
  g_.tProducer_[id] = producer;
  g_.tDType_[id] = t.dtype;
  const int64_t elemSize = dtypeSize(t.dtype);
  if (t.bytes > kMaxTensorBytes) fail("tensor '" + t.name + "' is too large (" + std::to_string(t.bytes) + " bytes)");
  if (t.bytes < 0 && t.shapeKnown && elemSize > 0 && numel > std::numeric_limits<int64_t>::max() / elemSize)
    fail("tensor '" + t.name + "' is too large");
  g_.tBytes_[id] = t.bytes >= 0 ? t.bytes : (t.shapeKnown ? numel * elemSize : 0);
  if (g_.tBytes_[id] > kMaxTensorBytes) fail("tensor '" + t.name + "' is too large");
  g_.tName_[id] = std::move(t.name);
  resolved_[id] = 1;
}

TensorId GraphBuilder::tensorRef(const std::string& name) {
  if (name.empty()) fail("an op input names no tensor");
  TensorId id = g_.findTensor(name);
  if (id != kNone) return id;
  id = newTensor(TensorDesc{name, {}, DType::Unknown, false, 0}, TensorKind::Activation, kNone);
  resolved_[id] = 0;
  return id;
}

TensorId GraphBuilder::pendingRef(const std::string& name, const std::string* byOp) const {
  TensorId id = g_.findTensor(name);
  if (id != kNone && resolved_[id])
    fail("tensor '" + name + "' is defined twice" + (byOp ? " (second time by op '" + *byOp + "')" : ""));
  return id;
}

void GraphBuilder::shrinkToFit() {
  auto shrink = [](auto&... v) { (v.shrink_to_fit(), ...); };
  shrink(g_.opName_, g_.opType_, g_.opTypes_, g_.opScope_, g_.flops_, g_.bytesRead_, g_.bytesWritten_,
         g_.paramBytes_, g_.coloc_, g_.colocNames_, g_.device_, g_.deviceNames_, g_.role_, g_.forwardOf_, g_.inOff_, g_.outOff_,
         g_.fanInOff_, g_.fanOutOff_, g_.in_, g_.out_, g_.fanIn_, g_.fanOut_, g_.topo_, g_.tName_, g_.tKind_,
         g_.tProducer_, g_.tDType_, g_.tRank_, g_.tDimOff_, g_.dims_, g_.tBytes_, g_.consOff_, g_.cons_,
         g_.scopeName_, g_.scopeParent_, g_.scopeDepth_);
}

TensorId GraphBuilder::addGraphInput(TensorDesc t) {
  if (t.name.empty()) fail("a graph input has no name");
  TensorId id = pendingRef(t.name, nullptr);
  if (id == kNone) return newTensor(std::move(t), TensorKind::GraphInput, kNone);
  setTensor(id, std::move(t), TensorKind::GraphInput, kNone);
  return id;
}

TensorId GraphBuilder::addParameter(TensorDesc t) {
  TensorId id = addGraphInput(std::move(t));
  g_.tKind_[id] = TensorKind::Parameter;
  return id;
}

OpId GraphBuilder::addOp(OpDesc op) {
  // Validate everything first, so a rejected op leaves the builder unchanged.
  if (op.name.empty()) fail("an op of type '" + op.type + "' has no name");
  if (op.type.empty()) fail("op '" + op.name + "' has no type");
  auto op_id = static_cast<OpId>(g_.opName_.size());
  if (g_.findOp(op.name) != kNone) fail("duplicate op name '" + op.name + "'");
  for (TensorId t : op.inputs)
    if (t < 0 || t >= static_cast<TensorId>(g_.tName_.size()))
      fail("op '" + op.name + "' has an input that is not a tensor of this graph");
  if (op.forwardOf != kNone && (op.forwardOf < 0 || op.forwardOf >= op_id))
    fail("op '" + op.name + "' is derived from an op that does not precede it");
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    TensorDesc& t = op.outputs[i];
    if (t.name.empty()) t.name = op.name + ":" + std::to_string(i);
    pendingRef(t.name, &op.name);
    for (size_t k = 0; k < i; ++k)
      if (op.outputs[k].name == t.name) fail("op '" + op.name + "' produces tensor '" + t.name + "' twice");
  }

  auto [typeIt, newType] = typeIds_.emplace(op.type, static_cast<int32_t>(g_.opTypes_.size()));
  if (newType) g_.opTypes_.push_back(op.type);
  int32_t coloc = kNone;
  if (!op.colocGroup.empty()) {
    auto [it, isNew] = colocIds_.emplace(op.colocGroup, static_cast<int32_t>(g_.colocNames_.size()));
    if (isNew) g_.colocNames_.push_back(op.colocGroup);
    coloc = it->second;
  }
  int32_t device = kNone;
  if (!op.device.empty()) {
    auto [it, isNew] = deviceIds_.emplace(op.device, static_cast<int32_t>(g_.deviceNames_.size()));
    if (isNew) g_.deviceNames_.push_back(op.device);
    device = it->second;
  }
  g_.in_.insert(g_.in_.end(), op.inputs.begin(), op.inputs.end());
  g_.inOff_.push_back(static_cast<int32_t>(g_.in_.size()));
  for (TensorDesc& t : op.outputs) {
    TensorId id = g_.findTensor(t.name);
    if (id == kNone) {
      id = newTensor(std::move(t), TensorKind::Activation, op_id);
    } else {
      setTensor(id, std::move(t), TensorKind::Activation, op_id);
    }
    g_.out_.push_back(id);
  }
  g_.outOff_.push_back(static_cast<int32_t>(g_.out_.size()));

  g_.opName_.push_back(std::move(op.name));
  g_.opIndex_.insert(op_id, g_.opName_);
  g_.opType_.push_back(typeIt->second);
  g_.opScope_.push_back(0);
  g_.flops_.push_back(op.flops);
  g_.bytesRead_.push_back(op.bytesRead);
  g_.bytesWritten_.push_back(op.bytesWritten);
  paramReq_.push_back(op.paramBytes);
  g_.coloc_.push_back(coloc);
  g_.device_.push_back(device);
  g_.role_.push_back(op.role);
  g_.forwardOf_.push_back(op.forwardOf);
  if (op.costEstimated) {
    g_.estimated_.resize(g_.forwardOf_.size(), 0);
    g_.estimated_.back() = 1;
    ++g_.numEstimated_;
  }
  return op_id;
}

std::span<const int64_t> GraphBuilder::shapeOf(TensorId t) const { return g_.shape(t); }

void GraphBuilder::deriveCsr() {
  const int32_t n = g_.numOps(), nt = g_.numTensors();
  // tensor consumers (an op reading a tensor twice counts once): lastReader[t] == op marks it
  std::vector<int32_t> count(nt + 1, 0), lastReader(nt, kNone);
  for (OpId op = 0; op < n; ++op)
    for (TensorId t : g_.inputs(op))
      if (lastReader[t] != op) {
        lastReader[t] = op;
        ++count[t + 1];
      }
  for (int32_t t = 0; t < nt; ++t) count[t + 1] += count[t];
  g_.consOff_ = count;
  g_.cons_.assign(count[nt], 0);
  std::vector<int32_t> fill(count.begin(), count.end() - 1);
  std::fill(lastReader.begin(), lastReader.end(), kNone);
  for (OpId op = 0; op < n; ++op)
    for (TensorId t : g_.inputs(op))
      if (lastReader[t] != op) {
        lastReader[t] = op;
        g_.cons_[fill[t]++] = op;
      }
  // fan-in: distinct producers of an op's inputs, ascending
  g_.fanInOff_.assign(n + 1, 0);
  g_.fanIn_.clear();
  g_.fanIn_.reserve(g_.in_.size());
  for (OpId op = 0; op < n; ++op) {
    auto begin = g_.fanIn_.size();
    for (TensorId t : g_.inputs(op))
      if (g_.tProducer_[t] != kNone) g_.fanIn_.push_back(g_.tProducer_[t]);
    std::sort(g_.fanIn_.begin() + static_cast<long>(begin), g_.fanIn_.end());
    g_.fanIn_.erase(std::unique(g_.fanIn_.begin() + static_cast<long>(begin), g_.fanIn_.end()), g_.fanIn_.end());
    g_.fanInOff_[op + 1] = static_cast<int32_t>(g_.fanIn_.size());
  }
  g_.fanIn_.shrink_to_fit();
  // fan-out: transpose of fan-in (ascending consumers because we scan consumers in order)
  g_.fanOutOff_.assign(n + 1, 0);
  for (OpId c : g_.fanIn_) ++g_.fanOutOff_[c + 1];
  for (OpId op = 0; op < n; ++op) g_.fanOutOff_[op + 1] += g_.fanOutOff_[op];
  g_.fanOut_.assign(g_.fanIn_.size(), 0);
  std::vector<int32_t> pos(g_.fanOutOff_.begin(), g_.fanOutOff_.end() - 1);
  for (OpId op = 0; op < n; ++op)
    for (OpId p : g_.fanIn(op)) g_.fanOut_[pos[p]++] = op;
}

void GraphBuilder::deriveTopoOrder() {
  const int32_t n = g_.numOps();
  std::vector<int32_t> indeg(n);
  for (OpId op = 0; op < n; ++op) indeg[op] = static_cast<int32_t>(g_.fanIn(op).size());
  g_.topo_.clear();
  g_.topo_.reserve(n);
  for (OpId op = 0; op < n; ++op)
    if (indeg[op] == 0) g_.topo_.push_back(op);
  for (size_t head = 0; head < g_.topo_.size(); ++head)
    for (OpId c : g_.fanOut(g_.topo_[head]))
      if (--indeg[c] == 0) g_.topo_.push_back(c);
  if (static_cast<int32_t>(g_.topo_.size()) == n) return;
  // Every op left has a predecessor that is left too: walk predecessors until one repeats.
  OpId start = 0;
  while (indeg[start] == 0) ++start;
  std::vector<int32_t> seenAt(n, -1);
  std::vector<OpId> path;
  OpId cur = start;
  while (seenAt[cur] < 0) {
    seenAt[cur] = static_cast<int32_t>(path.size());
    path.push_back(cur);
    for (OpId p : g_.fanIn(cur))
      if (indeg[p] > 0) { cur = p; break; }
  }
  std::string cycle;
  int shown = 0;
  for (auto i = path.size(); i-- > static_cast<size_t>(seenAt[cur]);) {
    if (shown++ == 6) { cycle += " -> ..."; break; }
    cycle += (cycle.empty() ? "" : " -> ") + g_.opName_[path[i]];
  }
  cycle += " -> " + g_.opName_[path.back()];
  fail("graph has a cycle (" + std::to_string(n - static_cast<int32_t>(g_.topo_.size())) +
       " ops involved): " + cycle);
}

// Iterative: interns every missing prefix of `path` from the deepest known ancestor down.
ScopeId GraphBuilder::internScope(std::string_view path) {
  auto it = scopeIds_.find(std::string(path));
  if (it != scopeIds_.end()) return it->second;
  std::vector<size_t> cuts;  // ends of the prefixes still to intern, deepest first
  size_t end = path.size();
  ScopeId parent = 0;
  while (true) {
    cuts.push_back(end);
    auto slash = path.rfind('/', end - 1);
    if (slash == std::string_view::npos) break;
    auto known = scopeIds_.find(std::string(path.substr(0, slash)));
    if (known != scopeIds_.end()) {
      parent = known->second;
      break;
    }
    end = slash;
  }
  for (auto c = cuts.rbegin(); c != cuts.rend(); ++c) {
    auto id = static_cast<ScopeId>(g_.scopeName_.size());
    if (g_.scopeDepth_[parent] + 1 > kMaxScopeDepth)
      fail("op scope '" + std::string(path.substr(0, 80)) + "...' is nested deeper than " +
           std::to_string(kMaxScopeDepth) + " levels");
    g_.scopeName_.emplace_back(path.substr(0, *c));
    g_.scopeParent_.push_back(parent);
    g_.scopeDepth_.push_back(g_.scopeDepth_[parent] + 1);
    scopeIds_.emplace(g_.scopeName_.back(), id);
    parent = id;
  }
  return parent;
}

void GraphBuilder::deriveScopes() {
  g_.scopeName_.assign(1, "");
  g_.scopeParent_.assign(1, kNone);
  g_.scopeDepth_.assign(1, 0);
  scopeIds_.clear();
  scopeIds_.emplace("", 0);
  std::string_view last;
  ScopeId lastId = 0;
  for (OpId op = 0; op < g_.numOps(); ++op) {
    std::string_view s = scopeOfName(g_.opName_[op]);
    if (op == 0 || s != last) {
      lastId = internScope(s);
      last = s;
    }
    g_.opScope_[op] = lastId;
  }
}

void GraphBuilder::deriveBytes(const std::vector<int64_t>& requestedParamBytes) {
  const int32_t n = g_.numOps();
  g_.paramBytes_.assign(n, 0);
  for (TensorId t = 0; t < g_.numTensors(); ++t)
    if (g_.tKind_[t] == TensorKind::Parameter && !g_.consumers(t).empty())
      g_.paramBytes_[g_.consumers(t)[0]] = saturatingAdd(g_.paramBytes_[g_.consumers(t)[0]], g_.tBytes_[t]);
  for (OpId op = 0; op < n; ++op) {
    if (requestedParamBytes[op] >= 0) g_.paramBytes_[op] = requestedParamBytes[op];
    if (g_.bytesRead_[op] < 0) {
      int64_t b = 0;
      for (TensorId t : g_.inputs(op)) b = saturatingAdd(b, g_.tBytes_[t]);
      g_.bytesRead_[op] = b;
    }
    if (g_.bytesWritten_[op] < 0) {
      int64_t b = 0;
      for (TensorId t : g_.outputs(op)) b = saturatingAdd(b, g_.tBytes_[t]);
      g_.bytesWritten_[op] = b;
    }
  }
}

Graph GraphBuilder::build(std::string graphName) && {
  for (TensorId t = 0; t < g_.numTensors(); ++t) {
    if (resolved_[t]) continue;
    // name the first op that reads it
    for (OpId op = 0; op < g_.numOps(); ++op)
      for (TensorId in : g_.inputs(op))
        if (in == t) fail("op '" + g_.opName_[op] + "' reads tensor '" + g_.tName_[t] + "', which nothing produces");
    fail("tensor '" + g_.tName_[t] + "' is referenced but never defined");
  }
  for (OpId op = 0; op < g_.numOps(); ++op)
    if (!(g_.flops_[op] >= 0)) fail("op '" + g_.opName_[op] + "' has negative or invalid FLOPs");
  deriveCsr();
  deriveTopoOrder();
  deriveScopes();
  deriveBytes(paramReq_);
  if (!g_.estimated_.empty()) g_.estimated_.resize(g_.forwardOf_.size(), 0);
  g_.name_ = std::move(graphName);
  shrinkToFit();
  return std::move(g_);
}

}  // namespace gp
