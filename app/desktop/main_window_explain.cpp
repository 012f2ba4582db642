// MainWindow: why the plan's step takes as long as it does — View ▸ Critical Path, the
// Suggestions dock, the Devices panel's preview of a drop, the History comparison's critical-path
// line and File ▸ Export ▸ Plan Report….
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLocale>
#include <QMenu>
#include <QStatusBar>
#include <QUndoStack>
#include <cmath>

#include "exporter.h"
#include "fusion/fuser.h"
#include "graph/graph_view.h"
#include "io/plan_report.h"
#include "main_window.h"
#include "panels/device_legend.h"
#include "panels/history_model.h"
#include "panels/history_panel.h"
#include "panels/suggestions_panel.h"
#include "plan_edits.h"
#include "plan_explainer.h"
#include "sim/simulator.h"
#include "timeline/timeline_compare.h"
#include "timeline/timeline_view.h"

namespace gp {

namespace {

QString moveText(const Cluster& c, const PlanMove& m) {
  QString text = QString::fromStdString(m.what);
  if (m.kind == PlanMove::Kind::Op || m.kind == PlanMove::Kind::Scope)
    text += QStringLiteral(" → ") + QString::fromStdString(c.device(m.device).name);
  return text;
}

// "−12.3 ms" / "+0.4 ms"
QString signedMs(double seconds) {
  return QStringLiteral("%1%2 ms").arg(seconds < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                       QLocale().toString(std::abs(seconds) * 1e3, 'f', 2));
}

}  // namespace

void MainWindow::createExplainDock() {
  explainer_ = new PlanExplainer(this);
  suggestionsPanel_ = new SuggestionsPanel(this);
  suggestionsPanel_->setObjectName(QStringLiteral("suggestionsPanel"));
  suggestionsPanel_->setStatus(tr("Measure a plan to see the moves that would shorten its step."));
  auto* dock = new QDockWidget(tr("Suggestions"), this);
  dock->setObjectName(QStringLiteral("suggestionsDock"));
  dock->setWidget(suggestionsPanel_);
  dock->setMinimumWidth(120);
  // in the right column's tabs with the cluster and the reward plot (a tab bar there already:
  // tabbing it with History would add one under the timeline and grow the window)
  addDockWidget(Qt::RightDockWidgetArea, dock);
  if (auto* reward = findChild<QDockWidget*>(QStringLiteral("rewardDock"))) tabifyDockWidget(reward, dock);
  if (auto* cluster = findChild<QDockWidget*>(QStringLiteral("clusterDock"))) cluster->raise();
  connect(explainer_, &PlanExplainer::analysisReady, this, &MainWindow::showCriticalPath);
  connect(explainer_, &PlanExplainer::suggestionsReady, this, &MainWindow::showSuggestions);
  connect(explainer_, &PlanExplainer::failed, this,
          [this](const QString& why) { suggestionsPanel_->setStatus(tr("Could not explain the step: %1").arg(why)); });
  connect(suggestionsPanel_, &SuggestionsPanel::applyRequested, this, &MainWindow::applySuggestion);
  connect(suggestionsPanel_, &SuggestionsPanel::previewRequested, this, &MainWindow::previewSuggestion);
  connect(legend_, &DeviceLegend::dropHovered, this, &MainWindow::previewDrop);
  connect(doc_, &Document::opened, this, [this] {
    explainer_->clear();
    suggestionsPanel_->setRows({});
    suggestionsPanel_->setStatus(tr("Measure a plan to see the moves that would shorten its step."));
  });
  connect(doc_, &Document::planChanged, this, [this] {  // stale until the new plan is measured
    if (explainer_->plan() != doc_->plan()) suggestionsPanel_->setApplyRefusal(tr("The plan changed: new suggestions follow its measurement"));
  });
}

void MainWindow::createExplainActions() {
  criticalPathAct_ = new QAction(tr("&Critical Path"), this);
  criticalPathAct_->setObjectName(QStringLiteral("actionCriticalPath"));
  criticalPathAct_->setCheckable(true);
  criticalPathAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
  criticalPathAct_->setStatusTip(
      tr("Colour ops by slack and outline the chain of kernels and transfers that sets the step time, in the graph and the timeline"));
  connect(criticalPathAct_, &QAction::toggled, this, [this](bool on) {
    const int slack = colorMode_->findData(static_cast<int>(GraphView::ColorMode::Slack));
    if (on) {
      if (colorMode_->currentIndex() != slack) colorBeforePath_ = colorMode_->currentIndex();
      colorMode_->setCurrentIndex(slack);
      showCriticalPath();
      return;
    }
    if (colorMode_->currentIndex() == slack) colorMode_->setCurrentIndex(colorBeforePath_ == slack ? 0 : colorBeforePath_);
    timeline_->setCriticalPath({});
    graphView_->setHighlightedOps({});
  });
  viewMenu_->addAction(criticalPathAct_);
  modelActions_ << criticalPathAct_;
}

void MainWindow::explainMeasurement() {
  if (!doc_->hasModel() || !doc_->measurementIsCurrent() || doc_->measurement().timeline.empty()) return;
  suggestionsPanel_->setRows({});
  suggestionsPanel_->setApplyRefusal(tr("Looking for moves…"));
  suggestionsPanel_->setStatus(tr("Looking for moves from the critical path…"));
  explainer_->explain(doc_->workspace(), doc_->plan(), doc_->measurement());
}

void MainWindow::showCriticalPath() {
  if (!explainer_->hasAnalysis() || explainer_->plan() != doc_->plan()) return;  // it follows the measurement
  const StepAnalysis& a = explainer_->analysis();
  graphView_->setOpSlack(a.opSlack);  // for the slack colours, whenever they are chosen
  if (!criticalPathAct_ || !criticalPathAct_->isChecked()) return;
  std::vector<OpId> pathOps;
  const double zero = 1e-9 * std::max(a.stepTime, 1e-12);
  for (OpId op = 0; op < static_cast<OpId>(a.opSlack.size()); ++op)
    if (a.opSlack[static_cast<size_t>(op)] <= zero) pathOps.push_back(op);
  for (const PathStep& s : a.path)
    if (s.kind == PathStep::Kind::Kernel) pathOps.push_back(s.id);
  graphView_->setHighlightedOps(std::move(pathOps));
  timeline_->setCriticalPath(a.path);
  const QLocale loc;
  statusBar()->showMessage(tr("Critical path: %1 steps, compute %2 ms, transfers %3 ms; ops without slack are outlined")
                               .arg(loc.toString(static_cast<qlonglong>(a.path.size())),
                                    loc.toString(a.computeTime() * 1e3, 'f', 2), loc.toString(a.transferTime() * 1e3, 'f', 2)),
                           8000);
}

void MainWindow::showSuggestions() {
  const Cluster& c = *doc_->cluster();
  const double step = explainer_->measurement().stepTime;
  std::vector<SuggestionsPanel::Row> rows;
  for (const Suggestion& s : explainer_->suggestions())
    rows.push_back({moveText(c, s.move), QString::fromLatin1(moveKindName(s.move.kind)), s.stepTime * 1e3,
                    step > 0 ? s.stepTime / step - 1 : 0});
  suggestionsPanel_->setRows(rows);
  const QLocale loc;
  suggestionsPanel_->setStatus(
      rows.empty() ? tr("None of the %1 moves tried from the critical path shortens the step.").arg(loc.toString(explainer_->tried()))
                   : tr("%1 of %2 moves tried from the critical path shorten the step (simulated):")
                         .arg(loc.toString(static_cast<qlonglong>(rows.size())), loc.toString(explainer_->tried())));
  suggestionsPanel_->setApplyRefusal(explainer_->plan() == doc_->plan()
                                         ? QString()
                                         : tr("The plan changed: new suggestions follow its measurement"));
}

void MainWindow::applySuggestion(int row) {
  const auto& list = explainer_->suggestions();
  if (row < 0 || row >= static_cast<int>(list.size()) || explainer_->plan() != doc_->plan()) return;
  const Suggestion& s = list[static_cast<size_t>(row)];
  doc_->applyEdit(applyMove(doc_->plan(), s.move), tr("Suggestion: %1").arg(moveText(*doc_->cluster(), s.move)));
}

void MainWindow::previewSuggestion(int row) {
  const auto& list = explainer_->suggestions();
  if (row < 0 || row >= static_cast<int>(list.size())) {
    if (criticalPathAct_->isChecked()) showCriticalPath();  // back to the path's outline
    else graphView_->setHighlightedOps({});
    return;
  }
  const Suggestion& s = list[static_cast<size_t>(row)];
  graphView_->setHighlightedOps(s.move.ops);
  const double step = explainer_->measurement().stepTime;
  statusBar()->showMessage(tr("%1: %2 ms (%3), %Ln op(s) outlined", nullptr, static_cast<int>(s.move.ops.size()))
                               .arg(moveText(*doc_->cluster(), s.move), QLocale().toString(s.stepTime * 1e3, 'f', 2),
                                    signedMs(s.stepTime - step)),
                           6000);
}

void MainWindow::previewDrop(const std::vector<OpId>& ops, int device) {
  const auto ws = doc_->workspace();
  if (!ws || !doc_->hasMeasurement() || device < 0 || device >= ws->cluster->numDevices()) return;
  const planedit::AssignResult r = planedit::assigned(*ws->graph, doc_->plan(), ops, device);
  if (r.moved.empty()) {
    legend_->setDropPreview(device, tr("no change"));
    return;
  }
  const Measurement after = Simulator(*ws->cost).run(r.plan, /*recordTimeline=*/false);
  const double before = doc_->measurement().stepTime;
  legend_->setDropPreview(device, !after.feasible ? tr("does not fit")
                                                  : QStringLiteral("→ %1 ms (%2)")
                                                        .arg(QLocale().toString(after.stepTime * 1e3, 'f', 2),
                                                             signedMs(after.stepTime - before)));
}

QString MainWindow::pathChangeText(int a, int b) const {
  const auto ws = doc_->workspace();
  HistoryModel* h = doc_->history();
  if (!ws) return {};
  const Plan& before = h->entry(a).plan;
  const Plan& after = h->entry(b).plan;
  if (before.device.size() != static_cast<size_t>(ws->graph->numOps()) || after.device.size() != before.device.size()) return {};
  Simulator sim(*ws->cost);
  const Measurement mb = sim.run(before), ma = sim.run(after);
  if (mb.timeline.empty() || ma.timeline.empty()) return {};
  const auto deltas = pathDeltas(analyzeStep(*ws->cost, before, mb), analyzeStep(*ws->cost, after, ma));
  if (deltas.empty()) return tr("Critical path: the same time in every part.");
  const Cluster& c = *ws->cluster;
  QStringList parts;
  for (size_t i = 0; i < deltas.size() && i < 4; ++i) {
    const PathDelta& d = deltas[i];
    const QString device = d.part == PathDelta::Part::Compute || d.part == PathDelta::Part::Queued
                               ? QString::fromStdString(c.device(d.resource).name)
                               : QString::fromStdString(c.channel(d.resource).name);
    switch (d.part) {
      case PathDelta::Part::Compute: parts << tr("compute on %1 %2").arg(device, signedMs(d.seconds)); break;
      case PathDelta::Part::Transfer: parts << tr("transfers over %1 %2").arg(device, signedMs(d.seconds)); break;
      case PathDelta::Part::Queued: parts << tr("waiting for %1 %2").arg(device, signedMs(d.seconds)); break;
      case PathDelta::Part::LinkBusy: parts << tr("waiting for link %1 %2").arg(device, signedMs(d.seconds)); break;
    }
  }
  return tr("Critical path, #%1 against #%2: %3").arg(QLocale().toString(b + 1), QLocale().toString(a + 1), parts.join(QStringLiteral(", ")));
}

QString MainWindow::exportPlanReport(const QString& path) {
  const auto ws = doc_->workspace();
  if (!ws) return tr("No model open");
  try {
    Simulator sim(*ws->cost);
    const Plan plan = doc_->plan();
    const Measurement m = sim.run(plan);
    if (m.timeline.empty()) return tr("%1: the plan does not run: %2").arg(path, QString::fromStdString(m.problem));
    const bool ready = explainer_->hasAnalysis() && explainer_->plan() == plan && !explainer_->searching();
    const StepAnalysis a = ready ? explainer_->analysis() : analyzeStep(*ws->cost, plan, m);
    SuggestOptions o;
    o.allowFusion = fusionAllowed(*ws->graph);
    const std::vector<Suggestion> suggestions = ready ? explainer_->suggestions() : suggestMoves(*ws->cost, plan, a, 12, o);
    const QString planName = doc_->undoStack()->canUndo() ? tr("after “%1”").arg(doc_->undoStack()->undoText())
                                                          : tr("as opened");
    const std::string html = planReportHtml(
        {ws->modelSpec.toStdString(), planName.toStdString(), *ws->graph, *ws->cluster, plan, m, a, suggestions});
    return writeFileAtomically(path, QByteArray::fromStdString(html));
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace gp
