// Document: the one model object every view observes — the open graph and cluster (a
// Workspace), the current plan with its undo stack, the latest measurement, the selection
// and the history of measured plans. Everything slow (loading, simulating, baselines) runs
// in the background; results come back as signals on the UI thread. Bad input never
// replaces what is open: it is reported through failed(message) as one line.
//
//   Document doc;
//   doc.open({"zoo:nmt", GraphMode::Default, "4xP100-PCIe"});   // async -> opened() or failed()
//   doc.assignDevices({3, 4}, 2);                                // undoable -> planChanged()
//   doc.fuseOps({5, 6});          // undoable, re-measured; refused -> warning(why), "" returned otherwise
//   doc.measure();                                               // async -> measured()
//   doc.optimize(options);   // async -> iterationReported()..., optimizeFinished(); see optimize_document.cpp
//   doc.loadCalibration("cal.json");   // every cost model gets the table; see calibration_document.cpp
//   doc.measureOnGpus();     // async -> gpuMeasurementChanged(); see gpu_document.cpp
#pragma once
#include <map>
#include <QObject>
#include <QStringList>
#include <QElapsedTimer>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "background_job.h"
#include "optimize_run.h"
#include "panels/history_model.h"
#include "profile/gpu_measure.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "workspace.h"

namespace gp {

struct OpenRequest {
  QString model;                 // path or zoo:NAME
  GraphMode mode = GraphMode::Default;
  QString cluster;               // preset or file; empty: keep the current one (default 4xP100-PCIe)
  QString placement;             // optional placement file to apply once open
  QString initialBaseline;       // optional baseline to run and apply once open (the built-in example)
  bool allowHashMismatch = false;
  std::map<std::string, int64_t> dims;  // values of the model's symbolic dimensions (default 1)
  Precision precision = Precision::FP32;  // the arithmetic the model runs with (graph/precision.h)
};

class Document : public QObject {
  Q_OBJECT
 public:
  static constexpr const char* kDefaultCluster = "4xP100-PCIe";

  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  // ---- state ----
  bool hasModel() const { return ws_ != nullptr; }
  std::shared_ptr<const Workspace> workspace() const { return ws_; }
  const Graph* graph() const { return ws_ ? ws_->graph.get() : nullptr; }
  std::shared_ptr<const Graph> sharedGraph() const { return ws_ ? ws_->graph : nullptr; }
  const Cluster* cluster() const { return ws_ ? ws_->cluster.get() : nullptr; }
  QStringList deviceNames() const;
  const Plan& plan() const { return plan_; }
  const Measurement& measurement() const { return measurement_; }
  bool hasMeasurement() const { return hasMeasurement_; }
  bool measurementIsCurrent() const { return hasMeasurement_ && measuredPlan_ == plan_; }
  std::vector<int> opsPerDevice() const;
  QUndoStack* undoStack() { return &undo_; }
  HistoryModel* history() { return &history_; }
  const std::vector<OpId>& selection() const { return selection_; }
  bool isBusy() const { return !tasks_.empty(); }
  QString busyText() const { return tasks_.empty() ? QString() : tasks_.back().second; }
  // baselines, optimizer, Measure on GPUs
  bool canCancel() const { return baselineJob_ != nullptr || optimizeRun_ != nullptr || gpuJob_ != nullptr; }
  bool isOptimizing() const { return optimizeRun_ != nullptr; }
  // What the last optimize() handed the optimizer (its start plan and threads filled in).
  const OptimizeOptions& lastOptimizeOptions() const { return lastOptimizeOptions_; }

