// Document: running the RL optimizer (Document::optimize). The run works on the Document's
// pool; its iteration callback only fills an OptimizeRun (optimize_run.h) that the progress
// timer drains on the UI thread. The best plan so far is shown at most every kLiveIntervalMs
// (no undo step); the final one enters history and becomes the plan in one undo step.
#include <QLocale>
#include <QThread>
#include <algorithm>

#include "document.h"
#include "plan_commands.h"

namespace gp {

namespace {
constexpr int kLiveIntervalMs = 500;  // the views follow the best plan at most this often
}

void Document::setOptimizer(Optimizer optimizer) {
  optimizer_.setOptimizer(std::move(optimizer));
}

void Document::optimize(const OptimizeOptions& options) {
  if (!ws_ || refuses(JobKind::Optimize)) return;
  auto run = std::make_shared<OptimizeRun>();
  run->options = options;
  run->options.startPlan = plan_;  // a hand-edited plan is optimized further
  // One core stays free for the user interface (LibTorch would take them all).
  if (run->options.threads <= 0) run->options.threads = std::max(1, QThread::idealThreadCount() - 1);
  run->method = options.policy.kind == PolicyKind::ColocRL  ? QStringLiteral("ColocRL")
                : options.policy.kind == PolicyKind::Search ? QStringLiteral("search")
                                                            : QStringLiteral("PPO");
  optimizer_.begin(run, plan_);
  run->clock.start();
  const int task = beginTask(tr("Optimizing…"));
  Q_EMIT optimizeStarted();
  startJob(
      this, &pool_,
      [ws = ws_, run, optimizer = optimizer_.optimizer()] {
        const IterationFn report = [run](const IterationReport& r) { run->report(r); };
        return optimizer ? optimizer(*ws->cost, run->options, report, &run->cancel)
                         : optimizePlan(*ws->cost, run->options, report, &run->cancel);
      },
      [this, run, task](JobResult<OptimizeResult> r) {
        finishOptimize(run, std::move(r));
        endTask(task);
      });
}

void Document::cancelOptimize() {
  optimizer_.cancel();
}

void Document::pollOptimizer(bool finishing) {
  const std::shared_ptr<OptimizeRun> run = optimizer_.run();
  if (!run) return;
  bool showNow = false;  // the zero-shot plan is shown at once: what the policy knows by itself
  for (OptimizeProgress& p : run->take()) {
    Q_EMIT iterationReported(p);
    if (p.improvedBest) {
      optimizer_.keepBest(std::move(*p.improvedBest));
      showNow = showNow || p.report.zeroShot;
    }
  }
  if (finishing) return;
  const OptimizeOptions& o = run->options;
  const int it = run->lastIteration();
  if (!baselineJob_) {  // the baselines' progress has the status bar while they run
    int percent = o.iterations > 0 ? 100 * it / o.iterations : -1;
    if (o.budgetSeconds > 0)
      percent = std::max(percent, static_cast<int>(100 * run->clock.elapsed() / (1e3 * o.budgetSeconds)));
    const QString seconds = tr("%1 of %2 s").arg(run->clock.elapsed() / 1000).arg(o.budgetSeconds);
    Q_EMIT progress(std::min(percent, 100),
                    run->polishing()          ? (o.budgetSeconds > 0 ? tr("Optimizing: polishing the best plan, %1").arg(seconds)
                                                                     : tr("Optimizing: polishing the best plan"))
                    : o.budgetSeconds > 0     ? tr("Optimizing: iteration %1, %2").arg(it).arg(seconds)
                                              : tr("Optimizing: iteration %1 of %2").arg(it).arg(o.iterations));
  }
  // The views follow the best plan, throttled: a new plan at most every kLiveIntervalMs.
  if (std::optional<Plan> best = optimizer_.takeBestToShow(showNow, plan_.device.size(), kLiveIntervalMs)) {
    plan_ = std::move(*best);
    Q_EMIT planChanged();
    startMeasure(PendingHistory{}, /*quiet=*/true);
  }
}

void Document::finishOptimize(const std::shared_ptr<OptimizeRun>& run, JobResult<OptimizeResult> r) {
  if (run != optimizer_.run()) {  // a new workspace superseded it (resetWorkspace): dropped
    Q_EMIT optimizeFinished(false);
    return;
  }
  pollOptimizer(/*finishing=*/true);  // the last reports still go to the plot
  const Plan start = optimizer_.startPlan();  // where the run started: the result replaces it as one undo step
  optimizer_.end();
  auto backToStart = [this, &start] {
    if (plan_ == start) return;
    plan_ = start;
    Q_EMIT planChanged();
    startMeasure(PendingHistory{});
  };
  if (!r.value) {
    backToStart();
    Q_EMIT failed(tr("Optimizer failed: %1").arg(r.error));
    Q_EMIT optimizeFinished(false);
    return;
  }
  OptimizeResult& res = *r.value;
  if (!res.note.empty()) Q_EMIT warning(QString::fromStdString(res.note));
  const bool zeroShot = run->options.iterations <= 0;  // one greedy plan, no iteration
  if ((res.iterations == 0 && res.polishMoves == 0 && !zeroShot) || res.best.device.size() != start.device.size()) {
    backToStart();
    Q_EMIT warning(tr("The optimizer stopped before its first iteration."));
    Q_EMIT optimizeFinished(false);
    return;
  }
  QString done = tr("%n iteration(s)", nullptr, res.iterations);
  if (res.polishMoves > 0) done += tr(", %n polish move(s)", nullptr, res.polishMoves);
  const QString label = zeroShot        ? tr("Optimizer (%1, zero-shot)").arg(run->method)
                        : res.cancelled ? tr("Optimizer (%1, stopped after %2)").arg(run->method, done)
                                        : tr("Optimizer (%1, %2)").arg(run->method, done);
  plan_ = start;  // silently: the views get the result with the undo step below
  if (res.best == plan_)
    Q_EMIT planChanged();
  else
    undo_.push(new ReplacePlanCommand(this, start, res.best, label));
  measured_.supersede(res.best, std::move(res.measurement));  // a live measurement on its way is stale now
  addHistory(label, HistoryKind::Optimizer, measured_.plan(), measured_.measurement(), res.seconds);
  Q_EMIT measured();
  Q_EMIT optimizeFinished(true);
}

}  // namespace gp
