#include "main_window.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "exporter.h"
#include "gpu_availability.h"
#include "import_notice.h"
#include "file_kind.h"
#include "graph/graph_search_bar.h"
#include "graph/graph_view.h"
#include "cluster/cluster.h"
#include "panels/cluster_panel.h"
#include "panels/device_legend.h"
#include "panels/history_panel.h"
#include "panels/op_inspector.h"
#include "optimize_popup.h"
#include "parallel_window.h"
#include "profile_dialog.h"
#include "plan_edits.h"
#include "plan_explainer.h"
#include "reward/reward_plot.h"
#include "timeline/timeline_compare.h"
#include "timeline/timeline_view.h"

namespace gp {

MainWindow::MainWindow(Document* doc, QWidget* parent, bool restoreLayout) : QMainWindow(parent), doc_(doc) {
  setObjectName(QStringLiteral("MainWindow"));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);
  createViews();
  createActions();
  createMenus();
  createToolBar();
  createStatusBar();
  connectDocument();
  if (restoreLayout) restoreSettings();
  else rebuildRecentMenu();
  updateTitle();
  updateMetrics();
  updateActions();
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------- views and docks

void MainWindow::createViews() {
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  errorBanner_ = new QLabel(central);
  errorBanner_->setObjectName(QStringLiteral("errorBanner"));
  errorBanner_->setWordWrap(true);
  errorBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  errorBanner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fdecea; color: #8a1c13; border-bottom: 1px solid #e0a39c; padding: 6px 10px; }"));
  errorBanner_->hide();
  importBanner_ = new ImportBanner(central);
  graphView_ = new GraphView(central);
  graphView_->setObjectName(QStringLiteral("graphView"));
  layout->addWidget(errorBanner_);
  layout->addWidget(importBanner_);
  layout->addWidget(graphView_, 1);
  connect(importBanner_, &ImportBanner::showEstimatedRequested, this,
          [this] { doc_->setSelection(importBanner_->estimatedOps()); });
  connect(importBanner_, &ImportBanner::dimsRequested, this, &MainWindow::chooseSymbolicDims);
  setCentralWidget(central);

  auto makeDock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(w);
    addDockWidget(area, dock);
    return dock;
  };
  clusterPanel_ = new ClusterPanel(this);
  QStringList presets;
  for (const std::string& name : clusterPresetNames()) presets << QString::fromStdString(name);
  clusterPanel_->setPresets(presets);
  legend_ = new DeviceLegend(this);
  historyPanel_ = new HistoryPanel(doc_->history(), this);
  timelineCompare_ = new TimelineCompare(this);
  timelineCompare_->setObjectName(QStringLiteral("timelineCompare"));
  timeline_ = timelineCompare_->simulatedView();
  gpu_ = new GpuAvailability(this);
  connect(gpu_, &GpuAvailability::probed, this, &MainWindow::updateGpuActions);
  QDockWidget* clusterDock = makeDock(tr("Cluster"), QStringLiteral("clusterDock"), clusterPanel_, Qt::RightDockWidgetArea);
  // The legend has a row per device: it scrolls, so a large cluster never stretches the window.
  auto* legendScroll = new QScrollArea(this);
  legendScroll->setObjectName(QStringLiteral("devicesScroll"));
  legendScroll->setWidget(legend_);
  legendScroll->setWidgetResizable(true);
  legendScroll->setFrameShape(QFrame::NoFrame);
  legendScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  legendScroll->setMinimumHeight(2 * (fontMetrics().height() + 8));
  // Above it, on a cluster of more than a few servers' worth, a filter by name.
  auto* legendBox = new QWidget(this);
  auto* legendLayout = new QVBoxLayout(legendBox);
  legendLayout->setContentsMargins(0, 0, 0, 0);
  legendLayout->setSpacing(2);
  legendFilter_ = new QLineEdit(legendBox);
  legendFilter_->setObjectName(QStringLiteral("devicesFilter"));
  legendFilter_->setPlaceholderText(tr("Filter devices by name"));
  legendFilter_->setClearButtonEnabled(true);
  legendFilter_->hide();
  connect(legendFilter_, &QLineEdit::textChanged, legend_, &DeviceLegend::setFilter);
  legendLayout->addWidget(legendFilter_);
  legendLayout->addWidget(legendScroll, 1);
  QDockWidget* legendDock =
      makeDock(tr("Devices"), QStringLiteral("devicesDock"), legendBox, Qt::RightDockWidgetArea);
  QDockWidget* timelineDock = makeDock(tr("Timeline"), QStringLiteral("timelineDock"), timelineCompare_, Qt::BottomDockWidgetArea);
  QDockWidget* historyDock = makeDock(tr("History"), QStringLiteral("historyDock"), historyPanel_, Qt::BottomDockWidgetArea);
  rewardPlot_ = new RewardPlot(this);
  QDockWidget* rewardDock = makeDock(tr("Reward"), QStringLiteral("rewardDock"), rewardPlot_, Qt::RightDockWidgetArea);
  inspector_ = new OpInspector(this);
  QDockWidget* inspectorDock =
      makeDock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector_, Qt::RightDockWidgetArea);
  // Right column: devices, the inspector of the selected ops, the cluster (reward plot tabbed).
  splitDockWidget(legendDock, inspectorDock, Qt::Vertical);
  splitDockWidget(inspectorDock, clusterDock, Qt::Vertical);
  // The reward plot shares the cluster's place (a tab): it comes to the front when a run starts.
  tabifyDockWidget(clusterDock, rewardDock);
  clusterDock->raise();
  splitDockWidget(timelineDock, historyDock, Qt::Horizontal);
  resizeDocks({legendDock, clusterDock}, {380, 380}, Qt::Horizontal);
  resizeDocks({legendDock, inspectorDock, clusterDock}, {150, 250, 330}, Qt::Vertical);
  resizeDocks({timelineDock, historyDock}, {900, 480}, Qt::Horizontal);
  resizeDocks({timelineDock}, {260}, Qt::Vertical);
  for (QDockWidget* d : {legendDock, inspectorDock, clusterDock, historyDock, timelineDock, rewardDock})
    d->setMinimumWidth(120);
  createExplainDock();  // the Suggestions dock, a tab beside the cluster and the reward plot

  // Views -> document.
  connect(graphView_, &GraphView::selectionChanged, doc_, [this](const std::vector<OpId>& ops) { doc_->setSelection(ops); });
  connect(timelineCompare_, &TimelineCompare::selectionChanged, doc_,
          [this](const std::vector<OpId>& ops) { doc_->setSelection(ops); });
  connect(graphView_, &GraphView::assignRequested, doc_,
          [this](const std::vector<OpId>& ops, int device) { doc_->assignDevices(ops, device); });
  connect(legend_, &DeviceLegend::assignRequested, doc_,
          [this](const std::vector<OpId>& ops, int device) { doc_->assignDevices(ops, device); });
  connect(legend_, &DeviceLegend::deviceActivated, doc_, [this](int device) {
    std::vector<OpId> ops;
    const Plan& p = doc_->plan();
    for (OpId op = 0; op < static_cast<OpId>(p.device.size()); ++op)
      if (p.device[static_cast<size_t>(op)] == device) ops.push_back(op);
    doc_->setSelection(std::move(ops));
  });
  // The inspector's edits go through the document (which may refuse them, in the status bar).
  connect(inspector_, &OpInspector::priorityRequested, doc_,
          [this](int priority) { doc_->setPriority(doc_->selection(), priority); });
  connect(inspector_, &OpInspector::fuseRequested, doc_, [this] { doc_->fuseOps(doc_->selection()); });
  connect(inspector_, &OpInspector::unfuseRequested, doc_, [this] { doc_->unfuseOps(doc_->selection()); });
  connect(clusterPanel_, &ClusterPanel::presetChosen, doc_, [this](const QString& name) {
    if (!doc_->workspace() || doc_->workspace()->clusterLabel != name) doc_->setCluster(name);
  });
  connect(clusterPanel_, &ClusterPanel::fileChosen, doc_, [this](const QString& path) { doc_->setCluster(path); });
  connect(historyPanel_, &HistoryPanel::restoreRequested, doc_, [this](int row) { doc_->restoreHistoryEntry(row); });
  connect(historyPanel_, &HistoryPanel::compareChanged, this, &MainWindow::onCompareChanged);
  connect(graphView_, &GraphView::layoutStarted, this, [this] {
    layoutDone_ = false;
    updateMetrics();
    updateActions();
  });
  connect(graphView_, &GraphView::layoutFinished, this, [this] {
    layoutDone_ = true;
    updateMetrics();
    updateActions();
  });
}

