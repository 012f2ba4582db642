// Fusion groups: which ops of one device run as one kernel (Plan::fusionGroup; the
// simulator's semantics: one launch, internal tensors never go to memory).
//
// Rules, enforced by every fuser here and checked by fusionProblem() for hand-made groups:
//  - one device: ops on different devices never fuse;
//  - op roles: an *anchor* (MatMul, Conv, Recurrent, Reduction, Normalization — a normalization
//    reduces over its whole input before it can scale it, so it never joins a GEMM's or a
//    convolution's kernel) — at most one per group, so two heavy ops that would not share a
//    kernel never fuse; *fusible* (Elementwise, and metadata ops such as Reshape); *never*
//    (DataMovement such as Gather/Concat, Other such
//    as Loss and unknown types, and every parameter-update op such as ApplyAdam) stays alone;
//  - a size cap (FusionRules::maxOps);
//  - groups are connected through data edges (merges follow producer -> consumer edges);
//  - no cycle in the fused graph, by a sufficient rule that is cheap to check: in the graph's
//    topological order, for every data edge x -> y between two groups, the last op of x's group
//    comes before the first op of y's group (a kernel's inputs are all produced before its first
//    op, its outputs consumed after its last). Ordering the groups by their first op is then a
//    topological order of the fused graph.
//
// Two fusers:
//  - defaultFusion: what compilers do by default (greedy elementwise-chain fusion): ops in
//    topological order; a fusible op joins the group of one of its producers (the first that
//    the rules allow, in input order). The baseline of the GO table.
//  - fuseByPriority: GO's fusion (a priority per op decides what fuses): ops with priority > 0
//    are visited in decreasing priority (ties: topological order); each tries to merge its group
//    with the group of each neighbour of priority > 0 (producers, then consumers, in decreasing
//    priority). Ops of priority <= 0 never fuse.
// Both are deterministic; the result is Plan::fusionGroup: -1 for an op alone, else group ids
// 0.. numbered by each group's first op in id order.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

struct FusionRules {
  int maxOps = 16;  // ops per group
};

enum class FusionRole : uint8_t { Anchor, Fusible, Never };
FusionRole fusionRole(const Graph& g, OpId op);

std::vector<int32_t> defaultFusion(const Graph& g, const std::vector<int32_t>& device, FusionRules rules = {});
std::vector<int32_t> fuseByPriority(const Graph& g, const std::vector<int32_t>& device,
                                    const std::vector<int32_t>& fusionPriority, FusionRules rules = {});

// Why `plan`'s fusion groups break a rule (one line naming the group and an op), or "" when
// they are all fine (an empty fusionGroup is fine). The structural rules (one group per op, ids
// in range, one device per group) are sim/plan_check.h's, as the simulator applies them.
std::string fusionProblem(const Graph& g, const Plan& plan, FusionRules rules = {});
// The rules as a test of a plan of `g` (SuggestOptions::allowFusion): fusionProblem is "".
inline std::function<bool(const Plan&)> fusionAllowed(const Graph& g) {
  return [&g](const Plan& plan) { return fusionProblem(g, plan).empty(); };
}

}  // namespace gp
