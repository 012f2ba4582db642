// Node features for the RL placement policies (core/rl/graph_features.h, torch-free): shapes,
// determinism, placement units that respect colocation, depth, the current-plan one-hot, and
// planFromUnits, on a hand-built graph and on the ResNet-50 training graph.
#include "rl/graph_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "io/model_loader.h"

using namespace gp;
using gp::rl::GraphFeatures;

namespace {

// in -> a -> b -> c, a -> c, and d (no inputs); a and c colocated in "g", d alone in "h".
Graph diamond() {
  GraphBuilder b("diamond");
  TensorId in = b.addGraphInput({"in", {4, 8}});
  OpId a = b.addOp(
      {.name = "a", .type = "MatMul", .inputs = {in}, .outputs = {{"", {4, 8}}}, .flops = 1e9, .colocGroup = "g"});
  OpId bb = b.addOp({.name = "b", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"", {4, 8}}}});
  b.addOp({.name = "c",
           .type = "Add",
           .inputs = {b.output(bb), b.output(a)},
           .outputs = {{"", {4, 8}}},
           .colocGroup = "g"});
  b.addOp({.name = "d", .type = "Const", .outputs = {{"", {2}}}, .colocGroup = "h"});
  return std::move(b).build("diamond");
}

float at(const GraphFeatures& f, OpId op, int col) {
  return f.x[static_cast<size_t>(op) * f.featureDim + col];
}

struct Resnet {
  Graph g = loadModel("zoo:resnet50");
  Cluster cluster = loadCluster("4xP100-PCIe");
  CostModel cost{g, cluster};
};

const Resnet& resnet() {
  static const Resnet r;
  return r;
}

}  // namespace

