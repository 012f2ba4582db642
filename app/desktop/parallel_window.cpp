#include "parallel_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "parallel/device_memory_panel.h"
#include "parallel/layer_stack_view.h"
#include "parallel/mesh_view.h"
#include "parallel/mfu_plot.h"
#include "parallel/parallel_controls.h"
#include "parallel/parallel_format.h"
#include "parallel/pipeline_view.h"
#include "parallel_export.h"
#include "launch/launch_formats.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"

namespace gp {

namespace {

QAction* makeAction(QObject* parent, const QString& text, const char* name, const QString& tip) {
  auto* a = new QAction(text, parent);
  a->setObjectName(QString::fromLatin1(name));
  a->setToolTip(tip);
  return a;
}

QWidget* titled(const QString& title, QWidget* content, QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->setSpacing(2);
  auto* label = new QLabel(title, box);
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  layout->addWidget(label);
  layout->addWidget(content, 1);
  return box;
}

}  // namespace

ParallelWindow::ParallelWindow(QWidget* parent) : QMainWindow(parent, Qt::Window) {
  setObjectName(QStringLiteral("ParallelWindow"));
  setWindowTitle(tr("Parallel Plan"));
  dqn_.budgetSeconds = 20;
  createActions();
  pages_ = new QStackedWidget(this);
  message_ = new QLabel(pages_);
  message_->setObjectName(QStringLiteral("parallelMessage"));
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setMargin(24);
  pages_->addWidget(message_);
  pages_->addWidget(createPlanPage());
  setCentralWidget(pages_);
  statusBar();

  connect(&session_, &ParallelSession::loaded, this, &ParallelWindow::onLoaded);
  connect(&session_, &ParallelSession::loadFailed, this, [this](const QString& reason) {
    showMessage(tr("No parallel plan for this model: %1").arg(reason) + QStringLiteral("\n\n") +
                    tr("Parallel plans split a model made of repeated layers, such as zoo:bert_base or zoo:gpt_13b "
                       "(File ▸ Examples)."),
                true);
  });
  connect(&session_, &ParallelSession::changed, this, &ParallelWindow::onChanged);
  connect(&session_, &ParallelSession::busyChanged, this, &ParallelWindow::onBusyChanged);
  connect(&session_, &ParallelSession::warning, this, [this](const QString& m) {
    controls_->setNotice(m);
    statusBar()->showMessage(m, 10000);
    controls_->setState(session_.state());  // a refused edit: back to what is applied
  });
  connect(&session_, &ParallelSession::searchStarted, this, [this](ParallelSession::Method m) {
    controls_->setNotice({});
    statusBar()->showMessage(tr("%1 is searching…").arg(ParallelSession::methodLabel(m)));
    if (m == ParallelSession::Method::Dqn) {
      mfu_->clear();
      updateMfuReference();
    }
  });
  connect(&session_, &ParallelSession::episodes, this, [this](const std::vector<DqnEpisodeReport>& reports) {
    for (const DqnEpisodeReport& r : reports) mfu_->addEpisode(r);
    statusBar()->showMessage(tr("DQN: episode %1, best MFU %2 %")
                                 .arg(reports.back().episode)
                                 .arg(pformat::percentText(reports.back().bestReward)));
  });
  connect(&session_, &ParallelSession::searchFinished, this, &ParallelWindow::onSearchFinished);
  onBusyChanged();
  resize(1500, 950);
}

ParallelWindow::~ParallelWindow() = default;

void ParallelWindow::createActions() {
  megatron_ = makeAction(
      this, tr("Megatron"), "parallelMegatron",
      tr("Megatron-LM's rule: the smallest tensor × pipeline size that fits, data parallelism over the rest"));
  dataParallel_ =
      makeAction(this, tr("Data parallel"), "parallelDataParallel",
                 tr("The fastest plan with data parallelism alone (ZeRO 0–3, micro-batches, recomputation)"));
  recipe_ = makeAction(this, tr("Published recipe"), "parallelRecipe",
                       tr("The published plan closest in shape (parameters, GPUs, sequence), carried over to this model "
                          "and cluster: the plan most practitioners would pick"));
  exact_ = makeAction(this, tr("Exact"), "parallelExact",
                      tr("Every plan shape, stage boundaries by dynamic programming, pruned by a lower bound"));
  optimize_ = makeAction(this, tr("Optimize"), "parallelOptimize",
                         tr("Search with the DQN in the background; its MFU per episode is plotted as it runs"));
  stop_ = makeAction(this, tr("Stop"), "parallelStop", tr("Stop the search; the best plan found so far is applied"));
  reset_ = makeAction(this, tr("Reset"), "parallelReset", tr("Back to the first plan shown (undoable)"));
  undo_ = session_.undoStack()->createUndoAction(this);
  undo_->setObjectName(QStringLiteral("parallelUndo"));
  undo_->setShortcut(QKeySequence::Undo);
  redo_ = session_.undoStack()->createRedoAction(this);
  redo_->setObjectName(QStringLiteral("parallelRedo"));
  redo_->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
  exportPlan_ = makeAction(this, tr("Export Plan…"), "parallelExportPlan",
                           tr("Write the plan file (graphplace-cli parallelize --plan reads it)"));
  exportTrace_ = makeAction(this, tr("Export Trace…"), "parallelExportTrace",
                            tr("Write the simulated step as a Chrome trace (Perfetto)"));
  exportLaunch_ = makeAction(this, tr("Export Launch Configuration…"), "parallelExportLaunch",
                             tr("Write the plan as Megatron-LM arguments, NeMo overrides, a torchtitan or DeepSpeed "
                                "configuration; what the framework cannot express is named"));
  importLaunch_ = makeAction(this, tr("Import Launch Configuration…"), "parallelImportLaunch",
                             tr("Read Megatron-LM arguments, NeMo recipe overrides, a torchtitan or DeepSpeed configuration as the plan, "
                                "explain it and set the best plan found beside it"));
  opGraph_ = makeAction(this, tr("Op Graph"), "parallelOpGraph",
                        tr("The model's ops and their placement on the devices, in the main window"));
  using M = ParallelSession::Method;
  connect(megatron_, &QAction::triggered, this, [this] { session_.run(M::Megatron); });
  connect(dataParallel_, &QAction::triggered, this, [this] { session_.run(M::DataParallel); });
  connect(recipe_, &QAction::triggered, this, [this] { session_.run(M::Recipe); });
  connect(exact_, &QAction::triggered, this, [this] { session_.run(M::Exact); });
  connect(optimize_, &QAction::triggered, this, [this] {
    DqnOptions o = dqn_;
    o.budgetSeconds = budget_->value();
    session_.optimize(o);
  });
  connect(stop_, &QAction::triggered, &session_, &ParallelSession::stop);
  connect(reset_, &QAction::triggered, &session_, &ParallelSession::reset);
  connect(exportPlan_, &QAction::triggered, this, [this] { chooseAndExport(false); });
  connect(exportTrace_, &QAction::triggered, this, [this] { chooseAndExport(true); });
  connect(exportLaunch_, &QAction::triggered, this, &ParallelWindow::chooseAndExportLaunch);
  connect(importLaunch_, &QAction::triggered, this, &ParallelWindow::chooseAndImportLaunch);
  connect(opGraph_, &QAction::triggered, this, &ParallelWindow::opGraphRequested);

  QToolBar* tb = addToolBar(tr("Plan"));
  tb->setObjectName(QStringLiteral("parallelToolBar"));
  tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
  tb->addActions({megatron_, dataParallel_, recipe_, exact_});
  tb->addSeparator();
  tb->addAction(optimize_);
  budget_ = new QSpinBox(tb);
  budget_->setObjectName(QStringLiteral("parallelBudget"));
  budget_->setRange(1, 3600);
  budget_->setValue(20);
  budget_->setSuffix(tr(" s"));
  budget_->setToolTip(tr("How long the DQN searches"));
  tb->addWidget(budget_);
  tb->addAction(stop_);
  tb->addSeparator();
  tb->addAction(reset_);
  tb->addAction(undo_);
  tb->addAction(redo_);
  tb->addSeparator();
  tb->addActions({importLaunch_, exportPlan_, exportTrace_, exportLaunch_});
  tb->addSeparator();
  tb->addAction(opGraph_);

  QMenu* plan = menuBar()->addMenu(tr("&Plan"));
  plan->addActions({undo_, redo_});
  plan->addSeparator();
  plan->addActions({megatron_, dataParallel_, recipe_, exact_, optimize_, stop_, reset_});
  plan->addSeparator();
  plan->addActions({importLaunch_, exportPlan_, exportTrace_, exportLaunch_});
  plan->addSeparator();
  plan->addAction(opGraph_);
  QAction* close = plan->addAction(tr("&Close"));
  close->setShortcut(QKeySequence::Close);
  connect(close, &QAction::triggered, this, &QWidget::close);
}

QWidget* ParallelWindow::createPlanPage() {
  auto* split = new QSplitter(Qt::Horizontal, pages_);
  split->setObjectName(QStringLiteral("parallelSplit"));
  // Left: the controls, the history, the DQN's curve.
  auto* left = new QSplitter(Qt::Vertical, split);
  controls_ = new ParallelControls(left);
  left->addWidget(titled(tr("Plan"), controls_, left));
  historyView_ = new QTableView(left);
  historyView_->setObjectName(QStringLiteral("parallelHistory"));
  historyView_->setModel(session_.history());
  historyView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  historyView_->setSelectionMode(QAbstractItemView::SingleSelection);
  historyView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  historyView_->verticalHeader()->hide();
  historyView_->setShowGrid(false);
  historyView_->setAlternatingRowColors(true);
  historyView_->setWordWrap(false);
  historyView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  historyView_->horizontalHeader()->setSectionResizeMode(ParallelHistoryModel::Shape, QHeaderView::Stretch);
  historyView_->setToolTip(tr("Every plan produced; click one to show it again (undoable)"));
  left->addWidget(titled(tr("History"), historyView_, left));
  mfu_ = new MfuPlot(left);
  left->addWidget(titled(tr("Optimizer (DQN)"), mfu_, left));
  left->setSizes({330, 330, 240});

  // Right: summary and layer stack, the timeline, the mesh and the memory.
  auto* right = new QSplitter(Qt::Vertical, split);
  auto* top = new QWidget(right);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(6, 6, 6, 0);
  topLayout->setSpacing(4);
  title_ = new QLabel(top);
  title_->setObjectName(QStringLiteral("parallelTitle"));
  title_->setWordWrap(true);
  summary_ = new QLabel(top);
  summary_->setObjectName(QStringLiteral("parallelSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont big = summary_->font();
  big.setPointSizeF(big.pointSizeF() * 1.2);
  big.setBold(true);
  summary_->setFont(big);
  memoryVerdict_ = new QLabel(top);
  memoryVerdict_->setObjectName(QStringLiteral("parallelMemoryVerdict"));
  memoryVerdict_->setWordWrap(true);
  memoryVerdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  breakdown_ = new QLabel(top);
  breakdown_->setObjectName(QStringLiteral("parallelBreakdown"));
  breakdown_->setWordWrap(true);
  breakdown_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  beside_ = new QLabel(top);
  beside_->setObjectName(QStringLiteral("parallelBeside"));
  beside_->setWordWrap(true);
  beside_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  beside_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; padding: 4px; }"));
  beside_->hide();
  layers_ = new LayerStackView(top);
  layers_->setObjectName(QStringLiteral("parallelLayers"));
  topLayout->addWidget(title_);
  topLayout->addWidget(summary_);
  topLayout->addWidget(memoryVerdict_);
  topLayout->addWidget(breakdown_);
  topLayout->addWidget(beside_);
  topLayout->addWidget(layers_);
  right->addWidget(top);
  pipeline_ = new PipelineView(right);
  pipeline_->setObjectName(QStringLiteral("parallelPipeline"));
  right->addWidget(titled(tr("Pipeline (one training step)"), pipeline_, right));
  auto* bottom = new QSplitter(Qt::Horizontal, right);
  mesh_ = new MeshView(bottom);
  mesh_->setObjectName(QStringLiteral("parallelMesh"));
  bottom->addWidget(titled(tr("Mesh on the cluster (outlined: tensor-parallel groups)"), mesh_, bottom));
  memory_ = new DeviceMemoryPanel(bottom);
  bottom->addWidget(titled(tr("Peak memory per device"), memory_, bottom));
  bottom->setSizes({560, 440});
  right->addWidget(bottom);
  right->setStretchFactor(0, 0);
  right->setStretchFactor(1, 3);
  right->setStretchFactor(2, 2);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  split->setSizes({500, 1000});

  // Edits go to the session, which applies them (changed: onChanged) or refuses them (warning).
  connect(controls_, &ParallelControls::editRequested, &session_,
          [this](const pedit::PlanState& after, const QString& text) { session_.edit(after, text); });
  connect(layers_, &LayerStackView::boundaryMoved, &session_, [this](int boundary, int first) {
    const pedit::PlanState& s = session_.state();
    session_.edit({s.batch, pedit::withBoundary(s.plan, boundary, first)},
                  tr("Stage %1 starts at layer %2").arg(boundary).arg(first));
  });
  // A click, or Return on the keyboard's row, shows that plan again.
  for (auto signal : {&QTableView::clicked, &QTableView::activated})
    connect(historyView_, signal, this, [this](const QModelIndex& index) {
      if (index.isValid()) session_.restore(index.row());
    });
  return split;
}

void ParallelWindow::setWorkspace(const std::shared_ptr<const Workspace>& ws, bool searchAfterLoad) {
  if (!ws) return;
  if (ws->graph.get() == graph_ && ws->cluster.get() == cluster_) return;
  if (!graph_ && ws->cluster.get() == cluster_ && !preloaded_.empty() && preloaded_ == ws->identity.sha256) {
    graph_ = ws->graph.get();  // preload() is loading it already
    preloaded_.clear();
    return;
  }
  preloaded_.clear();
  graph_ = ws->graph.get();
  cluster_ = ws->cluster.get();
  setWindowTitle(tr("Parallel Plan — %1 on %2").arg(ws->modelSpec, QString::fromStdString(ws->cluster->name())));
  mfu_->clear();
  showMessage(tr("Loading %1 as a stack of layers…").arg(ws->modelSpec), false);
  session_.load(ws, searchAfterLoad);
}

void ParallelWindow::preload(const QString& modelSpec, const LoadOptions& options,
                             const std::shared_ptr<const Cluster>& cluster, bool searchAfterLoad) {
  graph_ = nullptr;
  cluster_ = cluster.get();
  preloaded_ = modelSha256(modelSpec.toStdString(), options);
  setWindowTitle(tr("Parallel Plan — %1 on %2").arg(modelSpec, QString::fromStdString(cluster->name())));
  mfu_->clear();
  showMessage(tr("Loading %1 as a stack of layers…").arg(modelSpec), false);
  session_.load(modelSpec, options, cluster, searchAfterLoad);
}

void ParallelWindow::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b3261e; font-size: 13pt; }") : QString());
  pages_->setCurrentIndex(0);
}