void MainWindow::createStatusBar() {
  metricsLabel_ = new QLabel(this);
  metricsLabel_->setObjectName(QStringLiteral("metricsLabel"));
  busyLabel_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  cancelButton_ = new QToolButton(this);
  cancelButton_->setDefaultAction(cancelAct_);
  statusBar()->addWidget(metricsLabel_, 1);
  statusBar()->addPermanentWidget(busyLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancelButton_);
  busyLabel_->hide();
  progress_->hide();
  cancelButton_->hide();
}

// ---------------------------------------------------------------- document -> views

void MainWindow::connectDocument() {
  connect(doc_, &Document::opened, this, &MainWindow::onOpened);
  connect(doc_, &Document::clusterChanged, this, &MainWindow::onClusterChanged);
  connect(doc_, &Document::planChanged, this, &MainWindow::onPlanChanged);
  connect(doc_, &Document::measured, this, &MainWindow::onMeasured);
  connect(doc_, &Document::selectionChanged, this, [this](const std::vector<OpId>& ops) {
    graphView_->setSelectedOps(ops);
    timelineCompare_->setSelectedOps(ops);
    inspector_->setSelection(ops);
    updateActions();
  });
  connect(doc_, &Document::failed, this, &MainWindow::showError);
  connect(doc_, &Document::gpuMeasurementChanged, this, &MainWindow::onGpuMeasurementChanged);
  connect(doc_, &Document::calibrationChanged, this, [this] {
    onPlanChanged();  // the op costs of the graph's colours come from the new cost model
    updateTitle();
    updateActions();
  });
  connect(doc_, &Document::warning, this, &MainWindow::showWarning);
  connect(doc_, &Document::busyChanged, this, [this](bool busy) {
    busyLabel_->setVisible(busy);
    progress_->setVisible(busy);
    cancelButton_->setVisible(busy);
    if (!busy) busyLabel_->clear();
    updateActions();
  });
  connect(doc_, &Document::progress, this, [this](int percent, const QString& text) {
    busyLabel_->setText(text);
    updateActions();
    if (percent < 0) progress_->setRange(0, 0);  // busy indicator
    else {
      progress_->setRange(0, 100);
      progress_->setValue(percent);
    }
  });
  connect(doc_->undoStack(), &QUndoStack::indexChanged, this, [this] { updateMetrics(); });
  // The optimizer: a new curve per run; the plot's reference lines follow history.
  connect(doc_, &Document::optimizeStarted, this, [this] {
    rewardPlot_->clear();
    updateRewardReferences();
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("rewardDock"))) {
      dock->show();
      dock->raise();
    }
    updateActions();
  });
  connect(doc_, &Document::iterationReported, this,
          [this](const OptimizeProgress& p) { rewardPlot_->addIteration(p.report); });
  connect(doc_, &Document::optimizeFinished, this, [this] {
    rewardPlot_->replotNow();
    updateActions();
  });
  HistoryModel* h = doc_->history();
  for (auto sig : {&HistoryModel::rowsInserted, &HistoryModel::rowsRemoved})
    connect(h, sig, this, &MainWindow::updateRewardReferences);
  connect(h, &HistoryModel::modelReset, this, &MainWindow::updateRewardReferences);
}

