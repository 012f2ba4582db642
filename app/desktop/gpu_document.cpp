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

void Document::setGpuMeasurer(GpuMeasurer measurer) {
  gpu_.setMeasurer(std::move(measurer));
}

void Document::measureOnGpus(const GpuMeasureOptions& options) {
  if (!ws_ || refuses(JobKind::MeasureOnGpus)) return;
  const std::shared_ptr<JobControl> job = gpu_.start();
  const int task = beginTask(tr("Measuring on GPUs…"));
  const int64_t workspace = workspaces_.current();
  startJob(
      this, &pool_,
      [ws = ws_, plan = plan_, options, job, measurer = gpu_.measurer()] {
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
      [this, workspace, job, task](JobResult<std::pair<Plan, GpuMeasureResult>> r) {
        gpu_.finished(job);
        if (workspaces_.isCurrent(workspace)) {
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
  gpu_.setResult(std::move(r), plan_);
  Q_EMIT gpuMeasurementChanged();
}

void Document::clearGpuMeasurement() {
  if (!gpu_.clearResult()) return;
  Q_EMIT gpuMeasurementChanged();
}

}  // namespace gp