void ParallelWindow::onLoaded() {
  const ParallelTask& t = *session_.task();
  const LayerStack& st = t.stack;
  title_->setText(tr("%1 on %2: %3 layers, hidden %4, %5 heads, %6 G parameters, %7 · %8 devices")
                      .arg(session_.modelSpec(), session_.clusterName())
                      .arg(st.numLayers())
                      .arg(st.hidden)
                      .arg(st.heads)
                      .arg(QLocale().toString(static_cast<double>(st.totalParams()) / 1e9, 'f', 2),
                           dtypeSize(st.activationType) == 2 ? tr("mixed precision") : tr("fp32"))
                      .arg(t.c.numDevices()));
  controls_->setContext(t.c.numDevices(), st.numLayers());
  layers_->setStack(st);
  mesh_->setCluster(t.c);
  memory_->setCluster(t.c);
  pages_->setCurrentIndex(1);
  onChanged();
}

void ParallelWindow::onChanged() {
  if (!session_.hasTask()) return;
  const pedit::PlanState& s = session_.state();
  const ParallelMeasurement& m = session_.measurement();
  controls_->setNotice({});  // what was refused before no longer matters
  controls_->setState(s);
  layers_->setPlan(s.plan);
  mesh_->setPlan(s.plan, m.rankDevice);
  memory_->setMeasurement(m, s.plan.ranksPerStage());
  pipeline_->setMeasurement(m, s.plan.pp);
  pipeline_->setStageNotes(stageNotes(s.plan, m));
  summary_->setText(m.feasible ? pformat::summaryText(m)
                               : tr("Does not fit: %1").arg(QString::fromStdString(m.problem)));
  summary_->setStyleSheet(m.feasible ? QString() : QStringLiteral("QLabel { color: #b3261e; }"));
  // Memory: the margin against the prediction's error (red over, amber at risk).
  const MemoryVerdict verdict = memoryVerdict(m);
  memoryVerdict_->setText(pformat::memoryVerdictText(verdict));
  memoryVerdict_->setStyleSheet(verdict.fit == MemoryFit::Over   ? QStringLiteral("QLabel { color: #b3261e; }")
                                : verdict.fit == MemoryFit::Risk ? QStringLiteral("QLabel { color: #9a6700; font-weight: bold; }")
                                                                 : QString());
  memoryVerdict_->setVisible(!memoryVerdict_->text().isEmpty());
  breakdown_->setText(pformat::breakdownText(m));
  breakdown_->setToolTip(pformat::breakdownToolTip(m));
  breakdown_->setVisible(!breakdown_->text().isEmpty());
  if (!pedit::sameState(s, besideFor_)) beside_->hide();  // it spoke of another plan
  summary_->setToolTip(pformat::shapeText(s.plan, s.batch) + QLatin1Char('\n') +
                       tr("Layers per stage: %1").arg(pformat::stagesText(s.plan)));
  const int row = session_.history()->find(s);
  if (row >= 0) {
    historyView_->selectRow(row);
    historyView_->scrollTo(historyView_->model()->index(row, 0));
  } else {
    historyView_->clearSelection();
  }
}

