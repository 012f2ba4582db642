// MeasuredPlan: the document's latest simulation — the plan it measured and the measurement —
// and which measurement request is the newest (LatestJob): a request that a newer one, or a
// result that arrived another way (baselines, the optimizer), superseded is dropped.
#pragma once
#include <cstdint>

#include "latest_job.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

class MeasuredPlan {
 public:
  bool has() const { return has_; }
  const Measurement& measurement() const { return measurement_; }
  const Plan& plan() const { return plan_; }
  bool isFor(const Plan& plan) const { return has_ && plan_ == plan; }

  int64_t request() { return requests_.start(); }  // a new measurement starts
  bool isNewest(int64_t request) const { return requests_.isCurrent(request); }
  // The result of the newest request.
  void set(Plan plan, Measurement m) {
    plan_ = std::move(plan);
    measurement_ = std::move(m);
    has_ = true;
  }
  // A result measured elsewhere: every request still on its way is stale now.
  void supersede(Plan plan, Measurement m) {
    requests_.invalidate();
    set(std::move(plan), std::move(m));
  }
  void clear() {
    has_ = false;
    measurement_ = Measurement{};
  }

 private:
  Plan plan_;
  Measurement measurement_;
  bool has_ = false;
  LatestJob requests_;
};

}  // namespace gp
