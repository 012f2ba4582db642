// GraphView: the computation graph drawn as boxes and edges, collapsed by scope (hierarchy from op
// names, plus display groups for what exporters flatten: scope_groups.h) and coloured by device,
// fusion group, start time, op cost or a learned cost model's prediction error; where the user
// selects ops and assigns them to devices; or by slack, with the critical path outlined (View ▸
// Critical Path).
//
// Mouse and keys:
//   click an op or group          select it (a group selects all its ops)
//   Shift/Ctrl+click               add or remove it from the selection
//   Shift/Ctrl+drag on empty space rubber band: adds the ops of the boxes inside to the selection
//   drag on empty space, or middle-button drag anywhere: pan;  wheel: zoom around the cursor
//   drag a selected box            drags the selected op ids (gp::opsToMime) to a drop target
//   double-click a group           expand it (double-click an expanded group's frame: collapse)
//   1-9                            assignRequested(selection, key - 1) when that device exists
//   Escape                         clear the selection;  F / Home: zoom to fit
//   minimap (bottom right)         click or drag to move the viewport there
// Layout runs in the background: our layered layout first; Graphviz dot (up to 1500 visible
// boxes) in a child process next to it, swapped in when it finishes within its time budget
// (LayoutOptions). The previous layout stays drawn and usable until the new one is ready.
// The first view of a graph is fitted when the graph reads fitted; a graph whose shape is far
// from the window's (a long chain) opens at its inputs at a legible zoom, the minimap showing the
// rest.
#pragma once
#include <QFont>
#include <QFuture>
#include <QImage>
#include <QStringList>
#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/graph_layout.h"
#include "sim/measurement.h"
#include "sim/plan.h"

class QAction;

namespace gp {

class ScopeTree;

class GraphView : public QWidget {
  Q_OBJECT
 public:
  enum class ColorMode { Device, FusionGroup, StartTime, OpCost, PredictionError, Slack };
  enum class SearchKind { Name, Regex, OpType };

  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  // A new graph (the view shares ownership). Opens collapsed by scope as ScopeTree groups it
  // (the root's children visible; a lone group, the first of a handful of big groups when it is
  // a scope of the model rather than a display group, and a group holding nearly all ops, are
  // opened while the first screen stays small),
  // layout runs in the background.
  void setGraph(std::shared_ptr<const Graph> g);
  const Graph* graph() const { return graph_.get(); }
  void setDevices(const QStringList& names);          // legend names, context menu, keys 1-9
  void setPlan(const Plan& plan);                      // colours (device, fusion group); repaint only
  void setOpCosts(std::vector<double> secondsPerOp);   // OpCost colour mode (op time on its device)
  void setMeasurement(const Measurement& m);           // StartTime colour mode (op events of m.timeline)
  // PredictionError colour mode: per op |ln(predicted / measured)| of its kernel, NaN where it
  // was not measured (grey); empty: nothing measured yet. A new graph clears it.
  void setPredictionErrors(std::vector<double> errorPerOp);
  bool hasPredictionErrors() const { return !opError_.empty(); }
  // Slack colour mode: per op, seconds it could finish later without lengthening the step
  // (sim/critical_path.h); no slack is hot, the most slack cool. Empty: not known (grey).
  void setOpSlack(std::vector<double> slackPerOp);
  void setColorMode(ColorMode mode);
  ColorMode colorMode() const { return mode_; }
  // The fill of `op`'s own box in the current mode (kNoValueColor where it has no value).
  QRgb opColor(OpId op) const;
  // Actions the context menu lists for the selection, after "Assign to" (the owner keeps them
  // and their enabled state, e.g. Fuse / Unfuse / Set Priority).
  void setSelectionActions(const QList<QAction*>& actions) { selectionActions_ = actions; }