void ParallelWindow::onBusyChanged() {
  // Editable unless a search the user started runs (the one after the load stops for an edit).
  const QString why = session_.whyNotEdit();
  const bool ready = session_.hasTask() && why.isEmpty();
  for (QAction* a : {megatron_, dataParallel_, recipe_, exact_, optimize_, reset_, exportPlan_, exportTrace_, exportLaunch_,
                     importLaunch_})
    a->setEnabled(ready);
  stop_->setEnabled(session_.isSearching());
  budget_->setEnabled(ready);
  undo_->setEnabled(ready && session_.undoStack()->canUndo());
  redo_->setEnabled(ready && session_.undoStack()->canRedo());
  controls_->setEditable(ready, why);
  layers_->setEditable(ready);
  historyView_->setEnabled(ready);
}

void ParallelWindow::onSearchFinished(ParallelSession::Method m, bool applied, const QString& note) {
  if (m == ParallelSession::Method::Dqn) mfu_->replotNow();
  if (imported_) {
    showBeside(besideImported());
    statusBar()->showMessage(beside_->text().replace(QLatin1Char('\n'), QLatin1Char(' ')), 30000);
    imported_.reset();
  } else if (applied || !note.isEmpty()) {
    statusBar()->showMessage(QStringLiteral("%1: %2").arg(ParallelSession::methodLabel(m), note), 15000);
  }
  onBusyChanged();
}

