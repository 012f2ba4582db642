// Stopping LibTorch work within 100 ms of a cancel, shared by the trainers.
//
// LibTorch cannot interrupt an op, and one forward pass takes about a second on the 64k-op GNMT
// graph on 2 cores, so:
//   - runUnlessStopped(work, cancellable, stop) runs `work` on a helper thread and polls `stop`
//     every 5 ms; when it fires, the helper is handed to a reaper (joined once it ends; at exit
//     waited for up to 10 s) and nullopt is returned. `work` must own what it reads (capture by value: module
//     holders and tensors are shared handles).
//   - CancelHooks registers a gradient hook on every parameter that throws Cancelled when
//     `cancel` is set, abandoning a backward pass between layers; the hooks are removed when
//     the object goes out of scope. Catch Cancelled (or anything) around backward().
#pragma once
#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace gp::rl {

struct Cancelled {};  // thrown by a gradient hook to abandon a backward pass

// Keeps a thread running an abandoned pass until it ends; `finished` is set by the thread as
// its last act. Finished threads are joined when the next one arrives; at exit the reaper
// waits up to 10 s for the rest and then leaves them (a LibTorch thread pool can lose a
// wake-up and never finish: the process must still end).
void reapLater(std::thread t, std::shared_ptr<std::atomic<bool>> finished);

// Frees `value` (an abandoned pass's tensors and autograd graph) on a reaped helper thread,
// off the caller's latency.
template <class T>
void destroyLater(T value) {
  auto finished = std::make_shared<std::atomic<bool>>(false);
  std::thread t([v = std::make_unique<T>(std::move(value)), finished]() mutable {
    v.reset();
    finished->store(true);
  });
  reapLater(std::move(t), std::move(finished));
}

template <class Work>
auto runUnlessStopped(Work work, bool cancellable, const std::function<bool()>& stop)
    -> std::optional<decltype(work())> {
  using Result = decltype(work());
  if (!cancellable) return work();
  auto promise = std::make_shared<std::promise<Result>>();
  std::future<Result> result = promise->get_future();
  const bool grad = torch::GradMode::is_enabled();
  auto finished = std::make_shared<std::atomic<bool>>(false);
  std::thread helper([work = std::move(work), promise, grad, finished]() mutable {
    {
      Work local = std::move(work);  // destroyed before `finished` is set
      try {
        torch::AutoGradMode mode(grad);
        promise->set_value(local());
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
    }
    finished->store(true);
  });
  while (result.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
    if (stop()) {
      reapLater(std::move(helper), std::move(finished));
      return std::nullopt;
    }
  }
  helper.join();
  return result.get();
}

class CancelHooks {
 public:
  CancelHooks(const std::vector<torch::Tensor>& parameters, const std::atomic<bool>* cancel);
  ~CancelHooks();
  CancelHooks(const CancelHooks&) = delete;
  CancelHooks& operator=(const CancelHooks&) = delete;

 private:
  std::vector<std::pair<torch::Tensor, unsigned>> hooks_;
};

}  // namespace gp::rl
