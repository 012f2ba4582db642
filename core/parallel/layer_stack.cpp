#include "parallel/layer_stack.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_set>

#include "base/error.h"
#include "cost/kernel_shape.h"
#include "parallel/attention_core.h"
#include "parallel/saved_tensors.h"

namespace gp {
namespace {

// "layer_12" / "layers.12" -> ("layer", 12); nullopt when the name does not end in _N or .N.
bool splitIndex(std::string_view last, std::string_view& base, int& index) {
  const size_t sep = last.find_last_of("_.");
  if (sep == std::string_view::npos || sep + 1 >= last.size()) return false;
  const std::string_view digits = last.substr(sep + 1);
  if (digits.size() > 6 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  std::from_chars(digits.data(), digits.data() + digits.size(), index);
  base = last.substr(0, sep);
  return true;
}

std::string_view lastComponent(const std::string& scope) {
  const size_t slash = scope.find_last_of('/');
  return slash == std::string::npos ? std::string_view(scope) : std::string_view(scope).substr(slash + 1);
}

int64_t elementsOf(const Graph& g, TensorId t) {
  if (g.hasShape(t)) {
    int64_t n = 1;
    for (int64_t d : g.shape(t)) n *= d;
    return n;
  }
  const int size = dtypeSize(g.dtype(t));
  return g.tensorBytes(t) / (size > 0 ? size : 4);
}

// A family of numbered sibling scopes: members[i] = scope of index i. Merged parallel module
// lists keep the other lists' scopes of index i in aliases[i].
struct Family {
  std::string key;  // "<parent>/<base>" (merged: the lists' keys joined by " + ")
  std::vector<ScopeId> members;
  ScopeId parent = 0;
  int firstIndex = 0;
  std::vector<std::vector<ScopeId>> aliases;
  double flops = 0;
};

std::vector<Family> numberedFamilies(const Graph& g) {
  std::map<std::string, std::map<int, ScopeId>> byKey;
  for (ScopeId s = 1; s < g.numScopes(); ++s) {
    std::string_view base;
    int index = 0;
    if (!splitIndex(lastComponent(g.scopeName(s)), base, index)) continue;
    const ScopeId parent = g.scopeParent(s);
    std::string key = (parent > 0 ? g.scopeName(parent) + "/" : std::string()) + std::string(base);
    byKey[key].emplace(index, s);
  }
  std::vector<Family> out;
  for (auto& [key, members] : byKey) {
    if (members.size() < 2) continue;
    // Contiguous indices from 0 or 1.
    const int first = members.begin()->first;
    if (first > 1 || members.rbegin()->first - first + 1 != static_cast<int>(members.size())) continue;
    Family f{key, {}, g.scopeParent(members.begin()->second), first, {}, 0};
    for (auto& [i, s] : members) f.members.push_back(s);
    f.aliases.resize(f.members.size());
    out.push_back(std::move(f));
  }
  return out;
}

// Member scope -> family index (aliases included), and the outermost member scope above each
// scope (root first wins; an alias counts as its layer's member), or -1.
struct Membership {
  std::vector<int32_t> scopeFamily;
  std::vector<ScopeId> memberOf;
};

Membership membership(const Graph& g, const std::vector<Family>& families) {
  Membership m;
  m.scopeFamily.assign(static_cast<size_t>(g.numScopes()), -1);
  std::vector<ScopeId> layerScope(static_cast<size_t>(g.numScopes()), -1);
  for (size_t f = 0; f < families.size(); ++f)
    for (size_t i = 0; i < families[f].members.size(); ++i) {
      const ScopeId member = families[f].members[i];
      for (ScopeId s : families[f].aliases[i]) {
        m.scopeFamily[static_cast<size_t>(s)] = static_cast<int32_t>(f);
        layerScope[static_cast<size_t>(s)] = member;
      }
      m.scopeFamily[static_cast<size_t>(member)] = static_cast<int32_t>(f);
      layerScope[static_cast<size_t>(member)] = member;
    }
  m.memberOf.assign(static_cast<size_t>(g.numScopes()), -1);
  for (ScopeId s = 1; s < g.numScopes(); ++s) {
    const ScopeId parentMember = m.memberOf[static_cast<size_t>(g.scopeParent(s))];
    m.memberOf[static_cast<size_t>(s)] = parentMember >= 0 ? parentMember : layerScope[static_cast<size_t>(s)];
  }
  return m;
}

// Parallel module lists (attn.3, norm1.3, moe.3 under one parent, as some models keep each
// block's parts): sibling families with the same indices whose members run interleaved, every
// op of index i before any op of index i + 1, are one layer per index. The list whose index 0
// runs first names the layers; the others' scopes become aliases. Lists that run one after the
// other (a U-Net's down.N and up.N) stay apart.
void mergeParallelLists(const Graph& g, std::vector<Family>& families, const std::vector<int32_t>& topoPos) {
  const Membership before = membership(g, families);
  std::vector<int32_t> firstPos(static_cast<size_t>(g.numScopes()), INT32_MAX), lastPos(firstPos.size(), -1);
  for (OpId op = 0; op < g.numOps(); ++op) {
    const ScopeId m = before.memberOf[static_cast<size_t>(g.opScope(op))];
    if (m < 0 || g.role(op) != OpRole::Forward) continue;
    firstPos[static_cast<size_t>(m)] = std::min(firstPos[static_cast<size_t>(m)], topoPos[static_cast<size_t>(op)]);
    lastPos[static_cast<size_t>(m)] = std::max(lastPos[static_cast<size_t>(m)], topoPos[static_cast<size_t>(op)]);
  }
  std::map<std::tuple<ScopeId, int, size_t>, std::vector<size_t>> groups;  // (parent, first index, size)
  for (size_t f = 0; f < families.size(); ++f)
    if (before.memberOf[static_cast<size_t>(families[f].parent)] < 0)  // not nested in another family's member
      groups[{families[f].parent, families[f].firstIndex, families[f].members.size()}].push_back(f);
  std::vector<uint8_t> dropped(families.size(), 0);
  for (auto& [shape, lists] : groups) {
    if (lists.size() < 2) continue;
    const size_t n = std::get<2>(shape);
    bool interleaved = true;
    for (size_t i = 0; i < n && interleaved; ++i)
      for (size_t f : lists) {
        const auto s = static_cast<size_t>(families[f].members[i]);
        if (lastPos[s] < 0) interleaved = false;  // a member without forward ops
        for (size_t other : lists)
          if (i + 1 < n && lastPos[s] >= firstPos[static_cast<size_t>(families[other].members[i + 1])])
            interleaved = false;
      }
    if (!interleaved) continue;
    std::sort(lists.begin(), lists.end(), [&](size_t a, size_t b) {
      return firstPos[static_cast<size_t>(families[a].members[0])] < firstPos[static_cast<size_t>(families[b].members[0])];
    });
    Family& head = families[lists[0]];
    for (size_t k = 1; k < lists.size(); ++k) {
      const Family& other = families[lists[k]];
      head.key += " + " + other.key;
      for (size_t i = 0; i < n; ++i) head.aliases[i].push_back(other.members[i]);
      dropped[lists[k]] = 1;
    }
  }
  std::vector<Family> kept;
  for (size_t f = 0; f < families.size(); ++f)
    if (!dropped[f]) kept.push_back(std::move(families[f]));
  families = std::move(kept);
}

bool underExperts(const Graph& g, ScopeId s) {
  for (; s > 0; s = g.scopeParent(s))
    if (lastComponent(g.scopeName(s)) == "experts") return true;
  return false;
}

// Layers in data-dependency order: a layer comes after every layer it reads from, directly or
// through ops outside the layers (T5's decoder blocks after the last encoder block, whose
// output their cross-attention reads, though the decoder's first ops run earlier); ties keep
// the order given (first op in topological order). `order` unchanged when the dependencies
// form no order (layers feeding each other both ways).
template <typename Key>
std::vector<Key> dependencyOrder(const Graph& g, std::span<const OpId> topo, const std::vector<ScopeId>& memberOf,
                                 std::vector<Key> order) {
  const size_t L = order.size();
  if (L < 2) return order;
  std::map<int32_t, size_t> indexOf;  // member scope -> position in `order`
  for (size_t i = 0; i < L; ++i) indexOf[order[i].member] = i;
  auto layerOf = [&](OpId op) -> int64_t {
    if (g.role(op) != OpRole::Forward) return -1;
    const auto it = indexOf.find(memberOf[static_cast<size_t>(g.opScope(op))]);
    return it == indexOf.end() ? -1 : static_cast<int64_t>(it->second);
  };
  // Per op, the layers upstream of it (a bitset over L), in topological order.
  const size_t words = (L + 63) / 64;
  std::vector<uint64_t> upstream(static_cast<size_t>(g.numOps()) * words, 0);
  std::vector<std::vector<uint8_t>> before(L, std::vector<uint8_t>(L, 0));  // before[b][a]: a feeds b
  for (OpId op : topo) {
    uint64_t* mine = &upstream[static_cast<size_t>(op) * words];
    const int64_t self = layerOf(op);
    for (TensorId t : g.inputs(op)) {
      const OpId p = g.producer(t);
      if (p < 0) continue;
      const uint64_t* theirs = &upstream[static_cast<size_t>(p) * words];
      for (size_t w = 0; w < words; ++w) mine[w] |= theirs[w];
      if (const int64_t from = layerOf(p); from >= 0) mine[static_cast<size_t>(from) / 64] |= uint64_t{1} << (from % 64);
    }
    if (self < 0) continue;
    for (size_t a = 0; a < L; ++a)
      if (a != static_cast<size_t>(self) && (mine[a / 64] >> (a % 64) & 1)) before[static_cast<size_t>(self)][a] = 1;
  }
  // Kahn's algorithm, the earliest given position first.
  std::vector<int> pending(L, 0);
  for (size_t b = 0; b < L; ++b)
    for (size_t a = 0; a < L; ++a) pending[b] += before[b][a];
  std::vector<Key> out;
  std::vector<uint8_t> done(L, 0);
  while (out.size() < L) {
    size_t next = L;
    for (size_t i = 0; i < L && next == L; ++i)
      if (!done[i] && pending[i] == 0) next = i;
    if (next == L) return order;  // a cycle: no dependency order
    done[next] = 1;
    out.push_back(order[next]);
    for (size_t b = 0; b < L; ++b)
      if (before[b][next]) --pending[b];
  }
  return out;
}

// The bytes of t before the ops that repeat it along a dimension (grouped-query attention's
// keys and values: Expand, Tile, RepeatInterleave, and the reshapes around them).
int64_t bytesBeforeRepeat(const Graph& g, TensorId t) {
  static const std::unordered_set<std::string> kRepeat = {"expand", "broadcastto", "tile", "repeat", "repeatinterleave",
                                                          "reshape", "view", "unsqueeze"};
  int64_t least = g.tensorBytes(t);
  for (OpId prod = g.producer(t); prod != kNone && kRepeat.contains(normaliseOpType(g.opType(prod)));) {
    const auto ins = g.inputs(prod);
    if (ins.empty() || g.tensorKind(ins[0]) != TensorKind::Activation) break;
    least = std::min(least, g.tensorBytes(ins[0]));
    prod = g.producer(ins[0]);
  }
  return least;
}

}  // namespace

bool LayerStack::tpDivides(int tp) const {
  return tp >= 1 && (heads == 0 || heads % tp == 0) && (kvHeads == 0 || kvHeads % tp == 0) && (hidden == 0 || hidden % tp == 0);
}

int64_t LayerStack::totalParams() const {
  int64_t n = prologue.params + epilogue.params;
  for (const StackPart& l : layers) n += l.params;
  return n;
}

double LayerStack::forwardFlopsPerSample() const {
  double f = prologue.forwardFlops + epilogue.forwardFlops;
  for (const StackPart& l : layers) f += l.forwardFlops;
  return f;
}

LayerStack detectLayerStack(const Graph& g, const std::string& source, double samplesInGraph) {
  if (samplesInGraph <= 0) throw Error(source, "the samples the graph was built for must be positive");
  const int32_t n = g.numOps();
  const auto topo = g.topoOrder();
  std::vector<int32_t> topoPos(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) topoPos[static_cast<size_t>(topo[static_cast<size_t>(i)])] = i;
  double totalFlops = 0;
  for (OpId op = 0; op < n; ++op)
    if (g.role(op) == OpRole::Forward) totalFlops += g.flops(op);

  // Families nested inside a member of another are not layers.
  std::vector<Family> families = numberedFamilies(g);
  mergeParallelLists(g, families, topoPos);
  const Membership members = membership(g, families);
  const std::vector<int32_t>& scopeFamily = members.scopeFamily;
  const std::vector<ScopeId>& memberOf = members.memberOf;
  for (OpId op = 0; op < n; ++op) {
    const int32_t m = memberOf[static_cast<size_t>(g.opScope(op))];
    if (m >= 0 && g.role(op) == OpRole::Forward) families[static_cast<size_t>(scopeFamily[static_cast<size_t>(m)])].flops += g.flops(op);
  }
  double layerFlops = 0;
  double bestFamily = 0;
  std::string bestKey;
  for (const Family& f : families) {
    layerFlops += f.flops;
    if (f.flops > bestFamily) bestFamily = f.flops, bestKey = f.key;
  }
  if (layerFlops < 0.5 * totalFlops || layerFlops <= 0) {
    std::string why = "no repeated layer structure: pipeline and tensor parallelism need sibling scopes named <prefix>_N "
                      "(N = 0, 1, ...) holding most of the FLOPs";
    if (!bestKey.empty())
      why += "; the largest family, " + bestKey + "_N, holds " +
             std::to_string(static_cast<int>(std::lround(100 * bestFamily / std::max(totalFlops, 1.0)))) + " %";
    throw Error(source, why);
  }

  // Layers in the order the graph runs them (their first op in topological order).
  struct LayerKey {
    int32_t member, firstPos;
  };
  std::map<int32_t, int32_t> firstPosOf;
  for (OpId op = 0; op < n; ++op) {
    const int32_t m = memberOf[static_cast<size_t>(g.opScope(op))];
    if (m < 0 || g.role(op) != OpRole::Forward) continue;
    auto [it, inserted] = firstPosOf.emplace(m, topoPos[static_cast<size_t>(op)]);
    if (!inserted) it->second = std::min(it->second, topoPos[static_cast<size_t>(op)]);
  }
  std::vector<LayerKey> order;
  for (auto [m, p] : firstPosOf) order.push_back({m, p});
  std::sort(order.begin(), order.end(), [](const LayerKey& a, const LayerKey& b) { return a.firstPos < b.firstPos; });
  order = dependencyOrder(g, topo, memberOf, order);
  std::map<int32_t, int32_t> layerOfMember;
  LayerStack st;
  st.model = g.name();
  st.samplesInGraph = samplesInGraph;
  st.prologue.name = "prologue";
  st.epilogue.name = "epilogue";
  for (const LayerKey& k : order) {
    layerOfMember[k.member] = st.numLayers();
    const Family& f = families[static_cast<size_t>(scopeFamily[static_cast<size_t>(k.member)])];
    StackPart p;
    p.name = g.scopeName(k.member);
    const auto index = static_cast<size_t>(std::find(f.members.begin(), f.members.end(), k.member) - f.members.begin());
    for (ScopeId alias : f.aliases[index]) p.name += " + " + g.scopeName(alias);
    p.kind = f.key;
    st.layers.push_back(std::move(p));
  }
  const int32_t L = st.numLayers();

  // Part of every forward op: -1 prologue, 0..L-1 layers, L epilogue.
  std::vector<int32_t> part(static_cast<size_t>(n), -1);
  std::vector<uint8_t> inLayer(static_cast<size_t>(n), 0);
  for (OpId op : topo) {
    if (g.role(op) != OpRole::Forward) continue;
    const int32_t m = memberOf[static_cast<size_t>(g.opScope(op))];
    if (m >= 0) {
      part[static_cast<size_t>(op)] = layerOfMember.at(m);
      inLayer[static_cast<size_t>(op)] = 1;
      continue;
    }
    int32_t p = -1;
    for (OpId in : g.fanIn(op)) p = std::max(p, part[static_cast<size_t>(in)]);
    part[static_cast<size_t>(op)] = p;
  }
  for (OpId op = 0; op < n; ++op)
    if (!inLayer[static_cast<size_t>(op)] && part[static_cast<size_t>(op)] == L - 1) part[static_cast<size_t>(op)] = L;
  auto partOf = [&](int32_t p) -> StackPart& { return p < 0 ? st.prologue : p >= L ? st.epilogue : st.layers[static_cast<size_t>(p)]; };

  // Live activation bytes across each boundary (after part p, for p = -1 .. L-1), and the
  // hidden-sized tensor: the one leaving layer 0 for layer 1 produced last (the residual
  // stream; tensors computed once and shared by later layers, like T5's position bias, come
  // earlier).
  std::vector<double> cut(static_cast<size_t>(L + 2), 0.0);
  int64_t hiddenElems = 0;
  int32_t hiddenPos = -1;
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    const OpId prod = g.producer(t);
    if (prod == kNone || g.tensorKind(t) != TensorKind::Activation || g.role(prod) != OpRole::Forward) continue;
    const int32_t from = part[static_cast<size_t>(prod)];
    int32_t to = from;
    for (OpId c : g.consumers(t))
      if (g.role(c) == OpRole::Forward) to = std::max(to, part[static_cast<size_t>(c)]);
    for (int32_t b = from; b < to; ++b) cut[static_cast<size_t>(b + 1)] += static_cast<double>(g.tensorBytes(t));
    if (from == 0 && to >= 1 && L >= 2 && topoPos[static_cast<size_t>(prod)] > hiddenPos) {
      hiddenPos = topoPos[static_cast<size_t>(prod)];
      hiddenElems = elementsOf(g, t);
      st.hidden = g.hasShape(t) && !g.shape(t).empty() ? g.shape(t).back() : 0;
      st.activationType = g.dtype(t);
    }
  }
  st.prologue.outputBytes = cut[0] / samplesInGraph;
  if (st.hidden > 0) st.seqLen = std::llround(static_cast<double>(hiddenElems) / static_cast<double>(st.hidden) / samplesInGraph);
  for (int32_t l = 0; l < L; ++l) st.layers[static_cast<size_t>(l)].outputBytes = cut[static_cast<size_t>(l + 1)] / samplesInGraph;
  // The epilogue hands its outputs (the logits) to the loss: the forward tensors nothing reads.
  for (OpId op = 0; op < n; ++op) {
    if (g.role(op) != OpRole::Forward || part[static_cast<size_t>(op)] < L) continue;
    for (TensorId t : g.outputs(op)) {
      bool read = false;
      for (OpId c : g.consumers(t)) read = read || g.role(c) == OpRole::Forward;
      if (!read) st.epilogue.outputBytes += static_cast<double>(g.tensorBytes(t)) / samplesInGraph;
    }
  }

