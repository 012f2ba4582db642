#include "parallel_session.h"

#include "background_job.h"
#include "parallel_state_command.h"
#include "session/parallel_methods.h"
#include "session/parallel_task_load.h"

namespace gp {

QString ParallelSession::methodLabel(Method m) {
  switch (m) {
    case Method::Megatron: return tr("Megatron");
    case Method::DataParallel: return tr("Data parallel");
    case Method::Recipe: return tr("Published recipe");
    case Method::Exact: return tr("Exact");
    case Method::Dqn: return tr("DQN");
    case Method::Random: return tr("Random");
  }
  return {};
}

ParallelSession::ParallelSession(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(2);  // a load and a search
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &ParallelSession::pollEpisodes);
}

ParallelSession::~ParallelSession() {
  if (search_) search_->cancel = true;
  pool_.waitForDone();  // a search honours cancel within ~100 ms; a load finishes
}

QString ParallelSession::clusterName() const { return task_ ? QString::fromStdString(task_->c.name()) : QString(); }

void ParallelSession::load(std::shared_ptr<const Workspace> ws, bool searchAfterLoad) {
  load(ws->modelSpec, ws->options, ws->cluster, searchAfterLoad);
}

void ParallelSession::load(const QString& modelSpec, const LoadOptions& options, std::shared_ptr<const Cluster> cluster,
                           bool searchAfterLoad) {
  if (search_) search_->cancel = true;  // its result is dropped: it belongs to the old task
  search_.reset();
  background_ = false;
  poll_.stop();
  const int64_t generation = ++generation_;
  task_.reset();
  loadError_.clear();
  spec_ = modelSpec;
  state_ = start_ = {};
  measurement_ = {};
  undo_.clear();
  history_.clear();
  loading_ = true;
  Q_EMIT changed();
  setBusy();
  startJob(
      this, &pool_,
      [spec = modelSpec.toStdString(), options, cluster] {
        LoadedTask loaded;
        ParallelLoad load;
        load.model = options;
        load.model.warn = {};
        // The open's precision where one was chosen; fp32 (the open's default) stands for none.
        if (options.precision != Precision::FP32) load.precision = options.precision;
        loaded.task = loadParallelTask(spec, *cluster, load);
        const ParallelTask& t = *loaded.task;
        const StartingPlan first = startingParallelPlan(t, t.globalBatch);
        loaded.start = {t.globalBatch, first.plan};
        loaded.megatron = first.megatron;
        return loaded;
      },
      [this, generation, searchAfterLoad](JobResult<LoadedTask> r) {
        if (generation != generation_) return;
        loading_ = false;
        if (!r.value) {
          loadError_ = r.error;
          setBusy();
          Q_EMIT loadFailed(loadError_);
          return;
        }
        task_ = r.value->task;
        start_ = r.value->start;
        showState(start_);
        history_.add(r.value->megatron ? methodLabel(Method::Megatron) : tr("Start"), state_, measurement_);
        setBusy();
        Q_EMIT loaded();
        if (searchAfterLoad) {  // its best replaces the plan when it finishes, unless the user changes it first
          background_ = true;  // before it starts: the views ask whyNotEdit when it does
          run(Method::Exact);
          background_ = isSearching();
        }
      });
}

ParallelMeasurement ParallelSession::simulate(const pedit::PlanState& s) const {
  try {
    return simulateParallel(task_->model, s.batch, s.plan, {/*timeline=*/true, /*skipWhenOverMemory=*/false});
  } catch (const std::exception& e) {
    ParallelMeasurement m;
    m.feasible = false;
    m.problem = e.what();
    return m;
  }
}

void ParallelSession::showState(const pedit::PlanState& s) {
  state_ = s;
  measurement_ = task_ ? simulate(s) : ParallelMeasurement{};
  Q_EMIT changed();
}

QString ParallelSession::refuse(const QString& message) {
  Q_EMIT warning(message);
  return message;
}

QString ParallelSession::whyNotEdit() const {
  if (loading_) return tr("the model is still loading");
  if (!task_) return loadError_.isEmpty() ? tr("no model is loaded") : loadError_;
  if (search_ && !background_) return tr("a plan search is running: stop it first");
  return {};
}

QString ParallelSession::edit(const pedit::PlanState& after, const QString& text) {
  if (const QString why = whyNotEdit(); !why.isEmpty()) return refuse(why);
  if (pedit::sameState(after, state_)) return {};
  const std::string problem = parallelPlanProblem(task_->stack, task_->c, after.batch, after.plan);
  if (!problem.empty()) return refuse(QString::fromStdString(problem));
  stopBackgroundSearch();
  // Into the history first, so the views find the shown plan there when it changes.
  if (history_.find(after) < 0) history_.add(text, after, simulate(after));
  undo_.push(new ShowStateCommand(this, state_, after, text));
  return {};
}

void ParallelSession::restore(int row) {
  if (row < 0 || row >= history_.count()) return;
  if (const QString why = whyNotEdit(); !why.isEmpty()) {
    refuse(why);
    return;
  }
  const ParallelHistoryEntry& e = history_.entry(row);
  if (pedit::sameState(e.state, state_)) return;
  stopBackgroundSearch();
  undo_.push(new ShowStateCommand(this, state_, e.state, tr("Restore %1").arg(e.label)));
}

void ParallelSession::reset() {
  if (const QString why = whyNotEdit(); !why.isEmpty()) {
    refuse(why);
    return;
  }
  if (pedit::sameState(start_, state_)) return;
  stopBackgroundSearch();
  undo_.push(new ShowStateCommand(this, state_, start_, tr("Reset")));
}

void ParallelSession::stopBackgroundSearch() {
  if (!isBackgroundSearch()) return;
  search_->cancel = true;  // finishSearch drops what it found: it is no longer search_
  search_.reset();
  background_ = false;
  poll_.stop();
  setBusy();
  Q_EMIT searchFinished(Method::Exact, false, tr("the exact search stopped: the plan was changed by hand"));
}

void ParallelSession::setBusy() {
  const bool busy = isBusy();
  if (busy == wasBusy_) return;
  wasBusy_ = busy;
  Q_EMIT busyChanged(busy);
}

}  // namespace gp
