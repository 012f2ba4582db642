// GraphLayout: what the graph view draws: the visible items (collapsed scope groups and single
// ops) of a Graph for a given set of expanded scopes, the aggregated edges between them, their
// positions, and a spatial index. Made off the UI thread by computeGraphLayout(); immutable after.
//
// Coordinates are scene units (about 1 unit = 1 pixel at 100% zoom), y grows downward, data flows
// top to bottom.
#pragma once
#include <QRectF>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "graph/graph.h"
#include "graph/spatial_grid.h"

namespace gp {

class ScopeTree;

struct VisItem {
  enum class Kind : uint8_t { Op, Group };
  Kind kind;
  int32_t id;       // Op: op id; Group: scope id
  int32_t opCount;  // ops it stands for (1 for an op)
  QRectF rect;      // scene rectangle
};

struct VisEdge {
  int32_t from, to;   // item indices
  int32_t count;      // op edges aggregated
  int32_t pointBegin; // first of this edge's polyline points in GraphLayout::points
  int32_t pointEnd;
  QRectF bounds;      // of the polyline, for culling
};

// An expanded scope drawn as a frame around its members (Graphviz clusters only).
struct VisFrame {
  ScopeId scope;
  int32_t depth;  // nesting depth among frames (0 = outermost)
  QRectF rect;
};

struct GraphLayout {
  std::vector<VisItem> items;
  std::vector<VisEdge> edges;
  std::vector<QPointF> points;  // edge polylines
  std::vector<VisFrame> frames;
  std::vector<int32_t> itemOfOp;   // op -> index of the item that shows it
  std::vector<int32_t> itemOfScope;// collapsed group scope -> item, else -1
  // Boxes that keep this order left to right wherever they share a row: the shown calls (or
  // runs of calls) of one module, in call order. Boxes with the same neighbours, e.g. the
  // embedding looked up at every step, are otherwise ordered as the layout likes.
  std::vector<std::vector<int32_t>> callOrders;
  QRectF bounds;
  SpatialGrid grid;
  bool graphviz = false;  // laid out by Graphviz dot (else by the layered layout)
  double seconds = 0;     // time spent

  int32_t findItem(QPointF scenePos) const;  // topmost item under the point, or -1
};

// Box sizes, in scene units.
inline constexpr double kOpBoxW = 150, kOpBoxH = 40, kGroupBoxW = 190, kGroupBoxH = 62;

struct LayoutOptions {
  int graphvizMaxNodes = 1500;  // Graphviz dot up to this many visible items, the layered layout beyond
  bool allowGraphviz = true;
  // dot runs in a child process next to our layered layout. A dot result within the head start
  // is the only one shown; else the layered layout is shown (`provisional`) and dot's replaces it
  // when it arrives within the budget (wall clock from the start); past it dot is killed and the
  // layered layout stays. A budget of 0 runs no dot at all.
  double graphvizBudgetSeconds = 3.0;
  double graphvizHeadStartSeconds = 0.3;
};

using LayoutProgress = std::function<void(int percent)>;
using LayoutReady = std::function<void(std::shared_ptr<const GraphLayout>)>;

// Lays out what is visible when the scopes flagged in `expanded` (indexed by scope id; the root
// always counts as expanded) are open. Returns the final layout (dot's when it finished within
// the budget, else the layered one: then the very object passed to `provisional`, if it was
// called), or nullptr when `cancel` became true.
std::shared_ptr<const GraphLayout> computeGraphLayout(const Graph& g, const ScopeTree& tree,
                                                      const std::vector<uint8_t>& expanded,
                                                      const std::atomic<bool>& cancel,
                                                      const LayoutProgress& progress = {},
                                                      const LayoutOptions& options = {},
                                                      const LayoutReady& provisional = {});

// ---- pieces (graph_layout.cpp, layered_layout.cpp, graphviz_layout.cpp) ----

// Fills items, itemOfOp, itemOfScope, callOrders and edges (without geometry) for the expanded set.
void buildVisibleGraph(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                       GraphLayout& out);
// Positions items and edge polylines with our own layered layout; false if cancelled.
bool layeredLayout(const Graph& g, GraphLayout& out, const std::atomic<bool>& cancel,
                   const LayoutProgress& progress);
// Positions items, frames and edge splines with Graphviz dot; false if Graphviz failed.
bool graphvizLayout(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                    GraphLayout& out);

}  // namespace gp