  // ---- actions ----
  void open(const OpenRequest& request);                 // async
  // Sync (small files); false + failed() on error. With no model open it is kept for the next open().
  bool setCluster(const QString& presetOrPath);
  void setSelection(std::vector<OpId> ops);              // sorted/deduplicated here
  // Undoable. Ops of a fusion group that move without the rest of it leave the group (ops on
  // different devices never fuse; warning() says so); a whole group moves fused.
  void assignDevices(const std::vector<OpId>& ops, int device);
  // Hand edits of the schedule and of fusion (the op inspector, Edit menu). Each is one undo
  // step and re-measures the plan (undo and redo too; no history entry: F5 adds one). When
  // refused, nothing changes, warning(message) says why in one line and the message is
  // returned; "" when done.
  //  - setPriority: the ops get `priority` (higher runs first). A plan without priorities
  //    (FIFO) first gives every op priority 0, which schedules as FIFO (planedit::withPriority).
  //  - fuseOps: the ops (two or more, one device) become one new fusion group; checked with
  //    fusionProblem on the resulting plan.
  //  - unfuseOps: the ops leave their groups; a group left with one op dissolves.
  QString setPriority(const std::vector<OpId>& ops, int priority);
  QString fuseOps(const std::vector<OpId>& ops);
  QString unfuseOps(const std::vector<OpId>& ops);
  void applyPlan(const Plan& plan, const QString& text);  // undoable (restore, baseline, file)
  bool loadPlacement(const QString& path, bool allowHashMismatch = false);  // sync; applies + measures
  void restoreHistoryEntry(int row);                     // applies the entry's plan and re-measures
  // Simulates the current plan in the background. The result is added to history (label:
  // `label`, or the last edit's text) unless the plan equals the newest entry's.
  void measure(const QString& label = {}, const QString& kind = QStringLiteral("manual"));
  void runBaselines(const QStringList& methods);         // async; each result goes to history
  void cancel();                                         // stops baselines between methods, and the optimizer
  // Runs the RL optimizer (optimizePlacement) from the current plan in the background. Every
  // iteration is reported; the best plan so far becomes the shown plan (at most twice a second,
  // measured in the background, no undo step); the final best enters history (kind
  // "optimizer") and becomes the current plan as one undo step. Edits and baselines wait until
  // it finishes. Errors (no plugin, a bad policy file) -> failed(one line). Refused (warning)
  // while baselines run or the plan runs on the GPUs (runBaselines likewise: their load would
  // distort the measurement).
  void optimize(const OptimizeOptions& options);
  void cancelOptimize();                                 // the run ends within ~100 ms, keeping its best
  bool waitUntilIdle(int timeoutMs);                     // tests and --screenshot: spins the event loop

  // ---- calibration: measured op times every cost model of the document uses ----
  // The document holds at most one table; it stays through cluster switches and opens. Loading
  // or clearing it rebuilds the cost model, restarts the history (step times of two cost models
  // do not compare; the undo stack stays: the plans still fit) and re-measures. Sync; false +
  // failed(one line) on error, with what was open unchanged. With no model open it is kept
  // for the next open().
  bool hasCalibration() const { return calibration_ != nullptr; }
  std::shared_ptr<const CalibrationTable> calibration() const { return calibration_; }
  QString calibrationLabel() const { return calibrationLabel_; }  // the table's file path
  bool loadCalibration(const QString& path);
  void clearCalibration();
  // Cluster ▸ Profile Local GPUs…: switches to the profiled cluster file together with its
  // calibration table, both loaded before anything changes. An empty calibration path (the
  // profile calibrated nothing) keeps the table the document holds, as any cluster switch does.
  // Not undoable, like every cluster switch (setCluster).
  bool useProfiledCluster(const QString& clusterPath, const QString& calibrationPath);
  // A table whose device kinds include none of the cluster's calibrates nothing: whenever such
  // a combination comes into use (table loaded, cluster switched, model opened) warning() says
  // so in one line, as graphplace-cli does. A cluster or table chosen while a model opens is
  // applied to it once it is open (the last choice wins).

  // ---- Measure on GPUs: the current plan run on the local GPUs, beside the simulation ----
  // Runs measureOnGpus (profile/gpu_measure.h) in the background; its progress lines go out
  // through progress(), cancel() stops it. Success -> setGpuMeasurement; errors -> failed(one
  // line, without the "measure: " source); cancelled -> warning, and the result is dropped even
  // when the run finished after Cancel. A result of a plan edited meanwhile is dropped.
  // Refused (warning) while the optimizer runs.
  void measureOnGpus(const GpuMeasureOptions& options = {});
  bool isMeasuringOnGpus() const { return gpuJob_ != nullptr; }
  bool hasGpuMeasurement() const { return gpuResult_.has_value(); }
  const GpuMeasureResult& gpuMeasurement() const { return *gpuResult_; }  // hasGpuMeasurement() only
  // Shows `r` as the current plan's real measurement (until the plan, the cluster or the
  // calibration changes: then it is cleared, as it no longer matches).
  void setGpuMeasurement(GpuMeasureResult r);
  void clearGpuMeasurement();
  // What runs the plan on the GPUs: ::gp::measureOnGpus by default (tests hand in their own).
  using GpuMeasurer = std::function<GpuMeasureResult(const CostModel&, const Plan&, const GpuMeasureOptions&,
                                                     const ProfileProgressFn&, const std::atomic<bool>*)>;
  void setGpuMeasurer(GpuMeasurer measurer);  // empty: the default

