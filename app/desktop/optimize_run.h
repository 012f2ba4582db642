// What the Document and a running optimizer share (Document::optimize). The optimizer's
// iteration callback runs on a worker thread: it only copies its report (and the best plan
// when it improved) in here under the mutex; the Document's UI timer takes them out. No call
// crosses into a QObject from the worker.
#pragma once
#include <QElapsedTimer>
#include <QString>
#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

#include "optimize/optimize.h"
#include "sim/plan.h"

namespace gp {

// One iteration as the UI sees it: the report (its `best` pointer is null: the plan pointed to
// lives on the worker) and, when the iteration found a better plan, a copy of that plan.
struct OptimizeProgress {
  IterationReport report;
  std::optional<Plan> improvedBest;
};

struct OptimizeRun {
  std::atomic<bool> cancel{false};
  OptimizeOptions options;
  QString method;       // "PPO", shown in the history label
  QElapsedTimer clock;  // started with the run (UI thread only)

  // Called on the worker thread for every iteration.
  void report(const IterationReport& r) {
    std::lock_guard<std::mutex> lock(mutex_);
    OptimizeProgress p;
    p.report = r;
    p.report.best = nullptr;
    if (r.improved && r.best) p.improvedBest = *r.best;
    lastIteration_ = r.iteration;
    polishing_ = r.polish;
    pending_.push_back(std::move(p));
  }
  // UI thread: everything reported since the last call, oldest first.
  std::vector<OptimizeProgress> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<OptimizeProgress> out;
    out.swap(pending_);
    return out;
  }
  int lastIteration() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lastIteration_;
  }
  // The last report was a round of polishing (the search is over).
  bool polishing() {
    std::lock_guard<std::mutex> lock(mutex_);
    return polishing_;
  }

 private:
  std::mutex mutex_;  // not QMutex: ThreadSanitizer sees this one
  std::vector<OptimizeProgress> pending_;
  int lastIteration_ = 0;
  bool polishing_ = false;
};

}  // namespace gp
