#include "graph/graph_builder.h"

#include <algorithm>
#include <limits>

#include "graph/error.h"

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
  return id;
}

void GraphBuilder::setTensor(TensorId id, TensorDesc&& t, TensorKind kind, OpId producer) {
  if (t.shapeKnown && t.shape.size() > 127) fail("tensor '" + t.name + "' has rank over 127");
  int64_t numel = 1;
  if (t.shapeKnown) {
    for (int64_t d : t.shape) {
      if (d < 0) fail("tensor '" + t.name + "' has a negative dimension");
      numel = (d != 0 && numel > std::numeric_limits<int64_t>::max() / d) ? -1 : numel * d;
      if (numel < 0) fail("tensor '" + t.name + "' is too large");
    }
    g_.tRank_[id] = static_cast<int8_t>(t.shape.size());
    g_.tDimOff_[id] = static_cast<uint32_t>(g_.dims_.size());
    g_.dims_.insert(g_.dims_.end(), t.shape.begin(), t.shape.end());
  }
  g_.tKind_[id] = kind;
  g_.tProducer_[id] = producer;
  g_.tDType_[id] = t.dtype;
  g_.tBytes_[id] = t.bytes >= 0 ? t.bytes : (t.shapeKnown ? numel * dtypeSize(t.dtype) : 0);
  g_.tName_[id] = std::move(t.name);
  resolved_[id] = 1;
}

TensorId GraphBuilder::tensorRef(const std::string& name) {
  if (name.empty()) fail("an op input names no tensor");
  auto it = tensorIds_.find(name);
  if (it != tensorIds_.end()) return it->second;
  TensorDesc d{name, {}, DType::Unknown, false, 0};
  TensorId id = newTensor(std::move(d), TensorKind::Activation, kNone);
  resolved_[id] = 0;
  tensorIds_.emplace(name, id);
  return id;
}

namespace {
// The forward reference of that name, kNone if there is none, -2 if it is already defined.
TensorId pendingRef(const std::unordered_map<std::string, TensorId>& ids, const std::vector<uint8_t>& resolved,
                    const std::string& name) {
  auto it = ids.find(name);
  if (it == ids.end()) return kNone;
  if (resolved[it->second]) return -2;  // duplicate
  return it->second;
}
}  // namespace

TensorId GraphBuilder::addGraphInput(TensorDesc t) {
  if (t.name.empty()) fail("a graph input has no name");
  TensorId id = pendingRef(tensorIds_, resolved_, t.name);
  if (id == -2) fail("duplicate tensor name '" + t.name + "'");
  if (id == kNone) {
    std::string key = t.name;
    id = newTensor(std::move(t), TensorKind::GraphInput, kNone);
    tensorIds_.emplace(std::move(key), id);
  } else {
    setTensor(id, std::move(t), TensorKind::GraphInput, kNone);
  }
  return id;
}

TensorId GraphBuilder::addParameter(TensorDesc t) {
  TensorId id = addGraphInput(std::move(t));
  g_.tKind_[id] = TensorKind::Parameter;
  return id;
}