  const std::vector<OpId>& selectedOps() const { return selected_; }  // sorted, unique
  void setSelectedOps(std::vector<OpId> ops);  // from other views; does not emit selectionChanged
  void setHighlightedOps(std::vector<OpId> ops);  // e.g. ops that moved between two plans (outlined)
  bool isHighlighted(OpId op) const {
    return op >= 0 && static_cast<size_t>(op) < opHighlighted_.size() && opHighlighted_[static_cast<size_t>(op)] != 0;
  }

  void expandScope(ScopeId s);
  void collapseScope(ScopeId s);
  bool isExpanded(ScopeId s) const;
  void expandAll();
  void collapseAll();

  // Selects all matches (emits selectionChanged), centres the first; returns the count.
  int search(const QString& text, SearchKind kind);
  void nextMatch();
  void previousMatch();
  int matchCount() const { return static_cast<int>(matches_.size()); }
  int currentMatch() const { return matchIndex_; }  // 0-based; -1 when none

  void zoomToFit();
  // The first view of a new graph: fitted when that is legible (zoom >= kLegibleZoom) or the
  // graph's shape is close to the window's; else at kLegibleZoom, at the graph's top (its
  // inputs), centred on the top row.
  void showFirstView();
  static constexpr double kLegibleZoom = 0.8;
  // Layout settings (Graphviz limits and time budget) for the layouts started from now on.
  void setLayoutOptions(const LayoutOptions& options) { layoutOptions_ = options; }
  const LayoutOptions& layoutOptions() const { return layoutOptions_; }
  bool isLayoutRunning() const { return layoutRunning_; }
  bool isGraphvizLayout() const;  // the layout shown came from Graphviz dot
  void cancelLayout();
  int visibleNodeCount() const;  // groups + ops currently drawn as boxes (0 before the first layout)
  // The whole laid-out graph (PNG/SVG export), scaled to fit `target`.
  void renderTo(QPainter* painter, const QRectF& target);

  // For tests and tools: the viewport (scene point at the widget's top-left, pixels per unit)
  // and where an op / group box is on screen (empty if not drawn).
  double zoom() const { return scale_; }
  QPointF viewportOrigin() const { return origin_; }
  void setViewport(QPointF sceneTopLeft, double pixelsPerUnit);
  void centerOn(QPointF scenePos);
  void centerOnOp(OpId op);            // the box that shows `op` to the middle, zoom unchanged
  QRectF opRect(OpId op) const;        // widget coordinates of the box that shows `op`
  QRectF scopeRect(ScopeId s) const;   // widget coordinates of a collapsed group's box
  bool overviewReady() const { return !overview_.isNull(); }

 Q_SIGNALS:
  void selectionChanged(const std::vector<gp::OpId>& ops);  // the user changed the selection
  void assignRequested(const std::vector<gp::OpId>& ops, int device);  // keys 1-9, context menu
  void layoutStarted();
  void layoutProgress(int percent);
  void layoutFinished();  // also after cancelLayout() stopped a running layout (the old one stays)
  void matchChanged(int current, int count);  // search position changed (0-based current)

 protected:
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;
  bool event(QEvent* e) override;

