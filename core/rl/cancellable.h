// Stopping LibTorch work within 100 ms of a cancel (issue 5, item 5), shared by the trainers.
//
// LibTorch cannot interrupt an op, and one forward pass takes about a second on the 64k-op GNMT
// graph on 2 cores, so:
//   - runUnlessStopped(work, cancellable, stop) runs `work` on a helper thread and polls `stop`
//     every 5 ms; when it fires, the helper is handed to a reaper (joined at exit at the
//     latest) and nullopt is returned. `work` must own what it reads (capture by value: module
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

// Keeps a thread running an abandoned pass until it ends (or the process exits).
void reapLater(std::thread t);

template <class Work>
auto runUnlessStopped(Work work, bool cancellable, const std::function<bool()>& stop)
    -> std::optional<decltype(work())> {
  using Result = decltype(work());
  if (!cancellable) return work();
  auto promise = std::make_shared<std::promise<Result>>();
  std::future<Result> result = promise->get_future();
  const bool grad = torch::GradMode::is_enabled();
  std::thread helper([work = std::move(work), promise, grad]() mutable {
    try {
      torch::AutoGradMode mode(grad);
      promise->set_value(work());
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  });
  while (result.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
    if (stop()) {
      reapLater(std::move(helper));
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