void MainWindow::updateRewardReferences() {
  RewardReferences refs;
  const HistoryModel* h = doc_->history();
  for (int row = 0; row < h->count(); ++row) {
    const HistoryEntry& e = h->entry(row);
    if (e.lowerBound > 0) refs.lowerBound = e.lowerBound;
    if (e.kind == HistoryKind::Baseline && e.feasible && e.stepTime > 0 &&
        (refs.bestBaseline <= 0 || e.stepTime < refs.bestBaseline)) {
      refs.bestBaseline = e.stepTime;
      refs.bestBaselineName = e.label;
    }
  }
  if (refs.lowerBound <= 0 && doc_->hasMeasurement()) refs.lowerBound = doc_->measurement().lowerBound;
  rewardPlot_->setReferenceLines(refs);
}

void MainWindow::onOpened() {
  clearError();
  graphView_->setGraph(doc_->sharedGraph());
  inspector_->setGraph(doc_->sharedGraph());
  importBanner_->setGraph(doc_->sharedGraph());
  symbolicDimsAct_->setEnabled(!doc_->graph()->symbolicDims().empty());
  timeline_->clear();
  onClusterChanged();
  addRecentFile(doc_->workspace()->modelSpec);
  updateTitle();
}

void MainWindow::onClusterChanged() {
  const QStringList names = doc_->deviceNames();
  graphView_->setDevices(names);
  legendFilter_->clear();
  legendFilter_->setVisible(names.size() > 16);
  legend_->setDevices(names);
  inspector_->setDevices(names);
  clusterPanel_->setCluster(*doc_->cluster(), doc_->workspace()->clusterLabel);
  clusterPanel_->clearMeasurement();
  // the old cluster's timeline and start times are gone until the plan is measured here
  timeline_->clear();
  graphView_->setMeasurement(Measurement{});
  // Keys 1-9 and the Edit ▸ Assign menu follow the cluster's devices.
  assignMenu_->clear();
  updateGpuActions();  // a plan on more devices may need more GPUs
  // A menu entry per device up to a screenful; on a larger cluster the rest by name.
  constexpr int kMenuDevices = 32;
  for (int d = 0; d < std::min<int>(names.size(), kMenuDevices); ++d) {
    QAction* a = assignMenu_->addAction(tr("To %1").arg(names[d]));
    a->setObjectName(QStringLiteral("actionAssign%1").arg(d));
    connect(a, &QAction::triggered, doc_, [this, d] { doc_->assignDevices(doc_->selection(), d); });
  }
  if (names.size() > kMenuDevices) {
    assignMenu_->addSeparator();
    QAction* other = assignMenu_->addAction(tr("To Another Device…"));
    other->setObjectName(QStringLiteral("actionAssignOther"));
    connect(other, &QAction::triggered, this, [this] {
      bool ok = false;
      const QString name = QInputDialog::getText(this, tr("Assign Selection"), tr("Device name (node12/gpu3):"),
                                                 QLineEdit::Normal, {}, &ok).trimmed();
      if (!ok || name.isEmpty() || !doc_->cluster()) return;
      const int d = doc_->cluster()->findDevice(name.toStdString());
      if (d < 0)
        statusBar()->showMessage(tr("%1: no such device on %2").arg(name, QString::fromStdString(doc_->cluster()->name())), 10000);
      else
        doc_->assignDevices(doc_->selection(), d);
    });
  }
  updateTitle();
  updateActions();
}

