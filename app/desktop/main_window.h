// MainWindow: the graph view in the centre; devices, op inspector and cluster docks on the
// right (the reward plot tabbed with the cluster); the timeline and history docked below; menus, toolbar and a status bar with the current metrics and
// background progress. It observes one Document and turns user actions into Document calls.
// Dock layout, window geometry, recent files and the language persist in QSettings.
//
// Real GPUs (main_window_gpu.cpp): Cluster ▸ Profile Local GPUs… (ProfileDialog), Load / Clear
// Calibration Table…, and Run ▸ Measure on GPUs, whose result the timeline dock shows below the
// simulated step (TimelineCompare). Both GPU actions stay disabled, with the reason as their
// tooltip, where this build or machine cannot run them (GpuAvailability: probed in the
// background right after the window is first shown), and while the other one runs. While the
// plan runs on the GPUs, Optimize and the baselines are disabled too (their load would distort
// the measurement).
#pragma once
#include <QMainWindow>
#include <QPointer>

#include "document.h"

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QToolButton;

namespace gp {

class ImportBanner;

class ClusterPanel;
class CostModelWindow;
class RunWindow;
class GpuAvailability;
class ProfileDialog;
class TimelineCompare;
class DeviceLegend;
class GraphSearchBar;
class GraphView;
class HistoryPanel;
class OpInspector;
class OptimizePopup;
class ParallelWindow;
class PlanExplainer;
class SuggestionsPanel;
class RewardPlot;
class TimelineView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // restoreLayout: apply the saved window geometry and dock layout (not for --screenshot,
  // whose pictures must not depend on the user's settings).
  explicit MainWindow(Document* doc, QWidget* parent = nullptr, bool restoreLayout = true);
  ~MainWindow() override;

  Document* document() const { return doc_; }
  GraphView* graphView() const { return graphView_; }
  TimelineView* timelineView() const { return timeline_; }  // the simulated step
  TimelineCompare* timelineCompare() const { return timelineCompare_; }  // it and the measured one
  GpuAvailability* gpuAvailability() const { return gpu_; }
  // Cluster ▸ Profile Local GPUs…: opens (or raises) the dialog; null if none was opened.
  ProfileDialog* openProfileDialog();
  ProfileDialog* profileDialog() const;
  ClusterPanel* clusterPanel() const { return clusterPanel_; }
  DeviceLegend* deviceLegend() const { return legend_; }
  HistoryPanel* historyPanel() const { return historyPanel_; }
  OpInspector* opInspector() const { return inspector_; }
  RewardPlot* rewardPlot() const { return rewardPlot_; }
  OptimizePopup* optimizePopup() const { return optimizePopup_; }
  ImportBanner* importBanner() const { return importBanner_; }  // the Optimize button's options
  // Run ▸ Parallel Plan…: opens (or raises) the window for the open model and cluster; null
  // with no model open. `llmFirst`: the model opened as an LLM (Workspace::parallelFirst): the
  // window takes the main window's place on the screen and the exact search runs after the
  // first plan.
  ParallelWindow* openParallelPlan(bool llmFirst = false);
  ParallelWindow* parallelWindow() const;  // null until opened
  // Run ▸ Cost Model…: opens (or raises) the window for the open model; null with no model open.
  CostModelWindow* openCostModel();
  CostModelWindow* costModelWindow() const;  // null until opened
  // File ▸ Attach to Run…: follows a run's event log in the Run window (opened or raised).
  RunWindow* attachRun(const QString& path);
  RunWindow* runWindow() const;  // null until attached
  // Why the plan's step takes as long as it does (main_window_explain.cpp): View ▸ Critical Path
  // (slack colours, the path outlined in the graph and the timeline), the Suggestions dock, the
  // Devices panel's preview of a drop, File ▸ Export ▸ Plan Report….
  PlanExplainer* explainer() const { return explainer_; }
  SuggestionsPanel* suggestionsPanel() const { return suggestionsPanel_; }
  QAction* criticalPathAction() const { return criticalPathAct_; }
  // The last error shown in the banner (empty when none is shown).
  QString lastError() const { return lastError_; }

  // Opens a model, applies a placement file or loads a cluster, by what the file is.
  void openFile(const QString& path);
  enum class ExportKind { Placement, AnnotatedOnnx, Dot, ChromeTrace, GraphImage, TimelineImage, RewardPlotImage, PlanReport };
  // Writes the export to `path`; shows and returns the error (empty on success).
  QString exportTo(ExportKind kind, const QString& path);
  // True once nothing runs in the background and the graph layout is done.
  bool isIdle() const;

