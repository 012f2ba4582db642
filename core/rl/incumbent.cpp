// The incumbent's batch simulation: see incumbent.h.
#include "rl/incumbent.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace gp::rl {

Incumbent::Incumbent(const CostModel& cost, int workers) : sim(cost), bound(lowerBound(cost)) {
  if (workers <= 0) workers = static_cast<int>(std::thread::hardware_concurrency());
  workers = std::clamp(workers, 1, 16);
  parallel_ = workers > 1 && cost.graph().numOps() >= kParallelOps;
  if (!parallel_) return;
  for (int w = 1; w < workers; ++w) extra_.push_back(std::make_unique<Simulator>(cost));
}

std::vector<Incumbent::Scored> Incumbent::considerAll(const std::vector<Plan>& plans, bool& improved) {
  std::vector<Scored> scored(plans.size());
  const size_t workers = std::min(plans.size(), extra_.size() + 1);
  if (!parallel_ || workers < 2) {
    for (size_t i = 0; i < plans.size(); ++i) {
      scored[i].reward = consider(plans[i], improved);
      if (m.feasible) scored[i].step = m.stepTime;
    }
    return scored;
  }
  measured_.resize(plans.size());
  std::vector<std::exception_ptr> failed(workers);
  auto share = [&](size_t worker) {
    try {
      Simulator& s = worker == 0 ? sim : *extra_[worker - 1];
      for (size_t i = worker; i < plans.size(); i += workers) s.run(plans[i], measured_[i], /*recordTimeline=*/false);
    } catch (...) {
      failed[worker] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(share, w);
  share(0);
  for (auto& t : threads) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  for (size_t i = 0; i < plans.size(); ++i) {
    scored[i].reward = record(plans[i], measured_[i], improved);
    if (measured_[i].feasible) scored[i].step = measured_[i].stepTime;
  }
  m = measured_.back();
  return scored;
}

}  // namespace gp::rl
