// MainWindow's Run ▸ Cost Model… (cost_model_window.h): one window, following the document's
// model while it is open; its result's per-op errors colour the graph in the "prediction error"
// mode.
#include <QAction>

#include "cost_model_window.h"
#include "graph/graph_view.h"
#include "main_window.h"

namespace gp {

void MainWindow::createCostModelAction() {
  costModelAct_ = new QAction(tr("&Cost Model…"), this);
  costModelAct_->setObjectName(QStringLiteral("actionCostModel"));
  costModelAct_->setToolTip(
      tr("Time the model's kernels on this CPU and compare them with the learned cost model and the fitted roofline"));
  costModelAct_->setStatusTip(costModelAct_->toolTip());
  connect(costModelAct_, &QAction::triggered, this, [this] { openCostModel(); });
  modelActions_ << costModelAct_;
  connect(doc_, &Document::opened, this, &MainWindow::followWorkspaceInCostModel);
  connect(doc_, &Document::clusterChanged, this, &MainWindow::followWorkspaceInCostModel);
}

CostModelWindow* MainWindow::openCostModel() {
  if (!doc_->hasModel()) return nullptr;
  if (!costModelWindow_) {
    costModelWindow_ = new CostModelWindow(this);
    connect(costModelWindow_, &CostModelWindow::resultChanged, this, &MainWindow::showCostModelErrors);
  }
  costModelWindow_->setWorkspace(doc_->workspace());
  costModelWindow_->show();
  costModelWindow_->raise();
  costModelWindow_->activateWindow();
  return costModelWindow_;
}

CostModelWindow* MainWindow::costModelWindow() const { return costModelWindow_; }

void MainWindow::followWorkspaceInCostModel() {
  if (costModelWindow_ && doc_->hasModel()) costModelWindow_->setWorkspace(doc_->workspace());
}

void MainWindow::showCostModelErrors() {
  const CostModelResult* r = costModelWindow_ ? costModelWindow_->session()->result() : nullptr;
  if (r && r->graph == doc_->sharedGraph())
    graphView_->setPredictionErrors(r->opErrors);
  else
    graphView_->setPredictionErrors({});
}

}  // namespace gp
