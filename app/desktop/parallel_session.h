// ParallelSession: the model object of the Parallel Plan window — the open model as a layer
// stack on the document's cluster (a ParallelTask, loaded in the background as the forward
// graph with the training precision, as `graphplace-cli parallelize` loads it), the current
// plan and global batch with their simulated step, an undo stack of hand edits, the history of
// plans produced, and the plan searches (Megatron's rule, data parallelism, the exact search,
// the DQN) running one at a time on a worker thread.
//
// Every change of the shown state is one undo step and is simulated at once on the UI thread
// (simulateParallel with the timeline: milliseconds). An edit whose plan breaks a rule
// (parallelPlanProblem) is refused: nothing changes and warning(the one-line reason) is emitted.
// While a search runs, edits, restores and other searches are refused (whyNotEdit); a search's
// plan enters the history and becomes the shown plan as one undo step. The DQN's episodes are
// passed on (episodes()) every 100 ms; stop() ends any search within ~100 ms, keeping what it
// found. Destroying the session stops a running search and waits for it.
//
//   ParallelSession s;
//   s.load(document.workspace());          // async -> loaded() or loadFailed(reason)
//   s.edit({512, plan}, "Micro-batches 8"); // "" when applied, else the reason
//   s.run(ParallelSession::Method::Exact);  // async -> searchFinished(...)
#pragma once
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <memory>
#include <optional>
#include <vector>

#include "optimize/parallel_dqn.h"
#include "parallel/parallel_edits.h"
#include "parallel/parallel_history_model.h"
#include "parallel/parallel_task.h"
#include "parallel_search_run.h"
#include "session/parallel_methods.h"
#include "workspace.h"

namespace gp {

class ParallelSession : public QObject {
  Q_OBJECT
 public:
  using Method = ParallelMethod;  // session/parallel_methods.h
  static QString methodLabel(Method m);  // its table's label, translated

  explicit ParallelSession(QObject* parent = nullptr);
  ~ParallelSession() override;

  // Loads the workspace's model for parallel planning on its cluster (background). A running
  // search stops; state, undo steps and history start again once loaded. The first plan shown
  // runs where one can: data parallelism on every device when it fits, else Megatron's rule
  // (history: "Start" or "Megatron"). `searchAfterLoad`: the exact search starts once it is
  // shown, and its best plan replaces it when it finishes (an LLM opened in this view).
  void load(std::shared_ptr<const Workspace> ws, bool searchAfterLoad = false);
  // The same from the model's spec and load options (the workspace need not exist yet).
  void load(const QString& modelSpec, const LoadOptions& options, std::shared_ptr<const Cluster> cluster,
            bool searchAfterLoad = false);
  bool isLoading() const { return loading_; }
  bool hasTask() const { return task_ != nullptr; }
  const ParallelTask* task() const { return task_.get(); }
  QString loadError() const { return loadError_; }  // the one-line reason the last load failed
  QString modelSpec() const { return spec_; }
  QString clusterName() const;

  const pedit::PlanState& state() const { return state_; }
  const ParallelMeasurement& measurement() const { return measurement_; }  // of state(), with events
  QUndoStack* undoStack() { return &undo_; }
  ParallelHistoryModel* history() { return &history_; }

  // Why the shown plan may not change now (a search the user started runs); empty when it may.
  QString whyNotEdit() const;
  // Applies `after` as one undo step labelled `text` and adds it to the history unless a plan
  // there is the same. Returns "" when applied, else the reason (warning() emitted).
  QString edit(const pedit::PlanState& after, const QString& text);
  void restore(int historyRow);  // undoable
  void reset();                  // back to the first plan shown (undoable)

  void run(Method m);                        // any method but the DQN, which optimize() runs
  void optimize(const DqnOptions& options);  // the DQN
  void stop();
  bool isSearching() const { return search_ != nullptr; }
  // The exact search that started by itself after the load (searchAfterLoad): a change by hand,
  // a restore or another search stops it (its result is dropped), so the plan stays editable
  // while it runs.
  bool isBackgroundSearch() const { return search_ != nullptr && background_; }
  bool isBusy() const { return loading_ || search_ != nullptr; }
  // The exact search's time limit (s).
  void setExactBudget(double seconds) { exactBudget_ = seconds; }

  // Used by the undo command only: shows `s` and simulates it.
  void showState(const pedit::PlanState& s);

 Q_SIGNALS:
  void loaded();
  void loadFailed(const QString& reason);
  void changed();  // state() and measurement() are new
  void warning(const QString& message);
  void busyChanged(bool busy);
  void searchStarted(gp::ParallelSession::Method m);
  void episodes(const std::vector<gp::DqnEpisodeReport>& reports);
  // The search ended: applied = its plan is shown; `note` says what it found or why nothing.
  void searchFinished(gp::ParallelSession::Method m, bool applied, const QString& note);

 private:
  void setBusy();
  void stopBackgroundSearch();
  QString refuse(const QString& message);
  void startSearch(Method m, DqnOptions dqn);
  void finishSearch(Method m, const std::shared_ptr<ParallelSearchRun>& run, int64_t batch,
                    const std::optional<ParallelResult>& r, const QString& error);
  void pollEpisodes();
  ParallelMeasurement simulate(const pedit::PlanState& s) const;
  struct LoadedTask {
    std::shared_ptr<ParallelTask> task;
    pedit::PlanState start;
    bool megatron = false;  // the start is Megatron's plan (data parallelism alone does not fit)
  };

  std::shared_ptr<ParallelTask> task_;
  QString spec_, loadError_;
  bool loading_ = false;
  int64_t generation_ = 0;  // a new one with every load: older results are dropped
  pedit::PlanState state_, start_;
  ParallelMeasurement measurement_;
  QUndoStack undo_;
  ParallelHistoryModel history_;
  std::shared_ptr<ParallelSearchRun> search_;
  QTimer poll_;
  QThreadPool pool_;
  double exactBudget_ = 60;
  bool wasBusy_ = false;
  bool background_ = false;  // search_ started by itself after the load
};

}  // namespace gp