  // Attention cores: each op's core, and the core's entry in its part.
  const std::vector<AttentionCore> cores = findAttentionCores(g);
  std::vector<int32_t> coreOf(static_cast<size_t>(n), -1);
  std::vector<std::pair<int32_t, int32_t>> coreSlot(cores.size(), {0, -1});  // (part, index in its attention)
  for (size_t c = 0; c < cores.size(); ++c) {
    const AttentionCore& core = cores[c];
    for (OpId op : core.ops) coreOf[static_cast<size_t>(op)] = static_cast<int32_t>(c);
    StackPart& sp = partOf(part[static_cast<size_t>(core.softmax)]);
    coreSlot[c] = {part[static_cast<size_t>(core.softmax)], static_cast<int32_t>(sp.attention.size())};
    StackAttention a;
    auto bytes = [&](TensorId t) { return static_cast<double>(g.tensorBytes(t)) / samplesInGraph; };
    a.ioBytes = bytes(core.q) + bytes(core.k) + bytes(core.v) + bytes(core.out);
    a.outBytes = bytes(core.out);
    a.statBytes = 4.0 * static_cast<double>(core.rows) / samplesInGraph;
    a.dtype = g.dtype(core.out);
    a.causal = core.causal;
    sp.attention.push_back(a);
  }
  // The cores' outputs and the views of them (a fused kernel's output reshaped for the output
  // projection is the same storage): per tensor, its core, or -1.
  std::vector<int32_t> viewOfCore(static_cast<size_t>(g.numTensors()), -1);
  for (size_t c = 0; c < cores.size(); ++c) viewOfCore[static_cast<size_t>(cores[c].out)] = static_cast<int32_t>(c);
  static const std::unordered_set<std::string> kViews = {"transpose", "permute", "reshape", "view", "squeeze",
                                                         "unsqueeze", "flatten", "contiguous"};
  auto attentionOf = [&](OpId op) -> StackAttention& {
    const auto [p, i] = coreSlot[static_cast<size_t>(coreOf[static_cast<size_t>(op)])];
    return partOf(p).attention[static_cast<size_t>(i)];
  };
  std::vector<int32_t> savedIn(static_cast<size_t>(g.numTensors()), INT_MIN);  // part that keeps the tensor
  const std::vector<char> requiresGrad = tensorsRequiringGrad(g, topo);

