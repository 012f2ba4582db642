// Document: what may run together (JobKind, job_kind.h). Every rule is here, once, with the
// line a person reads: the document refuses a job with it (warning()) and MainWindow disables
// the job's actions with it as their tooltip.
//   - The optimizer shows its best plan so far as the current plan: nothing else changes the
//     plan or the cost model while it runs (edits, undo, baselines, placement files, history,
//     calibration, a profiled cluster), and Measure on GPUs waits (its load would distort the
//     measurement).
//   - While the plan runs on the GPUs, neither the optimizer nor baselines start (their load
//     would distort it) and the GPUs are not profiled (one CUPTI collector per process); while
//     baselines run, the plan does not start on the GPUs (the same load, the other way round).
//   - The optimizer does not start while baselines run.
//   - Opening a model, switching the cluster and measuring are always allowed: a new workspace
//     stops every job (resetWorkspace), and a measurement of a superseded plan is dropped.
#include "document.h"

namespace gp {

QString Document::whyNot(JobKind kind) const {
  const bool optimizing = optimizer_.running();
  const bool onGpus = gpu_.running();
  switch (kind) {
    case JobKind::Open:
    case JobKind::SwitchCluster:
    case JobKind::Measure:
      return {};
    case JobKind::Baselines:
      if (optimizing) return tr("The optimizer is running: stop it to change the plan.");
      if (onGpus) return tr("The plan is running on the GPUs: wait until it finishes, or cancel it.");
      return {};
    case JobKind::Optimize:
      if (optimizing) return tr("The optimizer is already running.");
      if (baselineJob_) return tr("Baselines are running: the optimizer starts once they finish or are cancelled.");
      if (onGpus) return tr("The plan is running on the GPUs: wait until it finishes, or cancel it.");
      return {};
    case JobKind::MeasureOnGpus:
      if (onGpus) return tr("The plan is already running on the GPUs.");
      if (optimizing) return tr("The optimizer is running: stop it to measure on the GPUs.");
      if (baselineJob_) return tr("Baselines are running: measure on the GPUs once they finish or are cancelled.");
      return {};
    case JobKind::ProfileGpus:
      if (onGpus) return tr("The plan is running on the GPUs: profile them once it has finished.");
      return {};
    case JobKind::EditPlan:
    case JobKind::LoadCalibration:
    case JobKind::UseProfiledCluster:
      if (optimizing) return tr("The optimizer is running: stop it to change the plan.");
      return {};
  }
  return {};
}

bool Document::refuses(JobKind kind) {
  const QString why = whyNot(kind);
  if (why.isEmpty()) return false;
  Q_EMIT warning(why);
  return true;
}

}  // namespace gp
