// What a ParallelSession and a running plan search share. The search runs on a worker thread:
// it polls `cancel` and, for the DQN, copies each episode's report in here under the mutex;
// the session's UI timer takes them out. No call crosses into a QObject from the worker.
#pragma once
#include <atomic>
#include <mutex>
#include <vector>

#include "optimize/parallel_dqn.h"

namespace gp {

struct ParallelSearchRun {
  std::atomic<bool> cancel{false};

  void report(const DqnEpisodeReport& r) {  // worker thread
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back(r);
  }
  std::vector<DqnEpisodeReport> take() {  // UI thread: everything since the last call, oldest first
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<DqnEpisodeReport> out;
    out.swap(pending_);
    return out;
  }

 private:
  std::mutex mutex_;  // not QMutex: ThreadSanitizer sees this one
  std::vector<DqnEpisodeReport> pending_;
};

}  // namespace gp
