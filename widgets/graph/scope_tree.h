// ScopeTree: the Graph's scope hierarchy arranged for the graph view: sub-scopes per scope
// (ordered by their first op), each scope's ops, and every scope's subtree as one contiguous
// range of ops (so "all ops of a group" and per-group counts are slices, not searches).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graph/graph.h"

namespace gp {

class ScopeTree {
 public:
  explicit ScopeTree(const Graph& g);

  int32_t numScopes() const { return static_cast<int32_t>(parent_.size()); }
  ScopeId parent(ScopeId s) const { return parent_[s]; }
  std::span<const ScopeId> children(ScopeId s) const {
    return {children_.data() + childOff_[s], static_cast<size_t>(childOff_[s + 1] - childOff_[s])};
  }
  // Ops whose scope is exactly `s`, ascending.
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
  // Last component of the scope name ("a/b/c" -> "c"); the root's is empty.
  std::string_view shortName(const Graph& g, ScopeId s) const;
  // True if `s` is `ancestor` or lies below it.
  bool isWithin(ScopeId s, ScopeId ancestor) const;

 private:
  std::vector<ScopeId> parent_;
  std::vector<int32_t> childOff_;
  std::vector<ScopeId> children_;
  std::vector<ScopeId> preorder_;
  std::vector<OpId> dfsOps_;
  std::vector<int32_t> begin_, directEnd_, end_;
};

// Last component of an op name ("a/b/MatMul_3" -> "MatMul_3").
std::string_view opShortName(std::string_view opName);

}  // namespace gp
