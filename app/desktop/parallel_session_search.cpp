// ParallelSession's plan searches: Megatron's rule, data parallelism, the closest published
// recipe, the exact search and the DQN, one at a time on the session's pool.
#include "background_job.h"
#include "parallel_session.h"
#include "parallel_state_command.h"

namespace gp {

void ParallelSession::run(Method m) { startSearch(m, {}); }

void ParallelSession::optimize(const DqnOptions& options) { startSearch(Method::Dqn, options); }

void ParallelSession::stop() {
  if (search_) search_->cancel = true;
}

void ParallelSession::startSearch(Method m, DqnOptions dqn) {
  if (const QString why = whyNotEdit(); !why.isEmpty()) {
    refuse(why);
    return;
  }
  stopBackgroundSearch();
  auto run = std::make_shared<ParallelSearchRun>();
  search_ = run;
  const int64_t batch = state_.batch;
  // Searched plans keep the current plan's attention and FP8: choices of numerics, not speed alone.
  ParallelMethodOptions options;
  options.search.budgetSeconds = exactBudget_;
  options.search.cancel = &run->cancel;
  options.search.fixed = FixedKnobs::of(state_.plan);
  options.dqn = dqn;
  startJob(
      this, &pool_,
      [task = task_, batch, m, options, run]() -> ParallelResult {
        // Its own stage cost model (a cache inside): the UI thread simulates with the task's.
        const StageCostModel model(task->stack, task->cost);
        return runParallelMethod(m, model, batch, options, [run](const DqnEpisodeReport& r) { run->report(r); });
      },
      [this, m, run, batch](JobResult<ParallelResult> r) { finishSearch(m, run, batch, r.value, r.error); });
  if (m == Method::Dqn || m == Method::Random) poll_.start();
  Q_EMIT searchStarted(m);
  setBusy();
}

void ParallelSession::pollEpisodes() {
  if (!search_) return;
  std::vector<DqnEpisodeReport> reports = search_->take();
  if (!reports.empty()) Q_EMIT episodes(reports);
}

void ParallelSession::finishSearch(Method m, const std::shared_ptr<ParallelSearchRun>& run, int64_t batch,
                                   const std::optional<ParallelResult>& r, const QString& error) {
  if (run != search_) return;  // a new model was loaded meanwhile
  pollEpisodes();
  poll_.stop();
  search_.reset();
  background_ = false;
  bool applied = false;
  QString note;
  if (!r) {  // it threw: the plugin is missing, a policy file is broken, …
    note = error;
    Q_EMIT warning(tr("%1 failed: %2").arg(methodLabel(m), error));
  } else if (!r->found) {
    note = QString::fromStdString(r->note);
    Q_EMIT warning(tr("%1 found no plan: %2").arg(methodLabel(m), note));
  } else {
    const pedit::PlanState after{batch, r->plan};
    const QString label = methodLabel(m);
    history_.add(label, after, simulate(after));
    if (!pedit::sameState(after, state_)) undo_.push(new ShowStateCommand(this, state_, after, label));
    applied = true;
    note = QString::fromStdString(r->note);
  }
  setBusy();
  Q_EMIT searchFinished(m, applied, note);
}

}  // namespace gp
