// MainWindow's Run ▸ Parallel Plan… (parallel_window.h): one window, following the document's
// model and cluster while it is open.
#include <QAction>

#include "main_window.h"
#include "parallel_window.h"

namespace gp {

void MainWindow::createParallelAction() {
  parallelAct_ = new QAction(tr("&Parallel Plan…"), this);
  parallelAct_->setObjectName(QStringLiteral("actionParallelPlan"));
  parallelAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  parallelAct_->setToolTip(tr("Plan data, tensor and pipeline parallel training of the model on the cluster"));
  parallelAct_->setStatusTip(parallelAct_->toolTip());
  connect(parallelAct_, &QAction::triggered, this, [this] { openParallelPlan(); });
  modelActions_ << parallelAct_;
  connect(doc_, &Document::opened, this, &MainWindow::followWorkspaceInParallelPlan);
  connect(doc_, &Document::clusterChanged, this, &MainWindow::followWorkspaceInParallelPlan);
}

ParallelWindow* MainWindow::openParallelPlan() {
  if (!doc_->hasModel()) return nullptr;
  if (!parallelWindow_) parallelWindow_ = new ParallelWindow(this);
  parallelWindow_->setWorkspace(doc_->workspace());
  parallelWindow_->show();
  parallelWindow_->raise();
  parallelWindow_->activateWindow();
  return parallelWindow_;
}

ParallelWindow* MainWindow::parallelWindow() const { return parallelWindow_; }

void MainWindow::followWorkspaceInParallelPlan() {
  if (parallelWindow_ && parallelWindow_->isVisible() && doc_->hasModel())
    parallelWindow_->setWorkspace(doc_->workspace());
}

}  // namespace gp
