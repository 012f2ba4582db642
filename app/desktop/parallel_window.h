// ParallelWindow: the Parallel Plan window (Run ▸ Parallel Plan…) — a data / tensor / pipeline
// parallel training plan for the open model on the document's cluster, shown and edited:
// the controls and stage table (ParallelControls), the history of plans, the DQN's MFU curve;
// the summary line, the layer stack by stage (boundaries draggable), the pipeline timeline, the
// mesh on the servers and every device's memory. Megatron, Data parallel, Exact and Optimize
// (the DQN, in the background, with Stop) produce plans; Reset goes back to the first plan;
// Ctrl+Z / Ctrl+Shift+Z undo and redo every change; Export writes the plan file, the trace and
// the plan as a framework's launch configuration; Import reads one as the plan and compares it;
// Op Graph goes back to the main window. It reads the document's workspace and never changes the
// document. Closing it stops a search. An LLM opens here (MainWindow::openParallelPlan): the
// first plan is one that runs, and the exact search started after it leaves the plan editable.
#pragma once
#include <QMainWindow>
#include <memory>
#include <optional>

#include "parallel_session.h"

class QAction;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTableView;

namespace gp {

class DeviceMemoryPanel;
class LayerStackView;
class MeshView;
class MfuPlot;
class ParallelControls;
class PipelineView;

class ParallelWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit ParallelWindow(QWidget* parent = nullptr);
  ~ParallelWindow() override;

  // Plans for this workspace's model and cluster; a new model or cluster starts over, the same
  // ones (another calibration table only) keep what is shown. `searchAfterLoad`: the exact search
  // runs once the first plan is shown (ParallelSession::load).
  void setWorkspace(const std::shared_ptr<const Workspace>& ws, bool searchAfterLoad = false);
  // Starts loading `modelSpec` on `cluster` before its workspace exists (Document::openStarted,
  // an LLM): the setWorkspace that follows with the same model (modelSha256) and cluster keeps
  // what this loads, so the layer stack loads alongside the document's op graph.
  void preload(const QString& modelSpec, const LoadOptions& options, const std::shared_ptr<const Cluster>& cluster,
               bool searchAfterLoad);
  ParallelSession* session() { return &session_; }

  // What is shown, for tests and --screenshot-like captures.
  QString summaryText() const;  // the figures, or the problem in red
  QString memoryVerdictText() const;  // fits / out-of-memory risk / does not fit, with the margin
  QString breakdownText() const;  // where the step goes (pformat::breakdownText), "" when it does not fit
  bool summaryIsProblem() const;
  QString messageText() const;  // shown instead of the plan while loading or when it failed
  bool showsPlan() const;
  ParallelControls* controls() const { return controls_; }
  LayerStackView* layerStackView() const { return layers_; }
  MeshView* meshView() const { return mesh_; }
  PipelineView* pipelineView() const { return pipeline_; }
  DeviceMemoryPanel* memoryPanel() const { return memory_; }
  MfuPlot* mfuPlot() const { return mfu_; }
  QTableView* historyView() const { return historyView_; }
  QAction* action(const char* name) const;  // by objectName ("parallelMegatron", …)
  QSpinBox* budgetSpin() const { return budget_; }

  // What Optimize hands the DQN; its budget comes from the window's spin box.
  void setDqnOptions(const DqnOptions& o) { dqn_ = o; }

  QString exportPlan(const QString& path);  // "" on success, else the error (also shown)
  QString exportTrace(const QString& path);
  // `format`: megatron, nemo, nemo1, torchtitan, torchtitan-py, deepspeed. The status bar says
  // what the framework cannot express exactly (statusText()).
  QString exportLaunch(const QString& path, const QString& format);
  // A Megatron-LM argument list, torchtitan TOML or Python configuration, or DeepSpeed JSON shown
  // as the plan (one undo step) and explained: the status bar gives its figures and what was
  // read approximately, then the exact search runs, and when it finishes the status bar sets the
  // best plan found beside it (how much faster, what changed, where the time moved).
  QString importLaunch(const QString& path);
  QString statusText() const;
  // An imported configuration's explanation and its comparison with the best plan found, shown
  // under the summary while that plan is shown ("" when none).
  QString besideText() const;

 Q_SIGNALS:
  void opGraphRequested();  // View ▸ Op Graph: the model's ops in the main window

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void createActions();
  void chooseAndExportLaunch();
  void chooseAndImportLaunch();
  QString besideImported() const;
  void showBeside(const QString& text);
  QWidget* createPlanPage();
  void onLoaded();
  void onChanged();
  void onBusyChanged();
  void onSearchFinished(ParallelSession::Method m, bool applied, const QString& note);
  void showMessage(const QString& text, bool error);
  void chooseAndExport(bool trace);
  void updateMfuReference();
  std::vector<QString> stageNotes(const ParallelPlan& plan, const ParallelMeasurement& m) const;

  ParallelSession session_;
  DqnOptions dqn_;
  const void* graph_ = nullptr;  // what the session was loaded for
  const void* cluster_ = nullptr;
  std::string preloaded_;  // modelSha256 of what preload() loads until its workspace arrives
  QStackedWidget* pages_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* breakdown_ = nullptr;
  QLabel* memoryVerdict_ = nullptr;
  QLabel* beside_ = nullptr;
  pedit::PlanState besideFor_;  // the plan beside_ speaks of
  ParallelControls* controls_ = nullptr;
  LayerStackView* layers_ = nullptr;
  PipelineView* pipeline_ = nullptr;
  MeshView* mesh_ = nullptr;
  DeviceMemoryPanel* memory_ = nullptr;
  MfuPlot* mfu_ = nullptr;
  QTableView* historyView_ = nullptr;
  QSpinBox* budget_ = nullptr;
  QAction *megatron_ = nullptr, *dataParallel_ = nullptr, *recipe_ = nullptr, *exact_ = nullptr, *optimize_ = nullptr, *stop_ = nullptr;
  QAction *reset_ = nullptr, *undo_ = nullptr, *redo_ = nullptr, *exportPlan_ = nullptr, *exportTrace_ = nullptr,
          *exportLaunch_ = nullptr, *importLaunch_ = nullptr, *opGraph_ = nullptr;
  // The plan last imported from a launch configuration, set beside the next search's result.
  std::optional<pedit::PlanState> imported_;
  ParallelMeasurement importedMeasurement_;
  QString importedName_;
};

}  // namespace gp