 private:
  // boxes drawn for scope `s` with the current expansion (stops counting past `cap`)
  int boxesShown(ScopeId s, int cap) const;
  // layout jobs (graph_view.cpp)
  void startLayout(ScopeId anchor = kNone);
  // `final` false: the layered layout shown while dot still runs (the job goes on)
  void applyLayout(int job, std::shared_ptr<const GraphLayout> layout, bool final);
  void startOverview();
  // colours (graph_view_colors.cpp)
  void recomputeColors();
  void recomputeGroupDevices();
  void recomputeItemFlags();
  int numDevices() const;
  // painting (graph_view_paint.cpp)
  void paintScene(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin, QSize size, bool overlays);
  void paintEdges(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin);
  void paintItems(QPainter& p, const QRectF& sceneRect, double scale, QPointF origin);
  void paintItem(QPainter& p, int32_t item, const QRectF& r, double scale);
  void paintOverlays(QPainter& p);
  void paintLegend(QPainter& p);
  QRectF minimapRect() const;
  const QString& itemLabel(int32_t item);
  const QString& itemSubLabel(int32_t item);
  // interaction (graph_view_input.cpp)
  void selectItems(const std::vector<int32_t>& items, bool toggle);
  void appendItemOps(int32_t item, std::vector<OpId>& ops) const;  // an op box's op, a group's ops
  void setSelection(std::vector<OpId> ops, bool emitSignal);
  void startOpsDrag();
  void showMatch();
  QPointF toScene(QPointF w) const { return w / scale_ + origin_; }
  QPointF toWidget(QPointF s) const { return (s - origin_) * scale_; }
  void zoomAt(QPointF widgetPos, double factor);
  int32_t itemAt(QPointF widgetPos) const;
  int32_t frameAt(QPointF widgetPos) const;

  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const ScopeTree> tree_;
  std::vector<uint8_t> expanded_;
  std::shared_ptr<const GraphLayout> layout_;
  bool fitOnNextLayout_ = false;
  bool firstView_ = false;  // with fitOnNextLayout_: showFirstView() rather than zoomToFit()
  ScopeId anchorScope_ = kNone;
  QPointF anchorWidgetPos_;
  LayoutOptions layoutOptions_;
  // the layout the viewport was last placed for, and where: a layout replacing it keeps a
  // viewport the user has moved since
  const GraphLayout* placedLayout_ = nullptr;
  QPointF placedOrigin_;
  double placedScale_ = 0;

  // background layout / overview: `work` runs on Qt's pool, tracked in jobs_; a job hands its
  // results back with postToView, which runs `fn` on the view's thread
  void runInBackground(std::function<void()> work);
  void postToView(std::function<void()> fn);
  std::vector<QFuture<void>> jobs_;  // every background job still running (waited for on destruction)
  std::shared_ptr<std::atomic<bool>> layoutCancel_, overviewCancel_;
  int layoutJob_ = 0, overviewJob_ = 0;
  bool layoutRunning_ = false;
  int layoutPercent_ = 0;
  QImage overview_, minimap_;          // whole graph pre-rendered; its minimap-sized copy
  std::vector<QImage> overviewLevels_;  // overview_ halved again and again (level 0 = overview_)
  double overviewScale_ = 0;            // pixels of overview_ per scene unit
  QRectF overviewScene_;                // scene rectangle overview_ shows
  QString progressText_, legendTitle_, legendLo_, legendHi_;

  // colours
  ColorMode mode_ = ColorMode::Device;
  QStringList devices_;
  QList<QAction*> selectionActions_;
  Plan plan_;
  std::vector<double> opCost_, opStart_, opError_, opSlack_;
  double gradientLo_ = 0, gradientHi_ = 1;
  std::vector<QRgb> opColor_;      // per op, for the mode
  std::vector<QRgb> itemColor_;    // per item of layout_
  // Per scope: (device, ops of the subtree on it), in device order, only the devices used.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> scopeDevices_;

  // selection, highlight, search
  std::vector<OpId> selected_;
  std::vector<uint8_t> opSelected_, opHighlighted_;
  std::vector<int32_t> itemSelected_;   // per item: selected ops it shows
  std::vector<uint8_t> itemHighlighted_;
  std::vector<OpId> matches_;
  int matchIndex_ = -1;

  // viewport
  QPointF origin_{0, 0};
  double scale_ = 1;

  // interaction
  enum class Drag { None, Pan, Rubber, Minimap, Item };
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  QPointF pressOrigin_;
  QRect rubber_;
  bool rubberToggle_ = false;

  // paint scratch (reused; no per-frame allocation)
  std::vector<uint32_t> stamp_;
  uint32_t frameStamp_ = 0;
  std::vector<QLineF> lines_[4];  // edges: 1 op edge, 2-9, 10+, long and faint
  std::vector<QLineF> arrows_;
  std::vector<QString> labels_, subLabels_;
  QFont labelFonts_[24], boldFonts_[24];
  QFont uiFont_;
};

}  // namespace gp
