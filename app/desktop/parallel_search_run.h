// What a ParallelSession and a running plan search share. The search runs on a worker thread:
// it polls `cancel` and, for the DQN, copies each episode's report in here under the mutex;
// the session's UI timer takes them out. No call crosses into a QObject from the worker.
#pragma once
#include <QMutex>
#include <atomic>
#include <vector>

#include "optimize/parallel_dqn.h"

namespace gp {

struct ParallelSearchRun {
  std::atomic<bool> cancel{false};

  void report(const DqnEpisodeReport& r) {  // worker thread
    QMutexLocker lock(&mutex_);
    pending_.push_back(r);
  }
  std::vector<DqnEpisodeReport> take() {  // UI thread: everything since the last call, oldest first
    QMutexLocker lock(&mutex_);
    std::vector<DqnEpisodeReport> out;
    out.swap(pending_);
    return out;
  }

 private:
  QMutex mutex_;
  std::vector<DqnEpisodeReport> pending_;
};

}  // namespace gp
