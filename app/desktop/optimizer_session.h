// OptimizerSession: the optimizer run the document shows live — the run its worker fills
// (OptimizeRun, optimize_run.h; null when none runs), the plan it started from, the options it
// was handed, what runs it (optimizePlan unless a test handed in a stand-in) and the best
// plan reported but not shown yet, with the clock that throttles showing them.
#pragma once
#include <QElapsedTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "optimize/optimize.h"
#include "optimize_run.h"
#include "sim/plan.h"

namespace gp {

class OptimizerSession {
 public:
  using Optimizer = std::function<OptimizeResult(const CostModel&, const OptimizeOptions&, const IterationFn&,
                                                 const std::atomic<bool>*)>;

  bool running() const { return run_ != nullptr; }
  const std::shared_ptr<OptimizeRun>& run() const { return run_; }
  const OptimizeOptions& lastOptions() const { return lastOptions_; }
  const Plan& startPlan() const { return startPlan_; }

  const Optimizer& optimizer() const { return optimizer_; }
  void setOptimizer(Optimizer optimizer) { optimizer_ = std::move(optimizer); }

  // `run` starts from `plan`.
  void begin(std::shared_ptr<OptimizeRun> run, const Plan& plan) {
    run_ = std::move(run);
    lastOptions_ = run_->options;
    startPlan_ = plan;
    liveBest_.reset();
    liveShown_.start();
  }
  void cancel() {  // the run ends soon, keeping its best
    if (run_) run_->cancel = true;
  }
  void end() {  // finished, or dropped after cancel()
    run_.reset();
    liveBest_.reset();
  }

  void keepBest(Plan plan) { liveBest_ = std::move(plan); }
  // The best plan reported and not shown yet, of `numOps` ops: at once when `now`, else when
  // intervalMs passed since one was last shown.
  std::optional<Plan> takeBestToShow(bool now, size_t numOps, int intervalMs) {
    if (!liveBest_ || !(now || liveShown_.elapsed() >= intervalMs) || liveBest_->device.size() != numOps) return {};
    std::optional<Plan> best = std::move(liveBest_);
    liveBest_.reset();
    liveShown_.restart();
    return best;
  }

 private:
  std::shared_ptr<OptimizeRun> run_;
  OptimizeOptions lastOptions_;
  Plan startPlan_;
  Optimizer optimizer_;
  std::optional<Plan> liveBest_;
  QElapsedTimer liveShown_;
};

}  // namespace gp
