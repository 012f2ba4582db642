// MainWindow's actions, menus and toolbar, and the dialogs they open.
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QWidgetAction>

#include "allowed_action.h"
#include "graph/graph_search_bar.h"
#include "graph/graph_view.h"
#include "language.h"
#include "import_notice.h"
#include "main_window.h"
#include "optimize_popup.h"
#include "panels/history_panel.h"
#include "panels/op_inspector.h"
#include "placement/placer.h"
#include "profile_dialog.h"
#include "timeline/timeline_compare.h"
#include "timeline/timeline_view.h"
#include "zoo/zoo.h"

namespace gp {

namespace {
QAction* makeAction(QObject* parent, const QString& text, const QString& name, const QKeySequence& key = {}) {
  auto* a = new QAction(text, parent);
  a->setObjectName(name);
  if (!key.isEmpty()) a->setShortcut(key);
  return a;
}
}  // namespace

void MainWindow::createActions() {
  openAct_ = makeAction(this, tr("&Open…"), QStringLiteral("actionOpen"), QKeySequence::Open);
  connect(openAct_, &QAction::triggered, this, &MainWindow::chooseAndOpen);
  undoAct_ = doc_->undoStack()->createUndoAction(this);  // Qt's translated "Undo %1"
  undoAct_->setObjectName(QStringLiteral("actionUndo"));
  undoAct_->setShortcut(QKeySequence::Undo);
  redoAct_ = doc_->undoStack()->createRedoAction(this);
  redoAct_->setObjectName(QStringLiteral("actionRedo"));
  redoAct_->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
  measureAct_ = makeAction(this, tr("&Measure"), QStringLiteral("actionMeasure"), QKeySequence(Qt::Key_F5));
  measureAct_->setToolTip(tr("Simulate the current plan and add it to the history (F5)"));
  connect(measureAct_, &QAction::triggered, doc_, [this] { doc_->measure(); });
  allBaselinesAct_ = makeAction(this, tr("Run &All Baselines"), QStringLiteral("actionAllBaselines"));
  connect(allBaselinesAct_, &QAction::triggered, doc_, [this] {
    QStringList methods;
    for (const std::string& m : placementMethods()) methods << QString::fromStdString(m);
    doc_->runBaselines(methods);
  });
  cancelAct_ = makeAction(this, tr("Cancel"), QStringLiteral("actionCancel"), QKeySequence(Qt::Key_Escape | Qt::SHIFT));
  cancelAct_->setToolTip(tr("Stop the running baselines and the graph layout"));
  connect(cancelAct_, &QAction::triggered, this, [this] {
    doc_->cancel();
    graphView_->cancelLayout();
  });
  fitAct_ = makeAction(this, tr("Zoom to &Fit"), QStringLiteral("actionZoomToFit"), QKeySequence(Qt::CTRL | Qt::Key_0));
  connect(fitAct_, &QAction::triggered, this, [this] {
    graphView_->zoomToFit();
    timelineCompare_->zoomToFit();
  });
  optimizeAct_ =
      makeAction(this, tr("&Optimize"), QStringLiteral("actionOptimize"), QKeySequence(Qt::CTRL | Qt::Key_R));
  setAllowedTip(optimizeAct_,
                tr("Improve the current plan with the reinforcement-learning optimizer (options: the arrow)"));
  optimizePopup_ = new OptimizePopup(this);
  connect(optimizeAct_, &QAction::triggered, doc_, [this] { doc_->optimize(optimizePopup_->options()); });
  stopOptimizeAct_ = makeAction(this, tr("&Stop"), QStringLiteral("actionStopOptimize"));
  stopOptimizeAct_->setToolTip(tr("Stop the optimizer; its best plan so far is kept"));
  connect(stopOptimizeAct_, &QAction::triggered, doc_, [this] { doc_->cancelOptimize(); });
  // Hand edits of the schedule and fusion of the selection (also in the inspector and the graph's
  // context menu); the document refuses what the rules forbid, with a line in the status bar.
  setPriorityAct_ =
      makeAction(this, tr("Set &Priority…"), QStringLiteral("actionSetPriority"), QKeySequence(Qt::CTRL | Qt::Key_P));
  setAllowedTip(setPriorityAct_, tr("Type the selected ops' priority in the inspector (Return applies)"));
  connect(setPriorityAct_, &QAction::triggered, this, &MainWindow::focusPrioritySpin);
  fuseAct_ = makeAction(this, tr("Fu&se Selection"), QStringLiteral("actionFuse"), QKeySequence(Qt::CTRL | Qt::Key_G));
  setAllowedTip(fuseAct_, tr("Run the selected ops as one kernel"));
  connect(fuseAct_, &QAction::triggered, doc_, [this] { doc_->fuseOps(doc_->selection()); });
  unfuseAct_ = makeAction(this, tr("U&nfuse Selection"), QStringLiteral("actionUnfuse"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
  setAllowedTip(unfuseAct_, tr("Take the selected ops out of their fusion groups"));
  connect(unfuseAct_, &QAction::triggered, doc_, [this] { doc_->unfuseOps(doc_->selection()); });
  graphView_->setSelectionActions({setPriorityAct_, fuseAct_, unfuseAct_});
  modelActions_ = {measureAct_, allBaselinesAct_, fitAct_};
  createGpuActions();
  createParallelAction();
  createCostModelAction();
}

void MainWindow::createMenus() {
  // File
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAct_);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  QMenu* examples = file->addMenu(tr("&Examples"));
  for (const ZooEntry& z : zooModels()) {
    const QString spec = QStringLiteral("zoo:%1").arg(QString::fromStdString(z.name));
    QAction* a = examples->addAction(spec);
    a->setToolTip(QString::fromStdString(z.description));
    a->setStatusTip(QString::fromStdString(z.description));
    connect(a, &QAction::triggered, doc_, [this, spec] { doc_->open(OpenRequest{spec, GraphMode::Default, {}, {}, {}, false}); });
  }
  symbolicDimsAct_ = file->addAction(tr("Symbolic &Dimensions…"));
  symbolicDimsAct_->setObjectName(QStringLiteral("actionSymbolicDims"));
  symbolicDimsAct_->setStatusTip(tr("Set the values of the model's symbolic input dimensions and reopen it"));
  symbolicDimsAct_->setEnabled(false);
  connect(symbolicDimsAct_, &QAction::triggered, this, &MainWindow::chooseSymbolicDims);
  QAction* openPlacement = file->addAction(tr("Apply &Placement File…"));
  connect(openPlacement, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Apply Placement File"), {},
                                                      tr("Placement files (*.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
  });
  QAction* loadCluster = file->addAction(tr("Load &Cluster…"));
  loadCluster->setObjectName(QStringLiteral("actionLoadCluster"));
  loadClusterAct_ = loadCluster;
  connect(loadCluster, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Cluster"), {}, tr("Cluster files (*.json);;All files (*)"));
    if (!path.isEmpty()) doc_->setCluster(path);
  });
  QAction* attach = file->addAction(tr("Attach to &Run…"));
  attach->setObjectName(QStringLiteral("actionAttachRun"));
  attach->setStatusTip(tr("Follow the event log of an optimize or pretrain run (--events FILE), running or finished"));
  connect(attach, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Attach to Run"), {},
                                                      tr("Run event logs (*.jsonl);;All files (*)"));
    if (!path.isEmpty()) attachRun(path);
  });
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  const std::pair<QString, ExportKind> exports[] = {
      {tr("&Placement File…"), ExportKind::Placement},   {tr("Annotated &ONNX…"), ExportKind::AnnotatedOnnx},
      {tr("Graphviz &DOT…"), ExportKind::Dot},           {tr("Chrome &Trace…"), ExportKind::ChromeTrace},
      {tr("&Graph Image…"), ExportKind::GraphImage},     {tr("T&imeline Image…"), ExportKind::TimelineImage},
      {tr("&Reward Plot Image…"), ExportKind::RewardPlotImage}, {tr("Plan Re&port…"), ExportKind::PlanReport}};
  for (const auto& [text, kind] : exports) {
    QAction* a = exportMenu->addAction(text);
    connect(a, &QAction::triggered, this, [this, kind = kind] { chooseAndExport(kind); });
    modelActions_ << a;
  }
  modelActions_ << openPlacement << loadCluster;
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"));
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);

  // Edit
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undoAct_);
  edit->addAction(redoAct_);
  edit->addSeparator();
  assignMenu_ = edit->addMenu(tr("&Assign Selection"));
  edit->addAction(setPriorityAct_);
  edit->addAction(fuseAct_);
  edit->addAction(unfuseAct_);
  edit->addSeparator();
  QAction* clearSel = edit->addAction(tr("Clear Selection"));
  connect(clearSel, &QAction::triggered, doc_, [this] { doc_->setSelection({}); });
  QAction* find = edit->addAction(tr("&Find…"));
  find->setShortcut(QKeySequence::Find);
  connect(find, &QAction::triggered, this, [this] {
    searchBar_->lineEdit()->setFocus();
    searchBar_->lineEdit()->selectAll();
  });

  // View
  viewMenu_ = menuBar()->addMenu(tr("&View"));
  viewMenu_->addAction(fitAct_);
  createExplainActions();
  QAction* expandAll = viewMenu_->addAction(tr("&Expand All Groups"));
  connect(expandAll, &QAction::triggered, graphView_, &GraphView::expandAll);
  QAction* collapseAll = viewMenu_->addAction(tr("&Collapse All Groups"));
  connect(collapseAll, &QAction::triggered, graphView_, &GraphView::collapseAll);
  modelActions_ << expandAll << collapseAll;
  viewMenu_->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) viewMenu_->addAction(dock->toggleViewAction());
  viewMenu_->addSeparator();
  QMenu* lang = viewMenu_->addMenu(tr("&Language"));
  auto* langGroup = new QActionGroup(this);
  const QString current = QSettings().value(QStringLiteral("language")).toString();
  for (const auto& [code, name] : availableLanguages()) {
    QAction* a = lang->addAction(name);
    a->setCheckable(true);
    a->setChecked(code == current);
    langGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, code = code] { chooseLanguage(code); });
  }

  addClusterMenu();

  // Run
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->setToolTipsVisible(true);  // Measure on GPUs says why it is disabled
  run->addAction(measureAct_);
  run->addAction(measureGpuAct_);
  QMenu* baselines = run->addMenu(tr("&Baselines"));
  baselines->addAction(allBaselinesAct_);
  baselines->addSeparator();
  baselines->setToolTipsVisible(true);  // disabled while the plan runs on the GPUs, saying why
  baselineActions_ = {allBaselinesAct_};
  for (const std::string& m : placementMethods()) {
    const QString method = QString::fromStdString(m);
    QAction* a = baselines->addAction(method);
    a->setObjectName(QStringLiteral("actionBaseline_%1").arg(method));
    connect(a, &QAction::triggered, doc_, [this, method] { doc_->runBaselines({method}); });
    modelActions_ << a;
    baselineActions_ << a;
  }
  run->addSeparator();
  run->addAction(optimizeAct_);
  run->addAction(stopOptimizeAct_);
  run->addAction(parallelAct_);
  run->addAction(costModelAct_);
  run->addSeparator();
  run->addAction(cancelAct_);

  // Help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* about = help->addAction(tr("&About graphplace"));
  connect(about, &QAction::triggered, this, [this] {
    QMessageBox::about(this, tr("About graphplace"),
                       tr("<b>graphplace %1</b><p>Chooses where and when each op of a model's graph runs on a "
                          "GPU cluster, and shows every result against the lower bound.</p>")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::createToolBar() {
  QToolBar* tb = addToolBar(tr("Main"));
  tb->setObjectName(QStringLiteral("mainToolBar"));
  tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
  tb->addAction(openAct_);
  tb->addSeparator();
  // Undo/redo as icons: their text ("Undo Move 12 ops to gpu2") is in the tooltip and the Edit menu.
  for (auto [act, icon] : {std::pair{undoAct_, QStyle::SP_ArrowBack}, std::pair{redoAct_, QStyle::SP_ArrowForward}}) {
    act->setIcon(style()->standardIcon(icon));
    auto* button = new QToolButton(tb);
    button->setDefaultAction(act);
    button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    tb->addWidget(button);
  }
  tb->addSeparator();
  tb->addAction(measureAct_);
  tb->addAction(measureGpuAct_);
  auto* baselineButton = new QToolButton(tb);
  baselineButton->setText(tr("Baselines"));
  baselineButton->setPopupMode(QToolButton::InstantPopup);
  for (QMenu* m : menuBar()->findChildren<QMenu*>())
    if (m->title() == tr("&Baselines")) baselineButton->setMenu(m);
  tb->addWidget(baselineButton);
  // Optimize: a click runs it; the arrow opens its options.
  auto* optimizeButton = new QToolButton(tb);
  optimizeButton->setObjectName(QStringLiteral("optimizeButton"));
  optimizeButton->setDefaultAction(optimizeAct_);
  optimizeButton->setPopupMode(QToolButton::MenuButtonPopup);
  auto* optionsMenu = new QMenu(optimizeButton);
  auto* optionsAction = new QWidgetAction(optionsMenu);
  optionsAction->setDefaultWidget(optimizePopup_);
  optionsMenu->addAction(optionsAction);
  optimizeButton->setMenu(optionsMenu);
  tb->addWidget(optimizeButton);
  tb->addAction(stopOptimizeAct_);
  tb->addSeparator();
  colorMode_ = new QComboBox(tb);
  colorMode_->setObjectName(QStringLiteral("colorMode"));
  colorMode_->addItem(tr("Colour: device"), static_cast<int>(GraphView::ColorMode::Device));
  colorMode_->addItem(tr("Colour: fusion group"), static_cast<int>(GraphView::ColorMode::FusionGroup));
  colorMode_->addItem(tr("Colour: start time"), static_cast<int>(GraphView::ColorMode::StartTime));
  colorMode_->addItem(tr("Colour: op cost"), static_cast<int>(GraphView::ColorMode::OpCost));
  colorMode_->addItem(tr("Colour: prediction error"), static_cast<int>(GraphView::ColorMode::PredictionError));
  colorMode_->setItemData(colorMode_->count() - 1,
                          tr("The learned cost model's error per op's kernel, from Run ▸ Cost Model… (grey: not measured)"),
                          Qt::ToolTipRole);
  colorMode_->addItem(tr("Colour: slack"), static_cast<int>(GraphView::ColorMode::Slack));
  colorMode_->setItemData(colorMode_->count() - 1,
                          tr("How much later each op could finish without lengthening the step (View ▸ Critical Path)"),
                          Qt::ToolTipRole);
  connect(colorMode_, &QComboBox::currentIndexChanged, this, [this](int i) {
    graphView_->setColorMode(static_cast<GraphView::ColorMode>(colorMode_->itemData(i).toInt()));
  });
  tb->addWidget(colorMode_);
  tb->addAction(fitAct_);
  tb->addSeparator();
  searchBar_ = new GraphSearchBar(graphView_, tb);
  searchBar_->setObjectName(QStringLiteral("searchBar"));
  tb->addWidget(searchBar_);
}

void MainWindow::chooseSymbolicDims() {
  if (!doc_->hasModel() || doc_->graph()->symbolicDims().empty()) return;
  std::map<std::string, int64_t> dims;
  if (!askSymbolicDims(this, doc_->graph()->symbolicDims(), dims)) return;
  const auto ws = doc_->workspace();
  OpenRequest request{ws->modelSpec, ws->options.mode, {}, {}, {}, false};
  request.dims = std::move(dims);
  request.precision = ws->options.precision;
  doc_->open(request);
}

void MainWindow::updateActions() {
  const bool model = doc_->hasModel();
  for (QAction* a : modelActions_) a->setEnabled(model);
  cancelAct_->setEnabled(doc_->canCancel() || !layoutDone_);
  allowIf(optimizeAct_, model, doc_->whyNot(JobKind::Optimize));
  stopOptimizeAct_->setEnabled(doc_->isOptimizing());
  for (QAction* a : baselineActions_) allowIf(a, model, doc_->whyNot(JobKind::Baselines));
  // While the optimizer runs, the shown plan is its best so far: no edits until it stops.
  const QString editWhy = doc_->whyNot(JobKind::EditPlan);
  allowIf(undoAct_, doc_->undoStack()->canUndo(), editWhy);
  allowIf(redoAct_, doc_->undoStack()->canRedo(), editWhy);
  const std::vector<OpId>& sel = doc_->selection();
  const bool editable = model && editWhy.isEmpty();
  assignMenu_->setEnabled(editable && !sel.empty());
  allowIf(setPriorityAct_, model && !sel.empty(), editWhy);
  // Fuse: two ops or more (the rules are checked when it is asked for, and a refusal says why).
  allowIf(fuseAct_, model && sel.size() >= 2, editWhy);
  const Plan& plan = doc_->plan();
  bool anyFused = false;
  if (plan.fusionGroup.size() == plan.device.size())
    for (OpId op : sel) anyFused = anyFused || plan.fusionGroup[static_cast<size_t>(op)] >= 0;
  allowIf(unfuseAct_, model && anyFused, editWhy);
  inspector_->setEditable(editable);
  historyPanel_->setRestoreRefusal(editWhy);
  colorMode_->setEnabled(model);
  updateGpuActions();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
  for (const QString& path : recent) {
    QAction* a = recentMenu_->addAction(path.startsWith(QLatin1String("zoo:")) ? path : QFileInfo(path).fileName());
    a->setToolTip(path);
    a->setStatusTip(path);
    connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
  }
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::chooseAndOpen() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Model"), {},
      tr("Models (*.onnx *.pt *.pth *.torchscript *.dot *.gv *.json);;Placement files (*.json);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::chooseAndExport(ExportKind kind) {
  QString filter;
  switch (kind) {
    case ExportKind::Placement: filter = tr("Placement files (*.json)"); break;
    case ExportKind::AnnotatedOnnx: filter = tr("ONNX models (*.onnx)"); break;
    case ExportKind::Dot: filter = tr("Graphviz DOT (*.dot *.gv)"); break;
    case ExportKind::ChromeTrace: filter = tr("Chrome traces (*.json)"); break;
    case ExportKind::GraphImage:
    case ExportKind::TimelineImage:
    case ExportKind::RewardPlotImage: filter = tr("PNG images (*.png);;SVG drawings (*.svg)"); break;
    case ExportKind::PlanReport: filter = tr("HTML pages (*.html)"); break;
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export"), {}, filter);
  if (!path.isEmpty()) exportTo(kind, path);
}

void MainWindow::focusPrioritySpin() {
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("inspectorDock"))) {
    dock->show();
    dock->raise();
  }
  QSpinBox* spin = inspector_->prioritySpin();
  spin->setFocus(Qt::ShortcutFocusReason);
  spin->selectAll();
}

void MainWindow::chooseLanguage(const QString& code) {
  QSettings().setValue(QStringLiteral("language"), code);
  statusBar()->showMessage(tr("The language changes when graphplace starts again."), 8000);
}

}  // namespace gp
