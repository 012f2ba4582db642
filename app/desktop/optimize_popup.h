// OptimizePopup: the Optimize button's options (its drop-down menu): what to optimize (the
// tasks: placement, scheduling, fusion — at least one stays ticked: the last ticked box is
// greyed out), the policy (the shipped pre-trained one, a new one, or a policy file), the
// iteration count, a time budget and the seed. options() gives what Document::optimize takes.
// Like the other settings here, the tasks are kept for as long as the window is open.
#pragma once
#include <QWidget>
#include <string>

#include "optimize/optimize.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace gp {

// Fusion when it is not one of the tasks (OptimizeOptions::fuse), from the current plan's
// fusion groups: the user's groups are kept (Plan) when the devices stay as they are
// (placement is not a task either: the groups remain valid); when placement is optimized the
// ops may move apart, so the compilers' default fusion is applied on each plan's devices
// (Default), but only if the user's plan fuses at all; a plan without groups stays unfused
// (None). With fusion a task the optimizer chooses the groups and `fuse` is None.
FuseMode fuseWhenNotATask(const OptimizeTasks& tasks, int planFusionGroups);

class OptimizePopup : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kDefaultIterations = 40;

  explicit OptimizePopup(QWidget* parent = nullptr);

  OptimizeOptions options() const;
  OptimizeTasks tasks() const;
  // Ticks the boxes; a set with no task is ignored (the boxes keep their state).
  void setTasks(const OptimizeTasks& tasks);
  // What the current plan holds (the main window follows the document's plan): its fusion
  // groups decide options().fuse; both show in the note under the boxes.
  void setPlanState(int fusionGroups, bool hasPriorities);
  // "default", "scratch" or a policy file's path (listed by its file name).
  void setPolicy(const QString& policy);
  void setIterations(int n);
  void setBudgetSeconds(int seconds);  // 0: none
  void setSeed(int seed);
  QString tasksNote() const;  // what happens to the decisions left out (shown under the boxes)

 Q_SIGNALS:
  void tasksChanged();

 private:
  void choosePolicyFile();
  void onTaskToggled();
  void updateNote();

  QCheckBox *placement_, *schedule_, *fusion_;
  QLabel* tasksNote_;
  QComboBox* policy_;
  QSpinBox *iterations_, *budget_, *seed_;
  int lastPolicyIndex_ = 0;
  int planFusionGroups_ = 0;
  bool planHasPriorities_ = false;
};

}  // namespace gp