void MainWindow::onPlanChanged() {
  graphView_->setPlan(doc_->plan());
  legend_->setOpCounts(doc_->opsPerDevice());
  inspector_->setPlan(doc_->plan());
  optimizePopup_->setPlanState(planedit::countFusion(doc_->plan()).groups, !doc_->plan().priority.empty());
  if (const auto ws = doc_->workspace()) {
    std::vector<double> cost(static_cast<size_t>(ws->graph->numOps()));
    for (OpId op = 0; op < ws->graph->numOps(); ++op)
      cost[static_cast<size_t>(op)] = ws->cost->opTime(op, doc_->plan().device[static_cast<size_t>(op)]);
    graphView_->setOpCosts(std::move(cost));
  }
  updateMetrics();
  updateActions();  // Unfuse follows the plan's groups
}

void MainWindow::onMeasured() {
  const Measurement& m = doc_->measurement();
  graphView_->setMeasurement(m);
  timeline_->setData(doc_->sharedGraph(), *doc_->cluster(), m);
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("timelineDock")))  // a large cluster: idle GPUs get no row
    dock->setWindowTitle(timeline_->hiddenDevices() > 0
                             ? tr("Timeline (%n idle device(s) not shown)", nullptr, timeline_->hiddenDevices())
                             : tr("Timeline"));
  timelineCompare_->syncAxes();  // one time axis with the measured step, when one is shown
  timelineCompare_->setSelectedOps(doc_->selection());
  clusterPanel_->setMeasurement(m);
  updateMetrics();
  explainMeasurement();
}

