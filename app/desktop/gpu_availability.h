// GpuAvailability: whether this machine can profile its GPUs (Cluster ▸ Profile Local GPUs…)
// and run a plan on them (Run ▸ Measure on GPUs); when it cannot, the reason in one line, which
// the window shows as the disabled actions' tooltip (built without CUDA, plugin not loadable,
// no NVIDIA driver, no GPU, fewer GPUs than the plan uses).
//
// Device discovery loads the CUDA plugin and initialises CUDA: immediate without a driver, about
// half a second with GPUs. So it never runs at construction: probe() starts it once on a worker
// thread (the window calls it right after it is first shown, and before a menu holding the
// actions opens); until it has finished, both reasons are "Looking for GPUs…" and probed() is
// emitted when it has. Afterwards the answers are cached (gpuMeasureUnavailable per device count).
//
// A plan needs as many GPUs as it uses distinct devices (gpusNeeded): measureOnGpus runs the
// used devices on GPUs 0, 1, … in device order, so a plan on gpu0 and gpu5 needs two.
#pragma once
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

#include "sim/plan.h"

namespace gp {

class GpuAvailability : public QObject {
  Q_OBJECT
 public:
  explicit GpuAvailability(QObject* parent = nullptr);

  void probe();  // starts discovery (once; later calls do nothing)
  bool isProbed() const { return probed_; }
  // "" when profiling can run here, else why not (one line).
  QString profileUnavailable() const;
  // "" when a plan on devices 0..devicesNeeded-1 can run here, else why not (one line).
  QString measureUnavailable(int devicesNeeded) const;
  QStringList gpuNames() const { return gpuNames_; }  // the GPUs found, by CUDA ordinal
  // The GPUs Measure on GPUs needs for `plan`: its distinct devices (at least 1).
  static int gpusNeeded(const Plan& plan);

  // Tests: answer as if probed (and never probe): profiling `profileReason`, Measure on GPUs
  // measureReason(devicesNeeded). Emits probed().
  void setAnswers(const QString& profileReason, std::function<QString(int)> measureReason);

 Q_SIGNALS:
  void probed();

 private:
  bool started_ = false, probed_ = false;
  QString profileReason_;
  QStringList gpuNames_;
  mutable QHash<int, QString> measureReason_;
  std::function<QString(int)> answer_;  // setAnswers
};

}  // namespace gp
