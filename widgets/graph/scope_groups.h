// ScopeGroups: the scope hierarchy the graph view shows. It starts from the Graph's scopes and
// adds display-only groups for what exporters flatten:
//  - calls of one module: sibling scopes `name`, `name_1`, … `name_N` (torch.onnx.export names
//    the N-th call of module `name` `name_N`, e.g. the steps of an unrolled RNN) become the
//    children of one group `name`, ordered by N;
//  - loose ops (ops directly in a scope that also has sub-scopes), when there are many, join the
//    sub-scope they feed, else the one that feeds them; shape plumbing left over goes into one
//    group "shape ops";
//  - a scope that would still show more than `maxItems` boxes (the root, a scope with sub-scopes,
//    or one of more than 4 x maxItems ops) gets its boxes folded into runs of consecutive items.
// The Graph's own scopes and op names are untouched: nodes [0, g.numScopes()) are the Graph's
// scopes (same ids), display groups come after. Qt-free.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gp {

struct ScopeGroupOptions {
  bool enabled = true;   // false: exactly the Graph's scopes
  int maxItems = 40;     // boxes an open scope shows before its items are folded into runs
  int looseOpsMax = 8;   // loose ops in a scope with sub-scopes kept as they are up to this many
  int minCalls = 3;      // calls of a module grouped from this many (from 2 in a crowded scope)
};

struct ScopeGroups {
  enum class Kind : uint8_t { Scope, Calls, ShapeOps, Run };
  int32_t numGraphScopes = 0;
  std::vector<ScopeId> parent;                 // per node; the root's is kNone
  std::vector<std::vector<ScopeId>> children;  // per node, in display order
  std::vector<ScopeId> opNode;                 // per op: the node whose box holds it
  std::vector<Kind> kind;                      // per node
  std::vector<std::string> label;              // per node; empty for the Graph's scopes
  std::vector<int32_t> calls;                  // per node: calls grouped (Calls groups), else 0
};

ScopeGroups groupScopes(const Graph& g, const ScopeGroupOptions& options = {});

// "enc.1_6" -> base "enc.1", call 6; "enc.1" -> base "enc.1", call 0. False when `name` has no
// `_N` suffix (then `base` = name, `call` = 0).
bool splitCallSuffix(std::string_view name, std::string_view& base, int32_t& call);

}  // namespace gp