void ParallelWindow::showBeside(const QString& text) {
  beside_->setText(text);
  besideFor_ = session_.state();
  beside_->show();
  // Room for every line: the top pane grows at the pipeline's expense.
  QWidget* top = beside_->parentWidget();
  auto* split = qobject_cast<QSplitter*>(top->parentWidget());
  if (!split || !top->layout()) return;
  QList<int> sizes = split->sizes();
  const int want = top->layout()->totalHeightForWidth(top->width());
  if (sizes.size() > 1 && want > sizes[0]) {
    sizes[1] -= want - sizes[0];
    sizes[0] = want;
    split->setSizes(sizes);
  }
}

QString ParallelWindow::besideText() const { return beside_->isHidden() ? QString() : beside_->text(); }

QString ParallelWindow::besideImported() const {
  const ParallelMeasurement& best = session_.measurement();
  const ParallelMeasurement& mine = importedMeasurement_;
  const bool other = !pedit::sameState(session_.state(), *imported_) && best.feasible;
  if (!other && !mine.feasible) return tr("No plan found that fits beside your plan (%1)").arg(importedName_);
  if (!other || (mine.feasible && best.stepTime >= mine.stepTime))
    return tr("Your plan (%1) is the best found: %2 ms per step").arg(importedName_).arg(mine.stepTime * 1e3, 0, 'f', 1);
  const QString changes = QString::fromStdString(planChanges(imported_->plan, session_.state().plan, session_.state().batch));
  if (!mine.feasible)
    return tr("Your plan (%1) does not fit; the best plan found runs %2 ms per step.\nWhat changed: %3.")
        .arg(importedName_)
        .arg(best.stepTime * 1e3, 0, 'f', 1)
        .arg(changes);
  return tr("Beside your plan (%1): %2× faster, %3 against %4 ms per step.\nWhat changed: %5.\nWhere the time moved: %6.")
      .arg(importedName_)
      .arg(mine.stepTime / best.stepTime, 0, 'f', 2)
      .arg(best.stepTime * 1e3, 0, 'f', 1)
      .arg(mine.stepTime * 1e3, 0, 'f', 1)
      .arg(changes, QString::fromStdString(breakdownChanges(mine.breakdown, mine.stepTime, best.breakdown, best.stepTime)));
}

