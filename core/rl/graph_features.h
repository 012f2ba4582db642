// Node features of a graph for the placement policies (torch-free: built into gpcore, so the
// features are testable without LibTorch; core/rl/policy_tensors.h turns them into tensors).
//
// Per op (row of `x`, featureDim columns): log1p(FLOPs), log1p(bytes read), log1p(bytes written),
// log1p(param bytes), log op time on the fastest device, log fan-in, log fan-out, topological
// depth / max depth, output rank and log1p(output elements), role (forward / backward / update),
// colocated?, three ratios that read alike across graph sizes and clusters (op time / the graph's
// mean op time, output transfer time at the cluster's mean pair bandwidth / the mean op time, param
// and output bytes / the smallest device memory), the load share of the op's current device, and — when a current plan is given (refining a plan) — a one-hot of its device
// (kMaxDevices columns at currentDeviceColumn(), zeros otherwise), then the op's position in the
// topological order (rank / ops, and sin/cos of the rank at kPositionPeriods periods) so that
// identical twin subgraphs get different inputs. Op types are hashed into kOpTypeVocab buckets
// for an embedding. Placement units: a colocation group, or an op without one; the policy samples
// one device per unit, so colocation always holds. Move groups (for the optimizer's local
// search): a forward op's unit together with the units of its gradient and update ops; each
// group is filed under its first op's name scope ("gnmt/encoder/layer_1/fw/step_0"), so the
// search can also move a whole scope (a layer, a block) at once.
#pragma once
#include <cstdint>
#include <vector>

#include "cost/cost_model.h"
#include "graph/graph.h"
#include "sim/plan.h"

namespace gp::rl {

inline constexpr int kOpTypeVocab = 512;
inline constexpr int kMaxDevices = 16;
inline constexpr int kPositionPeriods = 4;  // sin/cos of the topological rank at 8, 32, 128, 512 ranks
// Per device (GraphFeatures::deviceX): present (d < the cluster's devices), load share (the
// current plan's op time on it / the mean over devices), parameter memory share (its parameter
// bytes / its memory), relative speed (its f32 peak / the fastest's).
inline constexpr int kDeviceFeatures = 4;

struct GraphFeatures {
  int32_t numOps = 0;
  int32_t numUnits = 0;
  int32_t featureDim = 0;
  std::vector<float> x;              // numOps * featureDim, row-major
  std::vector<int32_t> opType;       // per op: hashed type in [0, kOpTypeVocab)
  std::vector<int32_t> edgeSrc;      // producer op of each edge (Graph's distinct fan-in pairs)
  std::vector<int32_t> edgeDst;      // consumer op of each edge
  std::vector<float> edgeBytes;      // per edge: the bytes its producer writes (the transfer if cut)
  std::vector<int32_t> topo;         // ops in topological order
  std::vector<int32_t> unitOf;       // per op: its placement unit, units numbered by first op in topo order
  std::vector<int32_t> unitFirstOp;  // per unit: its first op in topo order
  int32_t numGroups = 0;
  std::vector<int32_t> groupOf;      // per unit: its move group, numbered by first unit
  std::vector<int32_t> groupScope;   // per move group: the graph scope of its first op
  std::vector<int32_t> scopeParent;  // per graph scope: its parent scope, -1 for the root
  std::vector<int32_t> priority;     // per op: upward rank order (longest path to a sink at the
                                     // fastest op times), higher = more critical; for Plan::priority
  std::vector<float> deviceX;        // kMaxDevices * kDeviceFeatures, row-major (see kDeviceFeatures)
  // what setCurrentDevices needs
  int32_t numDevices = 0;
  std::vector<double> opTime;        // per op: fastest op time, seconds
  std::vector<int64_t> opParamBytes; // per op
  std::vector<double> deviceMemory;  // per device: bytes
};

// First column of the current-device one-hot in GraphFeatures::x (kMaxDevices columns).
int32_t currentDeviceColumn();

// `current`: a plan being refined (its devices become features); nullptr when placing afresh.
GraphFeatures buildGraphFeatures(const Graph& g, const CostModel& cost, const Plan* current = nullptr);

// Makes `opDevice` (a device per op) the current plan: the one-hot device columns, the load share of
// each op's device (column currentDeviceColumn() - 1) and deviceX. An empty vector clears them.
void setCurrentDevices(GraphFeatures& f, const std::vector<int32_t>& opDevice);

// The plan that puts every op on its unit's device.
Plan planFromUnits(const GraphFeatures& f, const std::vector<int32_t>& unitDevice);

}  // namespace gp::rl
