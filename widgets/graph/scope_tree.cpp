#include "graph/scope_tree.h"

#include <algorithm>

namespace gp {

ScopeTree::ScopeTree(const Graph& g, const ScopeGroupOptions& options) {
  ScopeGroups groups = groupScopes(g, options);
  numGraphScopes_ = groups.numGraphScopes;
  parent_ = std::move(groups.parent);
  opNode_ = std::move(groups.opNode);
  kind_ = std::move(groups.kind);
  calls_ = std::move(groups.calls);
  label_ = std::move(groups.label);
  const auto ns = static_cast<int32_t>(parent_.size());
  childOff_.assign(ns + 1, 0);
  for (ScopeId s = 0; s < ns; ++s) childOff_[s + 1] = childOff_[s] + static_cast<int32_t>(groups.children[s].size());
  children_.reserve(childOff_[ns]);
  for (const auto& kids : groups.children) children_.insert(children_.end(), kids.begin(), kids.end());
  // direct ops per node (CSR, ascending op id)
  std::vector<int32_t> opOff(ns + 1, 0);
  for (OpId op = 0; op < g.numOps(); ++op) ++opOff[opNode_[op] + 1];
  for (int32_t i = 0; i < ns; ++i) opOff[i + 1] += opOff[i];
  std::vector<OpId> direct(g.numOps());
  std::vector<int32_t> fill(opOff.begin(), opOff.end() - 1);
  for (OpId op = 0; op < g.numOps(); ++op) direct[fill[opNode_[op]]++] = op;
  // depth-first: a node's direct ops, then each child's subtree
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
  if (s <= 0 || s >= numScopes()) return {};
  if (s >= numGraphScopes_) return label_[s];
  std::string_view n = g.scopeName(s);
  size_t slash = n.rfind('/');
  return slash == std::string_view::npos ? n : n.substr(slash + 1);
}

std::string ScopeTree::fullName(const Graph& g, ScopeId s) const {
  std::vector<std::string_view> parts;
  for (; s > 0; s = parent_[s]) parts.push_back(shortName(g, s));
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += '/';
    out += *it;
  }
  return out;
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