  // Tensor-parallel split, propagated in topological order within each part.
  std::vector<uint8_t> sharded(static_cast<size_t>(g.numTensors()), 0);
  std::vector<int32_t> gradReduced(static_cast<size_t>(g.numTensors()), -1);
  std::vector<uint8_t> opSharded(static_cast<size_t>(n), 0);  // part that counted its backward all-reduce
  const double smallOutput = static_cast<double>(hiddenElems) / 8;
  for (OpId op : topo) {
    if (g.role(op) != OpRole::Forward) continue;
    const int32_t p = part[static_cast<size_t>(op)];
    StackPart& sp = partOf(p);
    StackOp so;
    so.cls = classifyOp(g.opType(op));
    so.expert = underExperts(g, g.opScope(op));
    so.flops = g.flops(op) / samplesInGraph;
    bool readsParam = false, readsSharded = false;
    TensorId activationIn = kNone;
    double paramRead = 0;
    for (TensorId t : g.inputs(op)) {
      if (g.tensorKind(t) == TensorKind::Parameter) {
        readsParam = true;
        paramRead += static_cast<double>(g.tensorBytes(t));
        continue;
      }
      // A tensor from another part arrives whole (the previous stage sends it gathered).
      const OpId prod = g.producer(t);
      if (sharded[static_cast<size_t>(t)] && prod != kNone && part[static_cast<size_t>(prod)] == p) readsSharded = true;
      if (activationIn == kNone) activationIn = t;
    }
    const auto outs = g.outputs(op);
    double outElems = 0, outBytes = 0;
    for (TensorId t : outs) outElems += static_cast<double>(elementsOf(g, t)), outBytes += static_cast<double>(g.tensorBytes(t));
    so.dtype = !outs.empty() ? g.dtype(outs[0]) : DType::F32;
    so.paramBytesRead = paramRead;
    so.activationBytes = std::max(0.0, static_cast<double>(g.bytesRead(op) + g.bytesWritten(op)) - paramRead) / samplesInGraph;
    so.metadata = isMetadataOp(g.opType(op));
    so.attentionCore = coreOf[static_cast<size_t>(op)] >= 0;
    const SavedForBackward keep = savedForBackward(g, op, requiresGrad);
    if (const auto ins = g.inputs(op); !ins.empty() && viewOfCore[static_cast<size_t>(ins[0])] >= 0 &&
                                       kViews.contains(normaliseOpType(g.opType(op))))
      for (TensorId t : g.outputs(op)) viewOfCore[static_cast<size_t>(t)] = viewOfCore[static_cast<size_t>(ins[0])];
    const AttentionCore* core = so.attentionCore ? &cores[static_cast<size_t>(coreOf[static_cast<size_t>(op)])] : nullptr;
    for (TensorId t : keep.tensors) {
      if (savedIn[static_cast<size_t>(t)] == p) continue;
      savedIn[static_cast<size_t>(t)] = p;
      const double bytes = static_cast<double>(g.tensorBytes(t)) / samplesInGraph;
      if (core) {  // the core's own accounts: Q, K, V kept however it runs, the rest only unfused
        StackAttention& a = attentionOf(op);
        if (t == core->q || t == core->k || t == core->v) {
          // Grouped-query keys and values: a fused kernel reads them before the repeat.
          const double unexpanded = static_cast<double>(bytesBeforeRepeat(g, t)) / samplesInGraph;
          a.keptBytes += unexpanded;
          a.innerBytes += bytes - unexpanded;
        } else {
          a.innerBytes += bytes;
        }
        continue;
      }
      const OpId prod = g.producer(t);
      const bool split = sharded[static_cast<size_t>(t)] && prod != kNone && part[static_cast<size_t>(prod)] == p;
      (split ? so.savedSplitBytes : so.savedBytes) += bytes;
      if (const int32_t c = viewOfCore[static_cast<size_t>(t)]; c >= 0) {
        const auto [cp, ci] = coreSlot[static_cast<size_t>(c)];
        partOf(cp).attention[static_cast<size_t>(ci)].outKeptAfter += bytes;
      }
    }
    if (core) attentionOf(op).innerBytes += keep.maskBytes / samplesInGraph;
    else so.savedBytes += keep.maskBytes / samplesInGraph;
    bool outSharded = false;
    if (so.cls == OpClass::MatMul && readsParam && !outs.empty()) {
      const std::span<const int64_t> shape = g.shape(outs[0]);
      const int64_t k = kernelShapeOf(g, op).reduction;
      if (!shape.empty() && shape.back() > 0 && k > 0) {
        so.gemmCols = shape.back();
        so.gemmDepth = k;
        so.gemmRows = static_cast<double>(elementsOf(g, outs[0])) / static_cast<double>(shape.back()) / samplesInGraph;
      }
    }
    if (so.cls == OpClass::MatMul && readsParam && outElems >= smallOutput) {
      so.split = TpSplit::Sharded;
      so.rowParallel = readsSharded;
      if (readsSharded) {  // row-parallel: partial sums, all-reduced
        ++sp.tpAllReducesForward;
        sp.tpAllReduceBytes = std::max(sp.tpAllReduceBytes, outBytes / samplesInGraph);
      } else {  // column-parallel: its input's gradient is all-reduced in backward, once per tensor
        outSharded = true;
        if (activationIn != kNone && gradReduced[static_cast<size_t>(activationIn)] != p) {
          gradReduced[static_cast<size_t>(activationIn)] = p;
          ++sp.tpAllReducesBackward;
        }
      }
    } else if (so.cls == OpClass::DataMovement && g.opType(op).find("Gather") != std::string_view::npos && !readsSharded &&
               paramRead / 4 >= 8 * static_cast<double>(hiddenElems) / samplesInGraph) {
      so.split = TpSplit::Sharded;  // vocabulary-parallel lookup: each rank its rows, output all-reduced
      ++sp.tpAllReducesForward;
      sp.tpAllReduceBytes = std::max(sp.tpAllReduceBytes, outBytes / samplesInGraph);
    } else if (readsSharded) {
      so.split = TpSplit::Sharded;
      outSharded = true;
    }
    for (TensorId t : outs) sharded[static_cast<size_t>(t)] = outSharded ? 1 : 0;
    opSharded[static_cast<size_t>(op)] = so.split == TpSplit::Sharded;
    sp.forwardFlops += so.flops;
    if (core) {
      StackAttention& a = attentionOf(op);
      a.flops += so.flops;
      a.sharded = a.sharded || so.split == TpSplit::Sharded;
    }
    sp.ops.push_back(so);
  }

