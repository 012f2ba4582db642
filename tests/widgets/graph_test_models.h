// Small graphs for the graph view's tests, built the way exporters name things.
#pragma once
#include <string>
#include <vector>

#include <string_view>

#include "graph/graph_builder.h"
#include "graph/scope_tree.h"

namespace gptest {

// The Graph's scope of this full name, or kNone.
inline gp::ScopeId scopeNamed(const gp::Graph& g, const std::string& name) {
  for (gp::ScopeId s = 0; s < g.numScopes(); ++s)
    if (g.scopeName(s) == name) return s;
  return gp::kNone;
}

// The child of `parent` in the view's tree whose short name is `label`, or kNone.
inline gp::ScopeId childNamed(const gp::Graph& g, const gp::ScopeTree& t, gp::ScopeId parent, std::string_view label) {
  for (gp::ScopeId c : t.children(parent))
    if (t.shortName(g, c) == label) return c;
  return gp::kNone;
}

// An unrolled GRU seq2seq as torch.onnx.export flattens it (like build/corpus/seq2seq_gru_small):
// one embedding module looked up at every step of the encoder and then of the decoder (scopes
// `embed`, `embed_1` … `embed_{2 steps - 1}`, each reading a token slice made by loose
// `/Gather_k` ops), the encoder cell `enc`, `enc_1` …, the decoder cell `dec`, `dec_1` …
// (starting from the encoder's last state), the projection `proj`, `proj_1` …, and the decoder's
// outputs stacked by loose `/Unsqueeze_t` -> `/Concat`. Ops in trace order. The exporter shares
// constants: step t of the decoder slices its token with the encoder's index `/Constant_t`, and
// the index of step 3 is a constant first made in the encoder's first call, `/enc/Constant`.
inline gp::Graph unrolledSeq2seq(int steps) {
  using namespace gp;
  GraphBuilder b("seq2seq");
  const TensorId src = b.addGraphInput({"src", {steps, 1}}), tgt = b.addGraphInput({"tgt", {steps, 1}});
  TensorId h = b.addGraphInput({"h0", {1, 16}});
  auto op = [&](const std::string& name, const char* type, std::vector<TensorId> in) {
    return b.output(
        b.addOp({.name = name, .type = type, .inputs = std::move(in), .outputs = {{"", {1, 16}}}, .flops = 1e4}));
  };
  auto numbered = [](const std::string& base, int k) { return k == 0 ? base : base + "_" + std::to_string(k); };
  auto scope = [&](const char* module, int call) { return numbered(std::string("/") + module, call) + "/"; };
  int embedCall = 0;
  auto embed = [&](TensorId tokens, TensorId index) {
    const TensorId token = op(numbered("/Gather", embedCall), "Gather", {tokens, index});
    return op(scope("embed", embedCall++) + "Gather", "Gather", {token});
  };
  auto cell = [&](const char* module, int t, TensorId x, TensorId state) {
    const std::string s = scope(module, t);
    const TensorId gates =
        op(s + "Add", "Add", {op(s + "MatMul", "MatMul", {x}), op(s + "MatMul_1", "MatMul", {state})});
    return op(s + "Add_1", "Add",
              {op(s + "Mul", "Mul", {op(s + "Sigmoid", "Sigmoid", {gates}), state}), op(s + "Tanh", "Tanh", {gates})});
  };
  std::vector<TensorId> index(steps);
  TensorId shared = kNone;
  for (int t = 0; t < steps; ++t) {
    index[t] = t == 3 && shared != kNone ? shared : op(numbered("/Constant", t), "Constant", {});
    h = cell("enc", t, embed(src, index[t]), h);
    if (t == 0) shared = op("/enc/Constant", "Constant", {});
  }
  std::vector<TensorId> outputs;
  for (int t = 0; t < steps; ++t) {
    h = cell("dec", t, embed(tgt, index[t]), h);
    const TensorId y = op(scope("proj", t) + "Gemm", "Gemm", {h});
    outputs.push_back(
        op(numbered("/Unsqueeze", t), "Unsqueeze", {y, op(numbered("/Constant_axes", t), "Constant", {})}));
  }
  op("/Concat", "Concat", outputs);
  return std::move(b).build("seq2seq");
}

}  // namespace gptest