QString ParallelWindow::importLaunch(const QString& path) {
  QStringList approximated;
  const QString error = importParallelLaunch(session_, path, &approximated);
  if (!error.isEmpty()) {
    statusBar()->showMessage(error, 30000);
    return error;
  }
  imported_ = session_.state();
  importedMeasurement_ = session_.measurement();
  importedName_ = QFileInfo(path).fileName();
  const ParallelMeasurement& m = importedMeasurement_;
  QString message = m.feasible ? tr("Yours (%1): %2 samples/s, %3 % MFU, %4 GiB peak")
                                     .arg(importedName_)
                                     .arg(m.samplesPerSecond, 0, 'f', 1)
                                     .arg(pformat::percentText(m.mfu))
                                     .arg(m.peakMemory.empty() ? 0.0
                                                               : static_cast<double>(*std::max_element(m.peakMemory.begin(),
                                                                                                       m.peakMemory.end())) /
                                                                     (1u << 30),
                                          0, 'f', 1)
                               : tr("Yours (%1) does not run: %2").arg(importedName_, QString::fromStdString(m.problem));
  if (!approximated.isEmpty()) message += tr("; read approximately: %1").arg(approximated.join(QStringLiteral("; ")));
  showBeside(message);
  session_.run(ParallelSession::Method::Exact);  // its "searching" message first, then this one
  statusBar()->showMessage(message + tr("; searching for the best plan…"));
  return {};
}