  // Parameters, charged to the part of their first forward reader.
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    if (g.tensorKind(t) != TensorKind::Parameter) continue;
    OpId reader = kNone;
    for (OpId c : g.consumers(t))
      if (g.role(c) == OpRole::Forward && (reader == kNone || topoPos[static_cast<size_t>(c)] < topoPos[static_cast<size_t>(reader)]))
        reader = c;
    if (reader == kNone) continue;
    const int size = dtypeSize(g.dtype(t));
    const int64_t elems = g.tensorBytes(t) / (size > 0 ? size : 4);
    StackPart& sp = partOf(part[static_cast<size_t>(reader)]);
    sp.params += elems;
    if (part[static_cast<size_t>(reader)] < 0)
      for (OpId c : g.consumers(t))
        if (g.role(c) == OpRole::Forward && part[static_cast<size_t>(c)] >= L) {
          st.epilogue.tiedParams += elems;
          break;
        }
    if (opSharded[static_cast<size_t>(reader)]) sp.shardedParams += elems;
    if (underExperts(g, g.opScope(reader))) {
      sp.expertParams += elems;
      if (st.experts == 0 && g.hasShape(t) && g.shape(t).size() >= 3) st.experts = static_cast<int>(g.shape(t)[0]);
    }
  }

  // Mixture of experts: tokens cross into and out of the experts (the all-to-alls of expert
  // parallelism).
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    const OpId prod = g.producer(t);
    if (prod == kNone || g.role(prod) != OpRole::Forward || g.tensorKind(t) != TensorKind::Activation) continue;
    const bool fromExpert = underExperts(g, g.opScope(prod));
    for (OpId c : g.consumers(t)) {
      if (g.role(c) != OpRole::Forward || underExperts(g, g.opScope(c)) == fromExpert) continue;
      StackPart& sp = partOf(part[static_cast<size_t>(c)]);
      sp.moe = true;
      sp.moeDispatchBytes = std::max(sp.moeDispatchBytes, static_cast<double>(g.tensorBytes(t)) / samplesInGraph);
      break;
    }
  }

  // Attention heads: Q's heads in layer 0's first attention core, and the fewest heads K has
  // on its way there (grouped-query attention repeats each key / value head for its queries).
  for (const AttentionCore& core : cores) {
    if (part[static_cast<size_t>(core.softmax)] != 0 || !g.hasShape(core.q) || g.shape(core.q).size() != 4) continue;
    st.heads = static_cast<int>(g.shape(core.q)[1]);
    st.kvHeads = st.heads;
    TensorId k = core.k;
    for (int step = 0; step < 8 && k != kNone && g.hasShape(k) && g.shape(k).size() == 4; ++step) {
      st.kvHeads = std::min(st.kvHeads, static_cast<int>(g.shape(k)[1]));
      const OpId prod = g.producer(k);
      k = kNone;
      if (prod == kNone) break;
      for (TensorId in : g.inputs(prod))
        if (g.tensorKind(in) == TensorKind::Activation && g.hasShape(in) && g.shape(in).size() == 4) {
          k = in;
          break;
        }
    }
    if (st.kvHeads < 1 || st.heads % st.kvHeads != 0) st.kvHeads = st.heads;
    break;
  }
  // Without an attention core: a 4-D activation [.., heads, .., head_dim] in layer 0 whose two
  // inner dimensions multiply to the hidden size; heads is the earlier of the two.
  if (st.hidden > 0 && st.heads == 0) {
    for (OpId op = 0; op < n && st.heads == 0; ++op) {
      if (part[static_cast<size_t>(op)] != 0 || g.role(op) != OpRole::Forward) continue;
      for (TensorId t : g.outputs(op)) {
        if (!g.hasShape(t) || g.shape(t).size() != 4) continue;
        const auto s = g.shape(t);
        for (size_t i = 1; i < 4 && st.heads == 0; ++i)
          for (size_t j = i + 1; j < 4; ++j)
            if (s[i] > 1 && s[j] > 1 && s[i] * s[j] == st.hidden) {
              st.heads = static_cast<int>(s[i]);
              break;
            }
      }
    }
  }
  return st;
}

}  // namespace gp
