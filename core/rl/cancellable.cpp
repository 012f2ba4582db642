#include "rl/cancellable.h"

#include <mutex>

namespace gp::rl {
namespace {

// Threads running abandoned passes, joined when they end (at exit: waited for up to 10 s, then
// left): constructed after LibTorch's statics (on first use), so destroyed before them.
struct Reaper {
  struct Reaped {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> finished;
  };
  std::mutex mutex;
  std::vector<Reaped> threads;

  void joinFinished() {  // under the mutex
    std::erase_if(threads, [](Reaped& r) {
      if (!r.finished->load()) return false;
      r.thread.join();
      return true;
    });
  }

  ~Reaper() {
    std::lock_guard lock(mutex);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
      joinFinished();
      if (threads.empty() || std::chrono::steady_clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (Reaped& r : threads) r.thread.detach();  // stuck: the process ends all the same
  }
};

Reaper& reaper() {
  static Reaper r;
  return r;
}

}  // namespace

void reapLater(std::thread t, std::shared_ptr<std::atomic<bool>> finished) {
  std::lock_guard lock(reaper().mutex);
  reaper().joinFinished();
  reaper().threads.push_back({std::move(t), std::move(finished)});
}

CancelHooks::CancelHooks(const std::vector<torch::Tensor>& parameters, const std::atomic<bool>* cancel) {
  if (!cancel) return;
  for (const torch::Tensor& p : parameters) {
    torch::Tensor t = p;
    hooks_.emplace_back(t, t.register_hook([cancel](const torch::Tensor&) {
      if (cancel->load(std::memory_order_relaxed)) throw Cancelled{};
    }));
  }
}

CancelHooks::~CancelHooks() {
  for (auto& [t, h] : hooks_) t.remove_hook(h);
}

}  // namespace gp::rl