void ParallelWindow::chooseAndImportLaunch() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Import Launch Configuration"), {},
      tr("Launch configurations (*.sh *.txt *.toml *.py *.json *.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) importLaunch(path);
}

void ParallelWindow::updateMfuReference() {
  const ParallelHistoryModel& h = *session_.history();
  int best = -1;
  for (int r = 0; r < h.count(); ++r)
    if (h.entry(r).feasible && (best < 0 || h.entry(r).mfu > h.entry(best).mfu)) best = r;
  if (best < 0)
    mfu_->setReference(0, {});
  else
    mfu_->setReference(h.entry(best).mfu,
                       QStringLiteral("%1: %2 %").arg(h.entry(best).label, pformat::percentText(h.entry(best).mfu)));
}

// Per pipeline stage: which ranks and GPUs its row stands for.
std::vector<QString> ParallelWindow::stageNotes(const ParallelPlan& plan, const ParallelMeasurement& m) const {
  std::vector<QString> notes;
  if (!session_.hasTask()) return notes;
  const Cluster& c = session_.task()->c;
  const int per = std::max(1, plan.ranksPerStage());
  const QLocale loc;
  auto gpu = [&](int rank) {
    const int d = rank < static_cast<int>(m.rankDevice.size()) ? m.rankDevice[static_cast<size_t>(rank)] : -1;
    return d >= 0 && d < c.numDevices() ? QString::fromStdString(c.device(d).name) : QStringLiteral("?");
  };
  for (int s = 0; s < plan.pp; ++s) {
    const int first = s * per, last = first + per - 1;
    notes.push_back(per == 1 ? tr("Stage %1: rank %2 on %3").arg(s).arg(first).arg(gpu(first))
                             : tr("Stage %1: %2 ranks (dp %3 × cp %4 × tp %5), ranks %6–%7 on %8 … %9; "
                                  "the row is every one of them: they run the same passes")
                                   .arg(s)
                                   .arg(loc.toString(per))
                                   .arg(plan.dp)
                                   .arg(plan.cp)
                                   .arg(plan.tp)
                                   .arg(loc.toString(first), loc.toString(last), gpu(first), gpu(last)));
  }
  return notes;
}