OpId GraphBuilder::addOp(OpDesc op) {
  if (op.name.empty()) fail("an op of type '" + op.type + "' has no name");
  if (op.type.empty()) fail("op '" + op.name + "' has no type");
  auto op_id = static_cast<OpId>(g_.opName_.size());
  if (!opIds_.emplace(op.name, op_id).second) fail("duplicate op name '" + op.name + "'");
  for (TensorId t : op.inputs)
    if (t < 0 || t >= static_cast<TensorId>(g_.tName_.size()))
      fail("op '" + op.name + "' has an input that is not a tensor of this graph");

  auto [typeIt, newType] = typeIds_.emplace(op.type, static_cast<int32_t>(g_.opTypes_.size()));
  if (newType) g_.opTypes_.push_back(op.type);
  int32_t coloc = kNone;
  if (!op.colocGroup.empty()) {
    auto [it, isNew] = colocIds_.emplace(op.colocGroup, static_cast<int32_t>(g_.colocNames_.size()));
    if (isNew) g_.colocNames_.push_back(op.colocGroup);
    coloc = it->second;
  }
  if (op.forwardOf != kNone && (op.forwardOf < 0 || op.forwardOf >= op_id))
    fail("op '" + op.name + "' is derived from an op that does not precede it");

  g_.in_.insert(g_.in_.end(), op.inputs.begin(), op.inputs.end());
  g_.inOff_.push_back(static_cast<int32_t>(g_.in_.size()));
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    TensorDesc& t = op.outputs[i];
    if (t.name.empty()) t.name = op.name + ":" + std::to_string(i);
    TensorId id = pendingRef(tensorIds_, resolved_, t.name);
    if (id == -2) fail("tensor '" + t.name + "' is produced twice (second time by op '" + op.name + "')");
    if (id == kNone) {
      std::string key = t.name;
      id = newTensor(std::move(t), TensorKind::Activation, op_id);
      tensorIds_.emplace(std::move(key), id);
    } else {
      setTensor(id, std::move(t), TensorKind::Activation, op_id);
    }
    g_.out_.push_back(id);
  }
  g_.outOff_.push_back(static_cast<int32_t>(g_.out_.size()));

  g_.opName_.push_back(std::move(op.name));
  g_.opType_.push_back(typeIt->second);
  g_.opScope_.push_back(0);
  g_.flops_.push_back(op.flops);
  g_.bytesRead_.push_back(op.bytesRead);
  g_.bytesWritten_.push_back(op.bytesWritten);
  paramReq_.push_back(op.paramBytes);
  g_.coloc_.push_back(coloc);
  g_.device_.push_back(std::move(op.device));
  g_.role_.push_back(op.role);
  g_.forwardOf_.push_back(op.forwardOf);
  return op_id;
}

std::span<const int64_t> GraphBuilder::shapeOf(TensorId t) const { return g_.shape(t); }

void GraphBuilder::deriveCsr() {
  const int32_t n = g_.numOps(), nt = g_.numTensors();
  // tensor consumers (an op reading a tensor twice counts once)
  std::vector<int32_t> count(nt + 1, 0);
  for (OpId op = 0; op < n; ++op) {
    auto ins = g_.inputs(op);
    for (size_t i = 0; i < ins.size(); ++i)
      if (std::find(ins.begin(), ins.begin() + static_cast<long>(i), ins[i]) == ins.begin() + static_cast<long>(i))
        ++count[ins[i] + 1];
  }
  for (int32_t t = 0; t < nt; ++t) count[t + 1] += count[t];
  g_.consOff_ = count;
  g_.cons_.assign(count[nt], 0);
  std::vector<int32_t> fill(count.begin(), count.end() - 1);
  for (OpId op = 0; op < n; ++op) {
    auto ins = g_.inputs(op);
    for (size_t i = 0; i < ins.size(); ++i)
      if (std::find(ins.begin(), ins.begin() + static_cast<long>(i), ins[i]) == ins.begin() + static_cast<long>(i))
        g_.cons_[fill[ins[i]]++] = op;
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

ScopeId GraphBuilder::internScope(std::string_view path) {
  auto it = scopeIds_.find(std::string(path));
  if (it != scopeIds_.end()) return it->second;
  auto slash = path.rfind('/');
  ScopeId parent = internScope(slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash));
  auto id = static_cast<ScopeId>(g_.scopeName_.size());
  g_.scopeName_.emplace_back(path);
  g_.scopeParent_.push_back(parent);
  g_.scopeDepth_.push_back(g_.scopeDepth_[parent] + 1);
  scopeIds_.emplace(std::string(path), id);
  return id;
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
      g_.paramBytes_[g_.consumers(t)[0]] += g_.tBytes_[t];
  for (OpId op = 0; op < n; ++op) {
    if (requestedParamBytes[op] >= 0) g_.paramBytes_[op] = requestedParamBytes[op];
    if (g_.bytesRead_[op] < 0) {
      int64_t b = 0;
      for (TensorId t : g_.inputs(op)) b += g_.tBytes_[t];
      g_.bytesRead_[op] = b;
    }
    if (g_.bytesWritten_[op] < 0) {
      int64_t b = 0;
      for (TensorId t : g_.outputs(op)) b += g_.tBytes_[t];
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
  g_.name_ = std::move(graphName);
  Graph out = std::move(g_);
  out.rebuildLookups();
  return out;
}

}  // namespace gp
