// GraphvizProcess: Graphviz dot for one visible graph, run in a forked child process. dot cannot
// be interrupted in-process and takes tens of seconds on a couple of thousand boxes; a child can
// be given a deadline and killed (another model opened, a group expanded). The child lays out a
// copy of the visible graph with graphvizLayout and sends back the geometry through a pipe.
#pragma once
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gp {

class ScopeTree;
struct GraphLayout;

class GraphvizProcess {
 public:
  enum class State { Running, Done, Failed };
  using Clock = std::chrono::steady_clock;

  // Starts dot on `visible` (items and edges from buildVisibleGraph). Failed at once when no
  // child could be started.
  GraphvizProcess(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                  const GraphLayout& visible);
  ~GraphvizProcess();  // kills and reaps a child still running
  GraphvizProcess(const GraphvizProcess&) = delete;
  GraphvizProcess& operator=(const GraphvizProcess&) = delete;

  // Reads the child's answer until it is complete, `deadline` passes or `cancel` turns true
  // (then Running: the child still runs; the destructor kills it).
  State waitUntil(Clock::time_point deadline, const std::atomic<bool>& cancel);
  // After Done: item positions, frames and edge polylines into `out` (the same visible graph).
  bool apply(GraphLayout& out) const;

 private:
  void finish();  // reaps the child, checks the answer
  pid_t pid_ = -1;
  int fd_ = -1;
  State state_ = State::Failed;
  std::string bytes_;
  size_t items_ = 0, edges_ = 0;
};

// graphviz_layout.cpp: forks with the Graphviz lock held (no thread of ours is inside cgraph at
// the fork); the child runs `child`, which must end with _exit. Returns the child's pid, -1 on failure.
pid_t forkForGraphviz(const std::function<void()>& child);
// graphvizLayout for a caller that holds the lock already (the child of forkForGraphviz).
bool graphvizLayoutLocked(const Graph& g, const ScopeTree& tree, const std::vector<uint8_t>& expanded,
                          GraphLayout& out);

}  // namespace gp
