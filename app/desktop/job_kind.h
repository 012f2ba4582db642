// JobKind: what a person can ask the document to do, as far as what may run together goes.
// Document::whyNot(kind) (job_rules.cpp) holds every rule: the one-line reason the kind may not
// start now, empty when it may. The document refuses with that reason (warning()), and
// MainWindow enables each action only when its kind's reason is empty, showing the reason as
// the disabled action's tooltip.
#pragma once

namespace gp {

enum class JobKind {
  Open,                // open a model: always allowed (the new workspace stops every job)
  SwitchCluster,       // Load Cluster, a cluster preset: always allowed (stops every job, as an open)
  Measure,             // simulate the current plan (F5): always allowed
  Baselines,           // run placement baselines
  Optimize,            // start the RL optimizer
  MeasureOnGpus,       // run the current plan on the local GPUs
  ProfileGpus,         // Cluster ▸ Profile Local GPUs… (the profile dialog's Start)
  EditPlan,            // assign devices, priority, fuse, unfuse, apply a plan or placement file,
                       // restore a history entry, undo, redo
  LoadCalibration,     // load or clear the calibration table
  UseProfiledCluster,  // switch to a profiled cluster with its calibration table
};

}  // namespace gp