QString ParallelWindow::summaryText() const { return summary_->text(); }
QString ParallelWindow::memoryVerdictText() const { return memoryVerdict_->text(); }
QString ParallelWindow::breakdownText() const { return breakdown_->text(); }

bool ParallelWindow::summaryIsProblem() const { return !session_.measurement().feasible; }

QString ParallelWindow::messageText() const { return message_->text(); }

bool ParallelWindow::showsPlan() const { return pages_->currentIndex() == 1; }

QAction* ParallelWindow::action(const char* name) const { return findChild<QAction*>(QString::fromLatin1(name)); }

QString ParallelWindow::exportPlan(const QString& path) {
  const QString error = exportParallelPlan(session_, path);
  statusBar()->showMessage(error.isEmpty() ? tr("Wrote %1").arg(path) : error, 10000);
  return error;
}

QString ParallelWindow::exportTrace(const QString& path) {
  const QString error = exportParallelTrace(session_, path);
  statusBar()->showMessage(error.isEmpty() ? tr("Wrote %1").arg(path) : error, 10000);
  return error;
}

QString ParallelWindow::exportLaunch(const QString& path, const QString& format) {
  QStringList inexact;
  const QString error = exportParallelLaunch(session_, path, format.toStdString(), &inexact);
  QString message = error.isEmpty() ? tr("Wrote %1").arg(path) : error;
  if (error.isEmpty() && !inexact.isEmpty())
    message += tr("; not exactly expressible in %1: %2").arg(format, inexact.join(QStringLiteral("; ")));
  statusBar()->showMessage(message, 30000);
  return error;
}

QString ParallelWindow::statusText() const { return statusBar()->currentMessage(); }

void ParallelWindow::chooseAndExportLaunch() {
  QStringList filters;
  for (const LaunchFormat& f : launchFormatTable())
    filters << QStringLiteral("%1 (%2)").arg(QCoreApplication::translate("LaunchFormat", f.description.c_str()),
                                             QString::fromStdString(f.pattern));
  QString chosen;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export Launch Configuration"), {}, filters.join(QStringLiteral(";;")), &chosen);
  if (path.isEmpty()) return;
  const qsizetype row = filters.indexOf(chosen);
  if (row >= 0) exportLaunch(path, QString::fromStdString(launchFormatTable()[static_cast<size_t>(row)].name));
}

void ParallelWindow::chooseAndExport(bool trace) {
  const QString path =
      QFileDialog::getSaveFileName(this, trace ? tr("Export Trace") : tr("Export Plan"), {},
                                   trace ? tr("Chrome traces (*.json)") : tr("Parallel plan files (*.json)"));
  if (path.isEmpty()) return;
  if (trace)
    exportTrace(path);
  else
    exportPlan(path);
}

void ParallelWindow::closeEvent(QCloseEvent* e) {
  session_.stop();
  e->accept();
}

}  // namespace gp