void MainWindow::onCompareChanged(int a, int b) {
  HistoryModel* h = doc_->history();
  if (a < 0 || b < 0 || a >= h->count() || b >= h->count()) {
    graphView_->setHighlightedOps({});
    historyPanel_->setComparisonDetail({});
    return;
  }
  std::vector<OpId> moved = HistoryModel::movedOps(h->entry(a).plan, h->entry(b).plan);
  const int n = static_cast<int>(moved.size());
  graphView_->setHighlightedOps(std::move(moved));
  historyPanel_->setComparisonDetail(pathChangeText(a, b));
  statusBar()->showMessage(tr("%n op(s) placed differently in “%1” and “%2” are outlined in the graph", nullptr, n)
                               .arg(h->entry(a).label, h->entry(b).label),
                           8000);
}

void MainWindow::updateTitle() {
  if (!doc_->hasModel()) {
    setWindowTitle(tr("graphplace"));
    return;
  }
  const Workspace& ws = *doc_->workspace();
  setWindowTitle(tr("%1 on %2 — graphplace").arg(ws.modelSpec.startsWith(QLatin1String("zoo:"))
                                                     ? ws.modelSpec
                                                     : QFileInfo(ws.modelSpec).fileName(),
                                                 ws.clusterLabel));
}

void MainWindow::updateMetrics() {
  if (!doc_->hasModel()) {
    metricsLabel_->setText(tr("No model open"));
    return;
  }
  const QLocale loc;
  const Graph& g = *doc_->graph();
  QString text = tr("%Ln op(s)", nullptr, g.numOps());
  if (doc_->hasMeasurement()) {
    const Measurement& m = doc_->measurement();
    text += QStringLiteral("  ·  ") +
            tr("step %1 ms  ·  bound %2 ms  ·  ×%3")
                .arg(loc.toString(m.stepTime * 1e3, 'f', 2), loc.toString(m.lowerBound * 1e3, 'f', 2),
                     loc.toString(m.ratio(), 'f', 2));
    if (!m.feasible) text += QStringLiteral("  ·  ") + tr("infeasible: %1").arg(QString::fromStdString(m.problem));
    if (!doc_->measurementIsCurrent()) text += QStringLiteral("  ·  ") + tr("plan edited, not measured (F5)");
  }
  if (const QString gpu = gpuMetricsText(); !gpu.isEmpty()) text += QStringLiteral("  ·  ") + gpu;
  if (const QString cal = calibrationMetricsText(); !cal.isEmpty()) text += QStringLiteral("  ·  ") + cal;
  if (!layoutDone_) text += QStringLiteral("  ·  ") + tr("laying out…");
  metricsLabel_->setText(text);
}

bool MainWindow::isIdle() const {
  return !doc_->isBusy() && layoutDone_ && !graphView_->isLayoutRunning() && !explainer_->searching();
}

// ---------------------------------------------------------------- errors

