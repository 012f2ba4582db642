#include "gpu_availability.h"

#include <QThreadPool>
#include <algorithm>
#include <exception>
#include <set>
#include <vector>

#include "background_job.h"
#include "base/error.h"
#include "profile/gpu_measure.h"
#include "profile/profile_plugin.h"

namespace gp {

namespace {
struct Probe {
  QString error;  // why profiling cannot run; empty when it can
  QStringList names;
};
}  // namespace

GpuAvailability::GpuAvailability(QObject* parent) : QObject(parent) {}

void GpuAvailability::probe() {
  if (started_) return;
  started_ = true;
  startJob(
      this, QThreadPool::globalInstance(),
      [] {
        Probe p;
        if (!profilerBuilt()) {
          p.error = QString::fromLatin1(kBuiltWithoutCuda);
          return p;
        }
        try {
          for (const GpuInfo& g : listGpus()) p.names << QString::fromStdString(g.name);
          if (p.names.isEmpty()) p.error = tr("no NVIDIA GPU found");
        } catch (const Error& e) {
          p.error = QString::fromStdString(e.problem());  // the reason, without "profile: "
        } catch (const std::exception& e) {
          p.error = QString::fromStdString(e.what());
        }
        (void)gpuMeasureUnavailable(1);  // its device discovery (cached) runs here, not on the UI thread
        return p;
      },
      [this](JobResult<Probe> r) {
        if (answer_) return;  // setAnswers came first
        profileReason_ = r.value ? r.value->error : r.error;
        if (r.value) gpuNames_ = r.value->names;
        probed_ = true;
        Q_EMIT probed();
      });
}

int GpuAvailability::gpusNeeded(const Plan& plan) {
  const std::set<int32_t> used(plan.device.begin(), plan.device.end());
  const auto n = static_cast<int>(std::count_if(used.begin(), used.end(), [](int32_t d) { return d >= 0; }));
  return std::max(1, n);
}

void GpuAvailability::setAnswers(const QString& profileReason, std::function<QString(int)> measureReason) {
  started_ = probed_ = true;
  profileReason_ = profileReason;
  answer_ = std::move(measureReason);
  measureReason_.clear();
  Q_EMIT probed();
}

QString GpuAvailability::profileUnavailable() const {
  return probed_ ? profileReason_ : tr("Looking for GPUs…");
}

QString GpuAvailability::measureUnavailable(int devicesNeeded) const {
  if (!probed_) return tr("Looking for GPUs…");
  devicesNeeded = std::max(1, devicesNeeded);
  if (auto it = measureReason_.constFind(devicesNeeded); it != measureReason_.constEnd()) return *it;
  if (answer_) return answer_(devicesNeeded);
  QString reason;
  try {
    reason = QString::fromStdString(gpuMeasureUnavailable(devicesNeeded));
  } catch (const std::exception& e) {
    reason = QString::fromStdString(e.what());
  }
  measureReason_.insert(devicesNeeded, reason);
  return reason;
}

}  // namespace gp
