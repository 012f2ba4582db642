// Document: the one model object every view observes — the open graph and cluster (a
// Workspace), the current plan with its undo stack, the latest measurement, the selection
// and the history of measured plans. Everything slow (loading, simulating, baselines, the
// optimizer, Measure on GPUs) runs in the background; results come back as signals on the UI
// thread, and a result that a newer request or a new workspace superseded is dropped (each kind
// keeps its newest request in a LatestJob, latest_job.h). Bad input never replaces what is
// open: it is reported through failed(message) as one line.
//
// What may run together is one rule set: whyNot(JobKind) (job_kind.h, job_rules.cpp) says in
// one line why a kind of job may not start now; the document refuses with it (warning()) and
// MainWindow enables each action by it. The state of each part lives in a small class the
// document owns: MeasuredPlan (the latest simulation), OptimizerSession (the running optimizer,
// optimize_document.cpp), GpuRun (Measure on GPUs, gpu_document.cpp), CalibrationState (the
// calibration table, calibration_document.cpp), ClusterChoice (the cluster chosen last),
// TaskList (the running tasks). A new workspace (open, cluster switch, calibration, a placement
// file with its own cluster) resets the rest in one place (resetWorkspace).
//
//   Document doc;
//   doc.open({"zoo:nmt", GraphMode::Default, "4xP100-PCIe"});   // async -> opened() or failed()
//   doc.assignDevices({3, 4}, 2);                                // undoable -> planChanged()
//   doc.fuseOps({5, 6});          // undoable, re-measured; refused -> warning(why), "" returned otherwise
//   doc.measure();                                               // async -> measured()
//   doc.optimize(options);   // async -> iterationReported()..., optimizeFinished(); see optimize_document.cpp
//   doc.loadCalibration("cal.json");   // every cost model gets the table; see calibration_document.cpp
//   doc.measureOnGpus();     // async -> gpuMeasurementChanged(); see gpu_document.cpp
//   doc.whyNot(JobKind::Optimize);     // "" when it may start now
#pragma once
#include <map>
#include <QObject>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <memory>
#include <vector>

