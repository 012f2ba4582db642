// MainWindow's Run ▸ Parallel Plan… (parallel_window.h): one window, following the document's
// model and cluster while it is open.
#include <QAction>

#include "llm_first.h"
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
  // An LLM opens where its user thinks: its parallel plan (llm_first.h).
  connect(doc_, &Document::opened, this, [this] {
    if (doc_->hasModel() && doc_->workspace()->parallelFirst)
      openParallelPlan(/*llmFirst=*/true);
    else
      followWorkspaceInParallelPlan();
  });
  // An LLM's layers load alongside the document's op graph (the window shows once it is open).
  connect(doc_, &Document::openStarted, this,
          [this](const QString& model, const LoadOptions& options, std::shared_ptr<const Cluster> cluster) {
            if (!isLlmSpec(model.toStdString())) return;
            if (!parallelWindow_) createParallelWindow();
            if (!parallelWindow_->isVisible()) parallelWindow_->setGeometry(geometry());
            parallelWindow_->preload(model, options, cluster, /*searchAfterLoad=*/true);
          });
  connect(doc_, &Document::clusterChanged, this, &MainWindow::followWorkspaceInParallelPlan);
}

ParallelWindow* MainWindow::openParallelPlan(bool llmFirst) {
  if (!doc_->hasModel()) return nullptr;
  if (!parallelWindow_) createParallelWindow();
  if (llmFirst && !parallelWindow_->isVisible()) parallelWindow_->setGeometry(geometry());
  parallelWindow_->setWorkspace(doc_->workspace(), llmFirst);
  parallelWindow_->show();
  parallelWindow_->raise();
  parallelWindow_->activateWindow();
  return parallelWindow_;
}

void MainWindow::createParallelWindow() {
  parallelWindow_ = new ParallelWindow(this);
  connect(parallelWindow_, &ParallelWindow::opGraphRequested, this, [this] {
    raise();
    activateWindow();
  });
}

ParallelWindow* MainWindow::parallelWindow() const { return parallelWindow_; }

void MainWindow::followWorkspaceInParallelPlan() {
  if (parallelWindow_ && parallelWindow_->isVisible() && doc_->hasModel())
    parallelWindow_->setWorkspace(doc_->workspace());
}

}  // namespace gp
