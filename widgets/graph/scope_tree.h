// ScopeTree: the scope hierarchy as the graph view shows it (see scope_groups.h: the Graph's
// scopes plus display-only groups for repeated calls, loose ops and long runs): sub-scopes per
// scope in display order, each scope's ops, and every scope's subtree as one contiguous range of
// ops (so "all ops of a group" and per-group counts are slices, not searches).
//
// Ids [0, graph.numScopes()) are the Graph's scopes; display groups follow. An op's node here
// (opScope) can differ from graph.opScope(op) when a display group took it in.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.h"
#include "graph/scope_groups.h"

namespace gp {

class ScopeTree {
 public:
  explicit ScopeTree(const Graph& g, const ScopeGroupOptions& options = {});

  int32_t numScopes() const { return static_cast<int32_t>(parent_.size()); }
  int32_t numGraphScopes() const { return numGraphScopes_; }
  bool isDisplayGroup(ScopeId s) const { return s >= numGraphScopes_; }
  ScopeGroups::Kind kind(ScopeId s) const { return kind_[s]; }
  int32_t callCount(ScopeId s) const { return calls_[s]; }  // calls a Calls group holds, else 0
  ScopeId parent(ScopeId s) const { return parent_[s]; }
  ScopeId opScope(OpId op) const { return opNode_[op]; }  // the node whose box holds the op
  std::span<const ScopeId> children(ScopeId s) const {
    return {children_.data() + childOff_[s], static_cast<size_t>(childOff_[s + 1] - childOff_[s])};
  }
  // Ops whose node is exactly `s`, ascending.
  std::span<const OpId> directOps(ScopeId s) const {
    return {dfsOps_.data() + begin_[s], static_cast<size_t>(directEnd_[s] - begin_[s])};
  }
  // All ops in `s` and its sub-scopes (a contiguous slice of the depth-first op order).
  std::span<const OpId> subtreeOps(ScopeId s) const {
    return {dfsOps_.data() + begin_[s], static_cast<size_t>(end_[s] - begin_[s])};
  }
  int32_t subtreeOpCount(ScopeId s) const { return end_[s] - begin_[s]; }
  // Scopes in depth-first pre-order (root first): parents before children.
  std::span<const ScopeId> preorder() const { return preorder_; }
  // The label: last component of a Graph scope's name ("a/b/c" -> "c"), a display group's own
  // label; the root's is empty.
  std::string_view shortName(const Graph& g, ScopeId s) const;
  // The path of labels from the root ("a/b/c"; through display groups: "enc.0/enc.0_6").
  std::string fullName(const Graph& g, ScopeId s) const;
  // True if `s` is `ancestor` or lies below it.
  bool isWithin(ScopeId s, ScopeId ancestor) const;

 private:
  int32_t numGraphScopes_ = 1;
  std::vector<ScopeId> parent_;
  std::vector<int32_t> childOff_;
  std::vector<ScopeId> children_;
  std::vector<ScopeId> preorder_;
  std::vector<ScopeId> opNode_;
  std::vector<OpId> dfsOps_;
  std::vector<int32_t> begin_, directEnd_, end_;
  std::vector<ScopeGroups::Kind> kind_;
  std::vector<int32_t> calls_;
  std::vector<std::string> label_;
};

// Last component of an op name ("a/b/MatMul_3" -> "MatMul_3").
std::string_view opShortName(std::string_view opName);

}  // namespace gp
