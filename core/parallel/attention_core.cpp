#include "parallel/attention_core.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "graph/flops.h"
#include "graph/op_class.h"

namespace gp {
namespace {

int64_t elements(const Graph& g, TensorId t) { return g.hasShape(t) ? flops::numel(g.shape(t)) : -1; }

bool isSoftmax(const Graph& g, OpId op) {
  const std::string t = normaliseOpType(g.opType(op));
  return t == "softmax" || t == "safesoftmax";
}

// A product of two non-parameter tensors (Q K^T, P V), not a layer's weight product.
bool isActivationProduct(const Graph& g, OpId op) {
  if (classifyOp(g.opType(op)) != OpClass::MatMul) return false;
  const auto ins = g.inputs(op);
  if (ins.size() < 2) return false;
  return std::none_of(ins.begin(), ins.end(), [&](TensorId t) { return g.tensorKind(t) == TensorKind::Parameter; });
}

bool elementwiseStep(const Graph& g, OpId op) {
  const OpClass c = classifyOp(g.opType(op));
  return c == OpClass::Elementwise || c == OpClass::Other || isMetadataOp(g.opType(op)) ||
         normaliseOpType(g.opType(op)) == "where" || normaliseOpType(g.opType(op)) == "cast";
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool causalSource(const Graph& g, TensorId t) {
  std::vector<TensorId> frontier{t};
  for (int depth = 0; depth < 8 && !frontier.empty(); ++depth) {
    std::vector<TensorId> next;
    for (TensorId x : frontier) {
      if (lower(g.tensorName(x)).find("causal") != std::string::npos) return true;
      const OpId p = g.producer(x);
      if (p == kNone) continue;
      const std::string type = normaliseOpType(g.opType(p)), name = lower(g.opName(p));
      if (type == "trilu" || type == "triu" || type == "tril" || name.find("causal") != std::string::npos) return true;
      for (TensorId in : g.inputs(p)) next.push_back(in);
    }
    frontier = std::move(next);
    if (frontier.size() > 64) frontier.resize(64);
  }
  return false;
}

}  // namespace

std::vector<AttentionCore> findAttentionCores(const Graph& g) {
  std::vector<AttentionCore> out;
  for (OpId sm = 0; sm < g.numOps(); ++sm) {
    if (g.role(sm) != OpRole::Forward || !isSoftmax(g, sm) || g.inputs(sm).empty() || g.outputs(sm).empty()) continue;
    const TensorId probs = g.outputs(sm)[0];
    const int64_t size = elements(g, probs);
    if (size <= 0) continue;
    AttentionCore core;
    core.softmax = sm;
    std::vector<OpId> before;      // the scores chain, softmax back to Q K^T
    std::vector<TensorId> side;    // what joins the chain: scales, masks, biases
    TensorId cur = g.inputs(sm)[0];
    for (int step = 0; step < 8; ++step) {
      const OpId p = g.producer(cur);
      if (p == kNone || g.role(p) != OpRole::Forward) break;
      if (isActivationProduct(g, p)) {
        core.scores = p;
        break;
      }
      if (!elementwiseStep(g, p)) break;
      before.push_back(p);
      TensorId along = kNone;
      for (TensorId in : g.inputs(p)) {
        if (along == kNone && elements(g, in) == size && g.tensorKind(in) == TensorKind::Activation) along = in;
        else side.push_back(in);
      }
      if (along == kNone) break;
      cur = along;
    }
    if (core.scores == kNone) continue;
    // Forward: same-sized element-wise ops with one consumer (dropout, casts), then P V.
    TensorId at = probs;
    std::vector<OpId> after;
    for (int step = 0; step < 4 && core.context == kNone; ++step) {
      const auto cons = g.consumers(at);
      if (cons.size() != 1 || g.role(cons[0]) != OpRole::Forward) break;
      const OpId c = cons[0];
      if (isActivationProduct(g, c)) {
        core.context = c;
        break;
      }
      if (!elementwiseStep(g, c) || g.outputs(c).empty() || elements(g, g.outputs(c)[0]) != size) break;
      after.push_back(c);
      for (TensorId in : g.inputs(c))
        if (in != at) side.push_back(in);
      at = g.outputs(c)[0];
    }
    if (core.context == kNone || g.outputs(core.context).empty()) continue;
    const auto qk = g.inputs(core.scores);
    core.q = qk[0], core.k = qk[1];
    for (TensorId in : g.inputs(core.context))
      if (in != at) core.v = in;
    if (core.v == kNone) continue;
    core.out = g.outputs(core.context)[0];
    core.ops.push_back(core.scores);
    core.ops.insert(core.ops.end(), before.rbegin(), before.rend());
    core.ops.push_back(sm);
    core.ops.insert(core.ops.end(), after.begin(), after.end());
    core.ops.push_back(core.context);
    const auto shape = g.shape(probs);
    core.rows = shape.empty() || shape.back() <= 0 ? size : size / shape.back();
    core.causal = std::any_of(side.begin(), side.end(), [&](TensorId t) { return causalSource(g, t); });
    out.push_back(std::move(core));
  }
  return out;
}

}  // namespace gp
