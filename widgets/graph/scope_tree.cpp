#include "graph/scope_tree.h"

#include <algorithm>

namespace gp {

ScopeTree::ScopeTree(const Graph& g) {
  const int32_t ns = std::max(1, g.numScopes());
  parent_.assign(ns, kNone);
  for (ScopeId s = 0; s < g.numScopes(); ++s) parent_[s] = g.scopeParent(s);
  // first op of each scope's subtree, to order siblings as they appear in the graph
  std::vector<OpId> firstOp(ns, g.numOps());
  for (OpId op = g.numOps() - 1; op >= 0; --op)
    for (ScopeId s = g.opScope(op); s != kNone && firstOp[s] > op; s = parent_[s]) firstOp[s] = op;
  childOff_.assign(ns + 1, 0);
  for (ScopeId s = 1; s < ns; ++s)
    if (parent_[s] != kNone) ++childOff_[parent_[s] + 1];
  for (int32_t i = 0; i < ns; ++i) childOff_[i + 1] += childOff_[i];
  children_.resize(childOff_[ns]);
  std::vector<int32_t> fill(childOff_.begin(), childOff_.end() - 1);
  for (ScopeId s = 1; s < ns; ++s)
    if (parent_[s] != kNone) children_[fill[parent_[s]]++] = s;
  for (ScopeId s = 0; s < ns; ++s)
    std::sort(children_.begin() + childOff_[s], children_.begin() + childOff_[s + 1],
              [&](ScopeId a, ScopeId b) { return firstOp[a] != firstOp[b] ? firstOp[a] < firstOp[b] : a < b; });
  // direct ops per scope (CSR, ascending op id)
  std::vector<int32_t> opOff(ns + 1, 0);
  for (OpId op = 0; op < g.numOps(); ++op) ++opOff[g.opScope(op) + 1];
  for (int32_t i = 0; i < ns; ++i) opOff[i + 1] += opOff[i];
  std::vector<OpId> direct(g.numOps());
  fill.assign(opOff.begin(), opOff.end() - 1);
  for (OpId op = 0; op < g.numOps(); ++op) direct[fill[g.opScope(op)]++] = op;
  // depth-first: a scope's direct ops, then each child's subtree
  begin_.assign(ns, 0);
  directEnd_.assign(ns, 0);
  end_.assign(ns, 0);
  dfsOps_.reserve(g.numOps());
  preorder_.reserve(ns);
  std::vector<std::pair<ScopeId, int32_t>> stack{{0, -1}};
  while (!stack.empty()) {
    auto& [s, next] = stack.back();
    if (next < 0) {
      preorder_.push_back(s);
      begin_[s] = static_cast<int32_t>(dfsOps_.size());
      dfsOps_.insert(dfsOps_.end(), direct.begin() + opOff[s], direct.begin() + opOff[s + 1]);
      directEnd_[s] = static_cast<int32_t>(dfsOps_.size());
      next = childOff_[s];
    }
    if (next < childOff_[s + 1]) {
      ScopeId c = children_[next++];
      stack.push_back({c, -1});
    } else {
      end_[s] = static_cast<int32_t>(dfsOps_.size());
      stack.pop_back();
    }
  }
}

std::string_view ScopeTree::shortName(const Graph& g, ScopeId s) const {
  if (s <= 0 || s >= g.numScopes()) return {};
  std::string_view n = g.scopeName(s);
  size_t slash = n.rfind('/');
  return slash == std::string_view::npos ? n : n.substr(slash + 1);
}

bool ScopeTree::isWithin(ScopeId s, ScopeId ancestor) const {
  for (; s != kNone; s = parent_[s])
    if (s == ancestor) return true;
  return false;
}

std::string_view opShortName(std::string_view opName) {
  size_t slash = opName.rfind('/');
  return slash == std::string_view::npos ? opName : opName.substr(slash + 1);
}

}  // namespace gp