TEST(GraphFeatures, ShapesEdgesAndUnitsOnASmallGraph) {
  Graph g = diamond();
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  GraphFeatures f = rl::buildGraphFeatures(g, cost);
  ASSERT_EQ(f.numOps, 4);
  EXPECT_EQ(f.featureDim, 18 + rl::kMaxDevices + 1 + 2 * rl::kPositionPeriods);
  EXPECT_EQ(f.x.size(), 4u * static_cast<size_t>(f.featureDim));
  // Edges: a->b, a->c, b->c (distinct producer/consumer pairs).
  std::set<std::pair<int, int>> edges;
  for (size_t e = 0; e < f.edgeSrc.size(); ++e) edges.insert({f.edgeSrc[e], f.edgeDst[e]});
  EXPECT_EQ(edges, (std::set<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(f.edgeSrc.size(), 3u);
  // Topo order is the graph's; units: {a, c} share one, b and d are alone.
  EXPECT_EQ(f.topo, std::vector<int32_t>(g.topoOrder().begin(), g.topoOrder().end()));
  EXPECT_EQ(f.numUnits, 3);
  EXPECT_EQ(f.unitOf[0], f.unitOf[2]);
  EXPECT_NE(f.unitOf[0], f.unitOf[1]);
  EXPECT_NE(f.unitOf[3], f.unitOf[0]);
  EXPECT_NE(f.unitOf[3], f.unitOf[1]);
  // Depth column (7): a and d are sources (0), b is 1, c is 2 = max depth.
  EXPECT_FLOAT_EQ(at(f, 0, 7), 0.0f);
  EXPECT_FLOAT_EQ(at(f, 1, 7), 0.5f);
  EXPECT_FLOAT_EQ(at(f, 2, 7), 1.0f);
  EXPECT_FLOAT_EQ(at(f, 3, 7), 0.0f);
  // Fan-in (5) / fan-out (6): log1p(count) / 4.
  EXPECT_FLOAT_EQ(at(f, 2, 5), static_cast<float>(std::log1p(2.0) / 4));
  EXPECT_FLOAT_EQ(at(f, 0, 6), static_cast<float>(std::log1p(2.0) / 4));
  EXPECT_FLOAT_EQ(at(f, 3, 5), 0.0f);
  // FLOPs (0): only a has some; colocated (13): a, c, d.
  EXPECT_GT(at(f, 0, 0), 0.5f);
  EXPECT_FLOAT_EQ(at(f, 1, 0), 0.0f);
  EXPECT_FLOAT_EQ(at(f, 0, 13), 1.0f);
  EXPECT_FLOAT_EQ(at(f, 1, 13), 0.0f);
  EXPECT_FLOAT_EQ(at(f, 3, 13), 1.0f);
  // Output rank (8) / 4: rank 2 -> 0.5, d's rank 1 -> 0.25. Forward role (10).
  EXPECT_FLOAT_EQ(at(f, 0, 8), 0.5f);
  EXPECT_FLOAT_EQ(at(f, 3, 8), 0.25f);
  EXPECT_FLOAT_EQ(at(f, 1, 10), 1.0f);
  // Time share (14): a holds the FLOPs, so it takes more than the mean op time; comm ratio (15)
  // and memory share (16) grow with the bytes an op writes and holds.
  EXPECT_GT(at(f, 0, 14), at(f, 1, 14));
  EXPECT_GE(at(f, 0, 15), 0.0f);
  EXPECT_GE(at(f, 0, 16), 0.0f);
}

TEST(GraphFeatures, RatiosReadAlikeAtEveryBatchSize) {
  // the op-time share of a layer does not change when the whole graph scales
  Cluster c = loadCluster("4xP100-PCIe");
  LoadOptions small, large;
  small.zoo.batch = 32;
  large.zoo.batch = 128;
  Graph a = loadModel("zoo:resnet50", small), b = loadModel("zoo:resnet50", large);
  CostModel ca(a, c), cb(b, c);
  GraphFeatures fa = rl::buildGraphFeatures(a, ca), fb = rl::buildGraphFeatures(b, cb);
  ASSERT_EQ(fa.numOps, fb.numOps);
  double shareDiff = 0, flopsDiff = 0;
  for (OpId op = 0; op < fa.numOps; ++op) {
    shareDiff += std::abs(at(fa, op, 14) - at(fb, op, 14));
    flopsDiff += std::abs(at(fa, op, 0) - at(fb, op, 0));
  }
  EXPECT_LT(shareDiff, 0.25 * flopsDiff);
}

TEST(GraphFeatures, CurrentPlanOneHotOnlyWhenGiven) {
  Graph g = diamond();
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  GraphFeatures fresh = rl::buildGraphFeatures(g, cost);
  Plan p = Plan::singleDevice(4, 0);
  p.device = {2, 0, 2, 3};
  GraphFeatures refine = rl::buildGraphFeatures(g, cost, &p);
  const int dev0 = rl::currentDeviceColumn();
  ASSERT_EQ(dev0, 18);
  for (OpId op = 0; op < 4; ++op) {
    for (int d = 0; d < rl::kMaxDevices; ++d) {
      EXPECT_FLOAT_EQ(at(fresh, op, dev0 + d), 0.0f);
      EXPECT_FLOAT_EQ(at(refine, op, dev0 + d), d == p.device[op] ? 1.0f : 0.0f) << op << " " << d;
    }
    for (int col = 0; col < dev0 - 1; ++col) EXPECT_FLOAT_EQ(at(fresh, op, col), at(refine, op, col));
    EXPECT_FLOAT_EQ(at(fresh, op, dev0 - 1), 0.0f);  // no plan, no load
  }
  Plan wrong = Plan::singleDevice(3);
  EXPECT_THROW(rl::buildGraphFeatures(g, cost, &wrong), Error);
}

TEST(GraphFeatures, DeviceLoadsFollowTheCurrentPlan) {
  Graph g = diamond();
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  GraphFeatures f = rl::buildGraphFeatures(g, cost);
  auto dev = [&](int d, int k) { return f.deviceX[static_cast<size_t>(d) * rl::kDeviceFeatures + k]; };
  // present and equally fast: the cluster's 4 devices; nothing beyond
  for (int d = 0; d < rl::kMaxDevices; ++d) {
    EXPECT_FLOAT_EQ(dev(d, 0), d < 4 ? 1.0f : 0.0f);
    EXPECT_FLOAT_EQ(dev(d, 3), d < 4 ? 1.0f : 0.0f);
    EXPECT_FLOAT_EQ(dev(d, 1), 0.0f);  // no plan yet
  }
  // everything on device 2: it carries 4x the mean load (the column reads load share / 4)
  rl::setCurrentDevices(f, {2, 2, 2, 2});
  EXPECT_FLOAT_EQ(dev(2, 1), 1.0f);
  EXPECT_FLOAT_EQ(dev(0, 1), 0.0f);
  const int loadColumn = rl::currentDeviceColumn() - 1;
  for (OpId op = 0; op < 4; ++op) {
    EXPECT_FLOAT_EQ(at(f, op, loadColumn), 1.0f);
    EXPECT_FLOAT_EQ(at(f, op, rl::currentDeviceColumn() + 2), 1.0f);
  }
  // moving the plan moves the one-hot; clearing it clears everything
  rl::setCurrentDevices(f, {0, 1, 0, 3});
  EXPECT_FLOAT_EQ(at(f, 1, rl::currentDeviceColumn() + 1), 1.0f);
  EXPECT_FLOAT_EQ(at(f, 1, rl::currentDeviceColumn() + 2), 0.0f);
  EXPECT_GT(dev(0, 1), dev(3, 1));  // a (the FLOPs) and c share device 0
  rl::setCurrentDevices(f, {});
  for (OpId op = 0; op < 4; ++op) EXPECT_FLOAT_EQ(at(f, op, loadColumn), 0.0f);
  EXPECT_THROW(rl::setCurrentDevices(f, {0, 1}), Error);
}

TEST(GraphFeatures, PlanFromUnitsPutsEveryOpOnItsUnitsDevice) {
  Graph g = diamond();
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  GraphFeatures f = rl::buildGraphFeatures(g, cost);
  std::vector<int32_t> unitDevice(static_cast<size_t>(f.numUnits));
  for (int u = 0; u < f.numUnits; ++u) unitDevice[static_cast<size_t>(u)] = 3 - u;
  Plan p = rl::planFromUnits(f, unitDevice);
  ASSERT_EQ(p.device.size(), 4u);
  for (OpId op = 0; op < 4; ++op) EXPECT_EQ(p.device[op], 3 - f.unitOf[op]);
  EXPECT_EQ(p.device[0], p.device[2]);  // colocated
  EXPECT_TRUE(p.priority.empty());
  EXPECT_THROW(rl::planFromUnits(f, {0}), Error);
}

TEST(GraphFeatures, OpTypeBucketsAreStableAcrossGraphs) {
  Graph g1 = diamond();
  const Resnet& r = resnet();
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost1(g1, c);
  GraphFeatures f1 = rl::buildGraphFeatures(g1, cost1);
  GraphFeatures f2 = rl::buildGraphFeatures(r.g, r.cost);
  std::map<std::string, int32_t> bucket;
  for (OpId op = 0; op < g1.numOps(); ++op) bucket[std::string(g1.opType(op))] = f1.opType[op];
  int shared = 0;
  std::set<int32_t> distinct;
  for (OpId op = 0; op < r.g.numOps(); ++op) {
    ASSERT_GE(f2.opType[op], 0);
    ASSERT_LT(f2.opType[op], rl::kOpTypeVocab);
    distinct.insert(f2.opType[op]);
    auto it = bucket.find(std::string(r.g.opType(op)));
    if (it != bucket.end()) {
      EXPECT_EQ(it->second, f2.opType[op]) << r.g.opType(op);
      ++shared;
    }
  }
  EXPECT_GT(shared, 0);  // Relu/Add/... appear in both
  // Distinct type names mostly land in distinct buckets.
  EXPECT_GE(static_cast<double>(distinct.size()), 0.8 * static_cast<double>(r.g.opTypeNames().size()));
}

TEST(GraphFeatures, Resnet50TrainingGraph) {
  const Resnet& r = resnet();
  const Graph& g = r.g;
  GraphFeatures f = rl::buildGraphFeatures(g, r.cost);
  ASSERT_EQ(f.numOps, g.numOps());
  EXPECT_GT(f.numOps, 500);  // 705 ops
  EXPECT_EQ(f.x.size(), static_cast<size_t>(f.numOps) * static_cast<size_t>(f.featureDim));
  EXPECT_EQ(static_cast<int64_t>(f.edgeSrc.size()), g.numEdges());
  EXPECT_EQ(f.edgeDst.size(), f.edgeSrc.size());
  EXPECT_EQ(f.opType.size(), static_cast<size_t>(f.numOps));
  EXPECT_EQ(f.unitOf.size(), static_cast<size_t>(f.numOps));
  EXPECT_EQ(f.unitFirstOp.size(), static_cast<size_t>(f.numUnits));

  // Features finite and O(1).
  for (float v : f.x) {
    ASSERT_TRUE(std::isfinite(v));
    ASSERT_GE(v, -1.0f);
    ASSERT_LE(v, 3.0f);
  }
  // Every column but the device one-hot (no current plan) varies somewhere, except maybe
  // "update"/"colocated" — which a training graph has: so all 14 vary.
  for (int col = 0; col < 14; ++col) {
    float lo = 1e9f, hi = -1e9f;
    for (OpId op = 0; op < f.numOps; ++op) {
      lo = std::min(lo, at(f, op, col));
      hi = std::max(hi, at(f, op, col));
    }
    EXPECT_LT(lo, hi) << "column " << col;
  }

  // Units respect colocation: same group <=> same unit; free ops are alone.
  std::map<int32_t, int32_t> unitOfGroup;
  std::vector<int> opsInUnit(static_cast<size_t>(f.numUnits), 0);
  int colocated = 0;
  for (OpId op = 0; op < f.numOps; ++op) {
    const int32_t u = f.unitOf[op];
    ASSERT_GE(u, 0);
    ASSERT_LT(u, f.numUnits);
    ++opsInUnit[static_cast<size_t>(u)];
    if (g.colocGroup(op) == kNone) continue;
    ++colocated;
    auto [it, inserted] = unitOfGroup.emplace(g.colocGroup(op), u);
    EXPECT_EQ(it->second, u);
  }
  EXPECT_GT(colocated, 0);
  EXPECT_LT(f.numUnits, f.numOps);
  std::set<int32_t> groupUnits;
  for (auto& [group, u] : unitOfGroup) EXPECT_TRUE(groupUnits.insert(u).second);  // one group per unit
  for (OpId op = 0; op < f.numOps; ++op) {
    if (g.colocGroup(op) == kNone) {
      EXPECT_EQ(opsInUnit[static_cast<size_t>(f.unitOf[op])], 1);
    }
  }

  // Units are numbered by their first op in topo order.
  std::vector<int32_t> rank(static_cast<size_t>(f.numOps));
  for (size_t i = 0; i < f.topo.size(); ++i) rank[static_cast<size_t>(f.topo[i])] = static_cast<int32_t>(i);
  for (int u = 0; u < f.numUnits; ++u) {
    EXPECT_EQ(f.unitOf[f.unitFirstOp[u]], u);
    if (u > 0) {
      EXPECT_LT(rank[f.unitFirstOp[u - 1]], rank[f.unitFirstOp[u]]);
    }
  }
  for (OpId op = 0; op < f.numOps; ++op) EXPECT_LE(rank[f.unitFirstOp[f.unitOf[op]]], rank[op]);

  // Deterministic: a second build is identical.
  GraphFeatures again = rl::buildGraphFeatures(g, r.cost);
  EXPECT_EQ(again.x, f.x);
  EXPECT_EQ(again.opType, f.opType);
  EXPECT_EQ(again.edgeSrc, f.edgeSrc);
  EXPECT_EQ(again.edgeDst, f.edgeDst);
  EXPECT_EQ(again.unitOf, f.unitOf);
  EXPECT_EQ(again.unitFirstOp, f.unitFirstOp);

  // planFromUnits keeps colocation.
  std::vector<int32_t> unitDevice(static_cast<size_t>(f.numUnits));
  for (int u = 0; u < f.numUnits; ++u) unitDevice[static_cast<size_t>(u)] = u % 4;
  Plan p = rl::planFromUnits(f, unitDevice);
  std::map<int32_t, int32_t> deviceOfGroup;
  for (OpId op = 0; op < f.numOps; ++op) {
    if (g.colocGroup(op) == kNone) continue;
    auto [it, inserted] = deviceOfGroup.emplace(g.colocGroup(op), p.device[op]);
    EXPECT_EQ(it->second, p.device[op]);
  }
}

// Identical twin chains differ only in the positional columns (after the device one-hot), so a
// policy can tell them apart.
TEST(GraphFeatures, TwinsDifferOnlyByPosition) {
  GraphBuilder b("twins");
  for (const char* chain : {"a", "b"}) {
    TensorId prev = b.addGraphInput({std::string(chain) + "/x", {4}});
    for (int i = 0; i < 3; ++i) {
      OpId op = b.addOp({.name = std::string(chain) + "/op" + std::to_string(i), .type = "MatMul",
                         .inputs = {prev}, .outputs = {{"", {64}}}, .flops = 1e9});
      prev = b.output(op);
    }
  }
  Graph g = std::move(b).build("twins");
  Cluster c = loadCluster("4xP100-PCIe");
  CostModel cost(g, c);
  GraphFeatures f = rl::buildGraphFeatures(g, cost);
  const int pos0 = rl::currentDeviceColumn() + rl::kMaxDevices;
  ASSERT_EQ(f.featureDim, pos0 + 1 + 2 * rl::kPositionPeriods);
  for (int i = 0; i < 3; ++i) {
    const OpId a = g.findOp("a/op" + std::to_string(i)), bb = g.findOp("b/op" + std::to_string(i));
    for (int col = 0; col < pos0; ++col) EXPECT_FLOAT_EQ(at(f, a, col), at(f, bb, col)) << col;
    bool differs = false;
    for (int col = pos0; col < f.featureDim; ++col) differs |= at(f, a, col) != at(f, bb, col);
    EXPECT_TRUE(differs) << i;
  }
}

// Move groups tie each gradient/update op's unit to its forward op's unit; priorities are a
// permutation of 1..n in which every producer outranks its consumers.
TEST(GraphFeatures, MoveGroupsAndPriorities) {
  const Resnet& r = resnet();
  const Graph& g = r.g;
  GraphFeatures f = rl::buildGraphFeatures(g, r.cost);
  ASSERT_EQ(f.groupOf.size(), static_cast<size_t>(f.numUnits));
  EXPECT_GT(f.numGroups, 50);
  EXPECT_LT(f.numGroups, f.numUnits);
  int tied = 0;
  for (OpId op = 0; op < g.numOps(); ++op) {
    if (g.forwardOf(op) == kNone) continue;
    EXPECT_EQ(f.groupOf[f.unitOf[op]], f.groupOf[f.unitOf[g.forwardOf(op)]]) << g.opName(op);
    ++tied;
  }
  EXPECT_GT(tied, 100);
  for (int32_t u = 1; u < f.numUnits; ++u) EXPECT_LE(f.groupOf[u], *std::max_element(f.groupOf.begin(),
                                                                                        f.groupOf.begin() + u) + 1);
  std::vector<int32_t> sorted = f.priority;
  std::sort(sorted.begin(), sorted.end());
  for (int32_t i = 0; i < f.numOps; ++i) ASSERT_EQ(sorted[i], i + 1);
  for (size_t e = 0; e < f.edgeSrc.size(); ++e) EXPECT_GT(f.priority[f.edgeSrc[e]], f.priority[f.edgeDst[e]]);
}

// Each move group is filed under its first op's name scope (a forward op's, as groups are
// numbered by their first unit in topological order); scope parents mirror the graph's.
TEST(GraphFeatures, GroupScopes) {
  const Resnet& r = resnet();
  const Graph& g = r.g;
  GraphFeatures f = rl::buildGraphFeatures(g, r.cost);
  ASSERT_EQ(f.groupScope.size(), static_cast<size_t>(f.numGroups));
  ASSERT_EQ(f.scopeParent.size(), static_cast<size_t>(g.numScopes()));
  for (ScopeId s = 0; s < g.numScopes(); ++s)
    EXPECT_EQ(f.scopeParent[s], g.scopeParent(s) == kNone ? -1 : g.scopeParent(s));
  std::vector<int32_t> firstUnit(static_cast<size_t>(f.numGroups), -1);
  for (int32_t u = 0; u < f.numUnits; ++u)
    if (firstUnit[f.groupOf[u]] < 0) firstUnit[f.groupOf[u]] = u;
  int forward = 0;
  for (int32_t grp = 0; grp < f.numGroups; ++grp) {
    const OpId op = f.unitFirstOp[firstUnit[grp]];
    EXPECT_EQ(f.groupScope[grp], g.opScope(op));
    forward += g.role(op) == OpRole::Forward;
  }
  EXPECT_GT(forward, f.numGroups / 2);  // most groups are a forward op with its backward ops
}
