// MainWindow's File ▸ Attach to Run… (run_window.h): one Run window, following one event log;
// its Apply Best Plan puts an optimize run's best plan onto the open model, as an undoable edit.
#include <algorithm>

#include "fusion/fuser.h"
#include "main_window.h"
#include "run_window.h"

namespace gp {

RunWindow* MainWindow::attachRun(const QString& path) {
  if (!runWindow_) {
    runWindow_ = new RunWindow(this);
    runWindow_->setWindowFlag(Qt::Window);
    connect(runWindow_, &RunWindow::applyBestPlan, this, &MainWindow::applyRunPlan);
  }
  runWindow_->attach(path);
  runWindow_->show();
  runWindow_->raise();
  runWindow_->activateWindow();
  return runWindow_;
}

RunWindow* MainWindow::runWindow() const { return runWindow_; }

void MainWindow::applyRunPlan(const QString& model, const Plan& plan) {
  const std::vector<int32_t>& devices = plan.device;
  if (!doc_->hasModel()) {
    runWindow_->showMessage(tr("Open %1 first: the best plan places its ops").arg(model), true);
    return;
  }
  const Workspace& ws = *doc_->workspace();
  const auto ops = static_cast<size_t>(ws.graph->numOps());
  const int devicesHere = ws.cluster->numDevices();
  if (ws.modelSpec != model || devices.size() != ops) {
    runWindow_->showMessage(tr("The run placed %1 (%2 ops); the open model is %3 (%4 ops)")
                                .arg(model)
                                .arg(devices.size())
                                .arg(ws.modelSpec)
                                .arg(ops),
                            true);
    return;
  }
  if (*std::max_element(devices.begin(), devices.end()) >= devicesHere) {
    runWindow_->showMessage(tr("The run's plan uses more devices than the open cluster's %1").arg(devicesHere), true);
    return;
  }
  if (!plan.fusionGroup.empty()) {
    if (const std::string why = fusionProblem(*ws.graph, plan); !why.empty()) {
      runWindow_->showMessage(tr("The run's best plan cannot be applied: %1").arg(QString::fromStdString(why)), true);
      return;
    }
  }
  doc_->applyPlan(plan, tr("best plan of the attached run"));
  runWindow_->showMessage(tr("Applied the run's best plan to %1").arg(model), false);
}

}  // namespace gp