  // Used by the undo commands only.
  void setPlanDevices(const std::vector<OpId>& ops, const std::vector<int32_t>& devices);
  void replacePlan(const Plan& plan);
  void remeasure();  // in the background, no history entry

 Q_SIGNALS:
  void opened();                  // a new workspace (graph and cluster): views reset
  void clusterChanged();          // same graph, another cluster
  void planChanged();
  void measured();                // measurement() is new
  void selectionChanged(const std::vector<gp::OpId>& ops);
  void busyChanged(bool busy);
  void progress(int percent, const QString& text);
  void failed(const QString& message);   // one line; nothing that was open changed
  void openFailed(const QString& message);  // the open() itself (or its --placement) failed
  void warning(const QString& message);
  void idle();                    // every background job finished
  void optimizeStarted();
  void iterationReported(const gp::OptimizeProgress& progress);  // improvedBest set when it improved
  void optimizeFinished(bool applied);  // applied: the result is in history and is the current plan
  void calibrationChanged();      // the calibration table was loaded or cleared (cost model rebuilt)
  void gpuMeasurementChanged();   // a real measurement arrived or was cleared (hasGpuMeasurement)

 private:
  struct PendingHistory {
    bool add = false;
    QString label, kind;
  };
  void installWorkspace(std::shared_ptr<const Workspace> ws);
  // Switches to cluster `c` keeping each op on the device of the same name (setCluster).
  void switchCluster(std::shared_ptr<const Cluster> c, const QString& label);
  // After calibration_ changed: a workspace with it, a new history, a measurement.
  void applyCalibration(const QString& historyLabel);
  int beginTask(const QString& text);  // returns the task's id for endTask
  void endTask(int id);
  void failOpen(const QString& message);
  // quiet: no task, no error (the optimizer's live best plans)
  void startMeasure(const PendingHistory& pending, bool quiet = false);
  bool refuseWhileOptimizing();        // true (and a warning) while the optimizer runs
  bool refuseWhileOnGpus();            // true (and a warning) while the plan runs on the GPUs
  // warning() when the workspace's table calibrates none of its cluster's device kinds.
  void warnIfCalibratesNothing();
  QString refuse(const QString& message);  // warning(message), returns it
  void warnDissolved(int dissolved);       // warning() when leaving ops dissolved whole groups
  void pushPlanEdit(const Plan& after, const QString& text);  // one undo step, re-measured
  void pollOptimizer(bool finishing);  // UI timer: the worker's reports -> signals, live best plan
  void finishOptimize(const std::shared_ptr<OptimizeRun>& run, JobResult<OptimizeResult> r);
  void finishOpen(const OpenRequest& request);
  void pollProgress();
  void addHistory(const QString& label, const QString& kind, const Plan& plan, const Measurement& m,
                  double seconds);

  std::shared_ptr<const Workspace> ws_;
  Plan plan_;
  Measurement measurement_;
  Plan measuredPlan_;
  bool hasMeasurement_ = false;
  QUndoStack undo_;
  HistoryModel history_;
  std::vector<OpId> selection_;
  // background work: running tasks (id, text), newest last
  std::vector<std::pair<int, QString>> tasks_;
  int nextTask_ = 0;
  QString pendingCluster_;       // chosen with no model open: used by the next open()
  uint64_t clusterSeq_ = 0;      // bumped by every cluster the user chooses (setCluster, a profile)
  std::shared_ptr<const Cluster> chosenCluster_;  // the newest of them, for an open still running
  QString chosenClusterLabel_;
  QThreadPool pool_;             // open, measure, baselines: never blocked by the views' jobs
  uint64_t generation_ = 0;      // bumped by every new workspace: stale results are dropped
  uint64_t measureSeq_ = 0;      // newest measurement request
  uint64_t openSeq_ = 0;         // newest open request
  std::shared_ptr<JobControl> baselineJob_;
  std::shared_ptr<OptimizeRun> optimizeRun_;  // the running optimizer, null when none
  Plan optimizeStartPlan_;                    // the plan it started from
  OptimizeOptions lastOptimizeOptions_;
  std::optional<Plan> liveBest_;              // reported best plan not shown yet
  std::shared_ptr<const CalibrationTable> calibration_;  // what every workspace is built with
  QString calibrationLabel_;
  std::shared_ptr<JobControl> gpuJob_;        // Measure on GPUs, null when none runs
  GpuMeasurer gpuMeasurer_;
  std::optional<GpuMeasureResult> gpuResult_;
  Plan gpuPlan_;                              // the plan gpuResult_ measured
  QElapsedTimer liveShown_;                   // since a best plan was last shown
  QTimer progressTimer_;
};

}  // namespace gp
