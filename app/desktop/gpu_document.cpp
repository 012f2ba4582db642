// Document: Measure on GPUs. The current plan runs on the local GPUs through the CUDA plugin
// (profile/gpu_measure.h) on the document's pool; the plugin's progress lines land in a
// JobControl that the progress timer reads (no call from the worker into a QObject). The result
// is kept with the plan it measured and cleared as soon as that plan, the cluster or the cost
// model changes, since it then no longer matches what the views show. Cancel wins: a run that
// still returned normally after it was pressed is dropped (as graphplace-cli measure does).
#include <stdexcept>

#include "document.h"
#include "base/error.h"

namespace gp {

bool Document::refuseWhileOnGpus() {
  if (!gpuJob_) return false;
  Q_EMIT warning(tr("The plan is running on the GPUs: wait until it finishes, or cancel it."));
  return true;
}

void Document::setGpuMeasurer(GpuMeasurer measurer) {
  gpuMeasurer_ = std::move(measurer);
}

void Document::measureOnGpus(const GpuMeasureOptions& options) {
  if (!ws_) return;
  if (gpuJob_) {
    Q_EMIT warning(tr("The plan is already running on the GPUs."));
    return;
  }
  if (optimizeRun_) {  // its load would distort the measurement
    Q_EMIT warning(tr("The optimizer is running: stop it to measure on the GPUs."));
    return;
  }
  auto job = std::make_shared<JobControl>();
  gpuJob_ = job;
  const int task = beginTask(tr("Measuring on GPUs…"));
  const uint64_t gen = generation_;
  startJob(
      this, &pool_,
      [ws = ws_, plan = plan_, options, job, measurer = gpuMeasurer_] {
        const ProfileProgressFn say = [job](const std::string& line) { job->setCurrent(QString::fromStdString(line)); };
        try {
          GpuMeasureResult r = measurer ? measurer(*ws->cost, plan, options, say, &job->cancel)
                                        : ::gp::measureOnGpus(*ws->cost, plan, options, say, &job->cancel);
          return std::make_pair(plan, std::move(r));
        } catch (const Error& e) {
          // "Measure on GPUs failed: …" says what failed: the problem alone, not "measure: …".
          if (e.source() == "measure") throw std::runtime_error(e.problem());
          throw;
        }
      },
      [this, gen, job, task](JobResult<std::pair<Plan, GpuMeasureResult>> r) {
        if (gpuJob_ == job) gpuJob_.reset();
        if (gen == generation_) {
          if (job->cancel) {  // also when the run returned normally after Cancel: dropped
            Q_EMIT warning(tr("Measure on GPUs cancelled"));
          } else if (!r.value) {
            Q_EMIT failed(tr("Measure on GPUs failed: %1").arg(r.error));
          } else if (r.value->first != plan_) {
            Q_EMIT warning(tr("The plan changed while it ran on the GPUs: the measurement was dropped."));
          } else {
            setGpuMeasurement(std::move(r.value->second));
          }
        }
        endTask(task);
      });
}

void Document::setGpuMeasurement(GpuMeasureResult r) {
  if (!ws_) return;
  gpuResult_ = std::move(r);
  gpuPlan_ = plan_;
  Q_EMIT gpuMeasurementChanged();
}

void Document::clearGpuMeasurement() {
  if (!gpuResult_) return;
  gpuResult_.reset();
  gpuPlan_ = Plan{};
  Q_EMIT gpuMeasurementChanged();
}

}  // namespace gp
