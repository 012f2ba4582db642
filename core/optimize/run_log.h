// A run's event log (optimize / pretrain --events FILE): JSON lines a running command appends
// and anyone may follow while it runs, the app's File ▸ Attach to Run… among them.
// Format "graphplace-events", version 1 (docs/formats.md), one object per line with "event" and
// "t" (seconds since the log began):
//   run         command ("optimize" | "pretrain"), ranks, seed; optimize: model, cluster, ops,
//               devices, lower_bound_ms, best_baseline, best_baseline_ms; pretrain: tasks [{name, held_out}]
//   iteration   optimize: iteration (0: the zero-shot plan), mean_reward, best_reward, best_step_ms, entropy, elapsed_s
//   best        optimize: iteration, step_ms, devices, priority, fusion_group (per op; the last two
//               may be empty: FIFO, no fusion) — the best plan when it improves
//   round       pretrain: round, task, rank, mean_reward, start_ms, best_ms, own_ms, loss, elapsed_s
//   evaluation  pretrain: round, task, rank, start_ms, best_ms (zero-shot), own_ms, elapsed_s
//   ranks       pretrain with several ranks: round, busy_s and waiting_s per rank (rank health)
//   end         seconds, stopped, iterations or rounds, best_step_ms (optimize)
//   error       message: the run failed
// A step time that is infinite (an infeasible plan) is written as null.
//
//   RunLogWriter log("run.jsonl");  log.event("iteration", {{"iteration", 3}, ...});
//   RunLogFollower f("run.jsonl");  while (...) if (f.poll()) show(f.state());
#pragma once
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/plan.h"

namespace gp {

class RunLogWriter {
 public:
  // Creates (truncates) `path`; throws gp::Error(path, ...) when it cannot.
  explicit RunLogWriter(std::string path);
  // One line, flushed at once; throws gp::Error(path, ...) when the write fails.
  void event(const std::string& kind, nlohmann::ordered_json fields);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ofstream out_;
  int64_t startNs_;
};

// What a log says so far.
struct RunLogState {
  std::string command, model, cluster;
  int ranks = 1, ops = 0, devices = 0;
  uint64_t seed = 0;
  double lowerBoundMs = 0, bestBaselineMs = 0;
  std::string bestBaseline;
  // the reward curve: optimize, one point per iteration; pretrain, one per round (the mean and the
  // best of its tasks' mean rewards)
  struct Point {
    int x = 0;
    double meanReward = 0, bestReward = 0, bestStepMs = 0;  // bestStepMs: optimize only (0: none)
    bool zeroShot = false;
  };
  std::vector<Point> points;
  // optimize: the best plan so far
  Plan bestPlan;
  double bestStepMs = 0;
  int bestIteration = -1;
  // pretrain: each task's latest figures (ms; infinity: infeasible; 0: none yet)
  struct Task {
    std::string name;
    bool heldOut = false;
    int round = -1, rank = 0;
    double startMs = 0, bestMs = 0, ownMs = 0, loss = 0;
  };
  std::vector<Task> tasks;
  int healthRound = -1;
  std::vector<double> busySeconds, waitingSeconds;  // per rank, of healthRound
  double lastEventSeconds = 0;  // "t" of the latest event
  bool ended = false, stopped = false;
  double seconds = 0;           // of the run, once ended
  std::string error;            // the run's own error line, when it failed
  int64_t events = 0;
};

class RunLogFollower {
 public:
  static constexpr size_t kMaxLine = 64u << 20;  // bytes; a longer line is an error

  explicit RunLogFollower(std::string path);
  // Reads what was appended since the last call (a line still being written waits for its
  // newline); returns whether the state changed. A file that shrank was started again: the state
  // restarts. Throws gp::Error(path, one line) for a missing file or a line that is not an event
  // of this format ("line 7: ..."); the state up to that line stays.
  bool poll();
  const RunLogState& state() const { return state_; }
  const std::string& path() const { return path_; }

 private:
  void apply(const nlohmann::json& e);

  std::string path_;
  uint64_t offset_ = 0;
  std::string partial_;
  int64_t line_ = 0;
  RunLogState state_;
};

}  // namespace gp
