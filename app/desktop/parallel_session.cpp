#include "parallel_session.h"

#include "background_job.h"
#include "parallel_state_command.h"
#include "parallel/parallel_search.h"
#include "zoo/zoo.h"

namespace gp {

namespace {

// The batch a plan starts with: the zoo model's documented one, else 8 samples per device.
int64_t defaultBatch(const std::string& spec, const Cluster& c) {
  if (spec.rfind("zoo:", 0) == 0)
    for (const ZooEntry& z : zooModels())
      if (z.name == spec.substr(4)) return z.defaultBatch;
  return 8 * int64_t{c.numDevices()};
}

// The model as parallelize loads it: the forward graph (backward and updates are costed per
// layer) with the training precision, a zoo model at batch 1 (its values are per sample).
std::shared_ptr<ParallelTask> loadTask(const std::string& spec, LoadOptions lo, const Cluster& c) {
  lo.warn = {};
  lo.mode = GraphMode::Inference;
  if (lo.precision == Precision::FP32) lo.precision = defaultTrainingPrecision(c);
  const double samples = lo.zoo.batch > 0 ? lo.zoo.batch : 1;
  if (lo.zoo.batch == 0) lo.zoo.batch = 1;
  Graph g = loadModel(spec, lo);
  return std::make_shared<ParallelTask>(std::move(g), c, defaultBatch(spec, c), spec, samples);
}

}  // namespace

QString ParallelSession::methodLabel(Method m) {
  switch (m) {
    case Method::Megatron: return tr("Megatron");
    case Method::DataParallel: return tr("Data parallel");
    case Method::Recipe: return tr("Published recipe");
    case Method::Exact: return tr("Exact");
    case Method::Dqn: return tr("DQN");
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
        loaded.task = loadTask(spec, options, *cluster);
        const ParallelTask& t = *loaded.task;
        loaded.start = {t.globalBatch, pedit::startPlan(t.c.numDevices(), t.stack.numLayers(), t.globalBatch)};
        // The first plan shown runs: data parallelism on every device when it fits, else
        // Megatron's rule (the smallest tensor x pipeline size that fits).
        const ParallelMeasurement first =
            simulateParallel(t.model, loaded.start.batch, loaded.start.plan, {/*timeline=*/false, /*skipWhenOverMemory=*/true});
        if (!first.feasible) {
          const ParallelResult megatron = megatronPlan(t.model, loaded.start.batch);
          if (megatron.found && megatron.measurement.feasible) {
            loaded.start.plan = megatron.plan;
            loaded.megatron = true;
          }
        }
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