void MainWindow::showError(const QString& message) {
  lastError_ = message;
  errorBanner_->setText(message);
  errorBanner_->show();
  statusBar()->showMessage(message, 10000);
}

void MainWindow::showWarning(const QString& message) {
  lastWarning_ = message;
  statusBar()->showMessage(message, 5000);
}

void MainWindow::clearError() {
  lastError_.clear();
  errorBanner_->hide();
}

// ---------------------------------------------------------------- files

void MainWindow::openFile(const QString& path) {
  clearError();
  switch (fileKindOf(path)) {
    case FileKind::Placement:
      if (!doc_->hasModel()) {
        showError(tr("%1: open the model first, then its placement file").arg(path));
        return;
      }
      if (doc_->loadPlacement(path)) addRecentFile(path);
      return;
    case FileKind::Cluster:
      if (!doc_->hasModel()) {
        showError(tr("%1: open a model first, then a cluster file").arg(path));
        return;
      }
      if (doc_->setCluster(path)) addRecentFile(path);
      return;
    case FileKind::Model:
      doc_->open(OpenRequest{path, GraphMode::Default, {}, {}, {}, false});
      return;
  }
}

QString MainWindow::exportTo(ExportKind kind, const QString& path) {
  QString error;
  switch (kind) {
    case ExportKind::Placement: error = exportPlacement(*doc_, path); break;
    case ExportKind::AnnotatedOnnx: error = exportAnnotatedOnnx(*doc_, path); break;
    case ExportKind::Dot: error = exportDot(*doc_, path); break;
    case ExportKind::ChromeTrace: error = exportChromeTrace(*doc_, path); break;
    case ExportKind::GraphImage:
      error = exportImage([this](QPainter* p, const QRectF& r) { graphView_->renderTo(p, r); },
                          QSizeF(std::max(800, graphView_->width() * 2), std::max(600, graphView_->height() * 2)), path);
      break;
    case ExportKind::TimelineImage:
      // with the measured step below the simulated one when it is shown
      error = exportImage([this](QPainter* p, const QRectF& r) { timelineCompare_->renderTo(p, r); },
                          QSizeF(std::max(1200, timelineCompare_->width() * 2),
                                 std::max(400, timelineCompare_->height() * 2)),
                          path);
      break;
    case ExportKind::RewardPlotImage:
      error =
          exportImage([this](QPainter* p, const QRectF& r) { rewardPlot_->renderTo(p, r); }, QSizeF(1600, 900), path);
      break;
    case ExportKind::PlanReport: error = exportPlanReport(path); break;
  }
  if (error.isEmpty()) statusBar()->showMessage(tr("Saved %1").arg(path), 6000);
  else showError(error);
  return error;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  for (const QUrl& url : e->mimeData()->urls())
    if (url.isLocalFile()) {
      openFile(url.toLocalFile());
      e->acceptProposedAction();
      return;
    }
}

// ---------------------------------------------------------------- settings

void MainWindow::restoreSettings() {
  QSettings s;
  restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(s.value(QStringLiteral("window/state")).toByteArray());
  rebuildRecentMenu();
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue(QStringLiteral("window/geometry"), saveGeometry());
  s.setValue(QStringLiteral("window/state"), saveState());
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  gpu_->probe();  // once, in the background: the GPU actions' state (see GpuAvailability)
}

void MainWindow::closeEvent(QCloseEvent* e) {
  doc_->cancel();
  if (parallelWindow_) parallelWindow_->close();
  saveSettings();
  e->accept();
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings s;
  QStringList recent = s.value(QStringLiteral("recentFiles")).toStringList();
  const QString entry = path.startsWith(QLatin1String("zoo:")) ? path : QFileInfo(path).absoluteFilePath();
  recent.removeAll(entry);
  recent.prepend(entry);
  while (recent.size() > 10) recent.removeLast();
  s.setValue(QStringLiteral("recentFiles"), recent);
  rebuildRecentMenu();
}

}  // namespace gp