 protected:
  void closeEvent(QCloseEvent* e) override;
  void showEvent(QShowEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void createViews();
  void createActions();
  void createMenus();
  void createToolBar();
  void createStatusBar();
  void createGpuActions();    // main_window_gpu.cpp
  void createParallelAction();  // main_window_parallel.cpp
  void followWorkspaceInParallelPlan();
  void createParallelWindow();
  void createCostModelAction();  // main_window_costmodel.cpp
  // main_window_explain.cpp
  void createExplainDock();
  void createExplainActions();
  void explainMeasurement();
  void showCriticalPath();
  void showSuggestions();
  void applySuggestion(int row);
  void previewSuggestion(int row);
  void previewDrop(const std::vector<OpId>& ops, int device);
  QString pathChangeText(int a, int b) const;  // the History comparison's critical-path line
  QString exportPlanReport(const QString& path);
  // The Run window's Apply Best Plan: the plan onto the open model (main_window_run.cpp).
  void applyRunPlan(const QString& model, const Plan& plan);
  void followWorkspaceInCostModel();
  void showCostModelErrors();  // the cost model window's per-op errors to the graph view
  void addClusterMenu();      // main_window_gpu.cpp
  void updateGpuActions();    // enabled state and tooltips of the GPU actions
  void onGpuMeasurementChanged();
  QString gpuMetricsText() const;  // the status bar's "simulated … measured …" part
  QString calibrationMetricsText() const;
  void chooseCalibration();
  void showNotice(const QString& message, int ms);  // status bar, with a warning just given
  void connectDocument();
  void restoreSettings();
  void saveSettings();

  void onOpened();
  void onClusterChanged();
  void onPlanChanged();
  void onMeasured();
  void onCompareChanged(int a, int b);
  void updateRewardReferences();  // best baseline and lower bound from history
  void showError(const QString& message);
  void showWarning(const QString& message);
  void clearError();
  void updateTitle();
  void updateMetrics();
  // The enabled state of every action, by the document's rules (Document::whyNot).
  void updateActions();
  void addRecentFile(const QString& path);
  void rebuildRecentMenu();
  void chooseAndOpen();
  void chooseAndExport(ExportKind kind);
  void chooseLanguage(const QString& code);
  void focusPrioritySpin();
  void chooseSymbolicDims();  // File ▸ Symbolic Dimensions…: reopen the model with other values  // Edit ▸ Set Priority…: the inspector's spin box, Return applies

  Document* doc_;
  GraphView* graphView_ = nullptr;
  GraphSearchBar* searchBar_ = nullptr;
  TimelineView* timeline_ = nullptr;
  TimelineCompare* timelineCompare_ = nullptr;
  GpuAvailability* gpu_ = nullptr;
  QPointer<ProfileDialog> profileDialog_;
  QPointer<ParallelWindow> parallelWindow_;
  QPointer<CostModelWindow> costModelWindow_;
  QPointer<RunWindow> runWindow_;
  ClusterPanel* clusterPanel_ = nullptr;
  DeviceLegend* legend_ = nullptr;
  HistoryPanel* historyPanel_ = nullptr;
  OpInspector* inspector_ = nullptr;
  RewardPlot* rewardPlot_ = nullptr;
  OptimizePopup* optimizePopup_ = nullptr;
  QLabel* errorBanner_ = nullptr;
  ImportBanner* importBanner_ = nullptr;
  QAction* symbolicDimsAct_ = nullptr;
  QLabel* metricsLabel_ = nullptr;
  QLabel* busyLabel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancelButton_ = nullptr;
  QComboBox* colorMode_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* assignMenu_ = nullptr;
  QLineEdit* legendFilter_ = nullptr;  // the Devices dock's filter (large clusters)
  QMenu* viewMenu_ = nullptr;
  QAction *openAct_ = nullptr, *measureAct_ = nullptr, *undoAct_ = nullptr, *redoAct_ = nullptr;
  QAction *allBaselinesAct_ = nullptr, *cancelAct_ = nullptr, *fitAct_ = nullptr;
  QAction *optimizeAct_ = nullptr, *stopOptimizeAct_ = nullptr;
  QAction *setPriorityAct_ = nullptr, *fuseAct_ = nullptr, *unfuseAct_ = nullptr;
  QAction *loadClusterAct_ = nullptr, *profileAct_ = nullptr, *measureGpuAct_ = nullptr;
  QAction *loadCalibrationAct_ = nullptr, *clearCalibrationAct_ = nullptr;
  QAction* parallelAct_ = nullptr;
  QAction* costModelAct_ = nullptr;
  QAction* criticalPathAct_ = nullptr;
  PlanExplainer* explainer_ = nullptr;
  SuggestionsPanel* suggestionsPanel_ = nullptr;
  int colorBeforePath_ = 0;  // the colour mode's index before View ▸ Critical Path turned it to slack
  QList<QAction*> modelActions_;  // enabled only with a model open
  QList<QAction*> baselineActions_;  // Run All Baselines and one per method
  QString lastError_;
  QString lastWarning_;  // the newest warning shown (showNotice keeps it in view)
  bool layoutDone_ = true;
};

}  // namespace gp