#include "background_job.h"
#include "calibration_state.h"
#include "cluster_choice.h"
#include "gpu_run.h"
#include "job_kind.h"
#include "latest_job.h"
#include "measured_plan.h"
#include "optimizer_session.h"
#include "panels/history_model.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "task_list.h"
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
  const Measurement& measurement() const { return measured_.measurement(); }
  bool hasMeasurement() const { return measured_.has(); }
  bool measurementIsCurrent() const { return measured_.isFor(plan_); }
  std::vector<int> opsPerDevice() const;
  QUndoStack* undoStack() { return &undo_; }
  HistoryModel* history() { return &history_; }
  const std::vector<OpId>& selection() const { return selection_; }
  bool isBusy() const { return !tasks_.empty(); }
  QString busyText() const { return tasks_.newestText(); }
  // baselines, optimizer, Measure on GPUs
  bool canCancel() const { return baselineJob_ != nullptr || optimizer_.running() || gpu_.running(); }
  bool isOptimizing() const { return optimizer_.running(); }
  // What the last optimize() handed the optimizer (its start plan and threads filled in).
  const OptimizeOptions& lastOptimizeOptions() const { return optimizer_.lastOptions(); }
  // Why a job of this kind may not start now, in one line; empty when it may (job_rules.cpp).
  // The actions below refuse with it (warning()); it does not ask whether a model is open.
  QString whyNot(JobKind kind) const;

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
  void applyEdit(const Plan& plan, const QString& text);  // undoable and re-measured, as hand edits (a suggestion)
  bool loadPlacement(const QString& path, bool allowHashMismatch = false);  // sync; applies + measures
  void restoreHistoryEntry(int row);                     // applies the entry's plan and re-measures
  // Simulates the current plan in the background. The result is added to history (label:
  // `label`, or the last edit's text) unless the plan equals the newest entry's.
  void measure(const QString& label = {}, HistoryKind kind = HistoryKind::Manual);
  void runBaselines(const QStringList& methods);         // async; each result goes to history
  void cancel();                                         // stops baselines between methods, and the optimizer
  // Runs the RL optimizer (optimizePlan) from the current plan in the background. Every
  // iteration is reported; the best plan so far becomes the shown plan (at most twice a second,
  // measured in the background, no undo step); the final best enters history
  // (HistoryKind::Optimizer) and becomes the current plan as one undo step. Edits and
  // baselines wait until it finishes. Errors (no plugin, a bad policy file) -> failed(one
  // line). Refused (warning) while baselines run or the plan runs on the GPUs (runBaselines
  // likewise: their load would distort the measurement).
  void optimize(const OptimizeOptions& options);
  void cancelOptimize();                                 // the run ends within ~100 ms, keeping its best
  // What runs the optimizer: optimizePlan by default (tests hand in their own).
  using Optimizer = OptimizerSession::Optimizer;
  void setOptimizer(Optimizer optimizer);  // empty: the default
  bool waitUntilIdle(int timeoutMs);                     // tests and --screenshot: spins the event loop

  // ---- calibration: measured op times every cost model of the document uses ----
  // The document holds at most one table; it stays through cluster switches and opens. Loading
  // or clearing it rebuilds the cost model, restarts the history (step times of two cost models
  // do not compare; the undo stack stays: the plans still fit) and re-measures. Sync; false +
  // failed(one line) on error, with what was open unchanged. With no model open it is kept
  // for the next open().
  bool hasCalibration() const { return calibration_.has(); }
  std::shared_ptr<const CalibrationTable> calibration() const { return calibration_.table(); }
  QString calibrationLabel() const { return calibration_.label(); }  // the table's file path
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
  bool isMeasuringOnGpus() const { return gpu_.running(); }
  bool hasGpuMeasurement() const { return gpu_.hasResult(); }
  const GpuMeasureResult& gpuMeasurement() const { return gpu_.result(); }  // hasGpuMeasurement() only
  // Shows `r` as the current plan's real measurement (until the plan, the cluster or the
  // calibration changes: then it is cleared, as it no longer matches).
  void setGpuMeasurement(GpuMeasureResult r);
  void clearGpuMeasurement();
  // What runs the plan on the GPUs: ::gp::measureOnGpus by default (tests hand in their own).
  using GpuMeasurer = GpuRun::Measurer;
  void setGpuMeasurer(GpuMeasurer measurer);  // empty: the default

  // Used by the undo commands only.
  void setPlanDevices(const std::vector<OpId>& ops, const std::vector<int32_t>& devices);
  void replacePlan(const Plan& plan);
  void remeasure();  // in the background, no history entry

 Q_SIGNALS:
  // open() started loading `model` on `cluster` (on the UI thread, before the load): a view that
  // needs the model in another form may start loading it at once, alongside (an LLM's layers).
  void openStarted(const QString& model, const gp::LoadOptions& options, std::shared_ptr<const gp::Cluster> cluster);
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
    QString label;
    HistoryKind kind = HistoryKind::Manual;
  };
  // The undo stack through a new workspace: cleared (another graph or cluster: the plans
  // index other devices) or kept (a new cost model only: the plans still fit).
  enum class UndoSteps { Clear, Keep };
  // A new workspace replaces the current one with `plan` as the current plan (see document.cpp).
  void resetWorkspace(std::shared_ptr<const Workspace> ws, Plan plan, UndoSteps undo);
  // Switches to cluster `c` keeping each op on the device of the same name (setCluster).
  void switchCluster(std::shared_ptr<const Cluster> c, const QString& label);
  // After the calibration table changed: a workspace with it, a new history, a measurement.
  void applyCalibration(const QString& historyLabel);
  int beginTask(const QString& text);  // returns the task's id for endTask
  void endTask(int id);
  void failOpen(const QString& message);
  // quiet: no task, no error (the optimizer's live best plans)
  void startMeasure(const PendingHistory& pending, bool quiet = false);
  bool refuses(JobKind kind);  // true, and warning(whyNot(kind)), when it may not start now
  // warning() when the workspace's table calibrates none of its cluster's device kinds.
  void warnIfCalibratesNothing();
  QString refuse(const QString& message);  // warning(message), returns it
  void warnDissolved(int dissolved);       // warning() when leaving ops dissolved whole groups
  void pushPlanEdit(const Plan& after, const QString& text);  // one undo step, re-measured
  void pollOptimizer(bool finishing);  // UI timer: the worker's reports -> signals, live best plan
  void finishOptimize(const std::shared_ptr<OptimizeRun>& run, JobResult<OptimizeResult> r);
  void finishOpen(const OpenRequest& request);
  void pollProgress();
  void addHistory(const QString& label, HistoryKind kind, const Plan& plan, const Measurement& m,
                  double seconds);

  std::shared_ptr<const Workspace> ws_;
  Plan plan_;
  MeasuredPlan measured_;
  QUndoStack undo_;
  HistoryModel history_;
  std::vector<OpId> selection_;
  TaskList tasks_;               // background work: running tasks, newest last
  QThreadPool pool_;             // open, measure, baselines: never blocked by the views' jobs
  QTimer progressTimer_;
  LatestJob workspaces_;         // a new token with every workspace: results of an older one are dropped
  LatestJob opens_;              // the newest open request
  ClusterChoice chosenCluster_;
  std::shared_ptr<JobControl> baselineJob_;
  OptimizerSession optimizer_;
  GpuRun gpu_;
  CalibrationState calibration_;
};

}  // namespace gp
