#include "rl/cancellable.h"

#include <mutex>

namespace gp::rl {
namespace {

// Threads running abandoned passes, joined at exit at the latest: constructed after LibTorch's
// statics (on first use), so destroyed before them.
struct Reaper {
  std::mutex mutex;
  std::vector<std::thread> threads;
  ~Reaper() {
    for (std::thread& t : threads) t.join();
  }
};

Reaper& reaper() {
  static Reaper r;
  return r;
}

}  // namespace

void reapLater(std::thread t) {
  std::lock_guard lock(reaper().mutex);
  reaper().threads.push_back(std::move(t));
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
