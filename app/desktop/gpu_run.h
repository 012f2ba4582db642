// GpuRun: Measure on GPUs as the document holds it — the running job (null when none), what
// runs the plan on the GPUs (::gp::measureOnGpus unless a test handed in a stand-in), and the
// last real measurement together with the plan it measured.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "background_job.h"
#include "profile/gpu_measure.h"
#include "sim/plan.h"

namespace gp {

class CostModel;

class GpuRun {
 public:
  using Measurer = std::function<GpuMeasureResult(const CostModel&, const Plan&, const GpuMeasureOptions&,
                                                  const ProfileProgressFn&, const std::atomic<bool>*)>;

  bool running() const { return job_ != nullptr; }
  const std::shared_ptr<JobControl>& job() const { return job_; }
  std::shared_ptr<JobControl> start() {
    job_ = std::make_shared<JobControl>();
    return job_;
  }
  // `job` returned: it is no longer the running one.
  void finished(const std::shared_ptr<JobControl>& job) {
    if (job_ == job) job_.reset();
  }
  void cancel() {
    if (job_) job_->cancel = true;
  }

  const Measurer& measurer() const { return measurer_; }
  void setMeasurer(Measurer measurer) { measurer_ = std::move(measurer); }

  bool hasResult() const { return result_.has_value(); }
  const GpuMeasureResult& result() const { return *result_; }
  const Plan& plan() const { return plan_; }
  void setResult(GpuMeasureResult r, const Plan& plan) {
    result_ = std::move(r);
    plan_ = plan;
  }
  bool clearResult() {  // false when there was none
    if (!result_) return false;
    result_.reset();
    plan_ = Plan{};
    return true;
  }

 private:
  std::shared_ptr<JobControl> job_;
  Measurer measurer_;
  std::optional<GpuMeasureResult> result_;
  Plan plan_;
};

}  // namespace gp
