// Undoable edits of the document's plan (QUndoStack commands). Each command stores what it
// needs to go both ways; the Document applies them through setPlanDevices / replacePlan.
#pragma once
#include <QUndoCommand>
#include <cstdint>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

class Document;

// Moves ops to one device ("Move 12 ops to gpu2").
class AssignDevicesCommand : public QUndoCommand {
 public:
  AssignDevicesCommand(Document* doc, std::vector<OpId> ops, int device, const QString& deviceName);
  // Its text: "Move conv1 to gpu2" / "Move 12 ops to gpu2".
  static QString describe(const Graph& g, const std::vector<OpId>& ops, const QString& deviceName);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  std::vector<OpId> ops_;
  std::vector<int32_t> before_;
  int device_;
};

// Replaces the whole plan (a baseline's, a history entry's, a loaded placement file's).
class ReplacePlanCommand : public QUndoCommand {
 public:
  ReplacePlanCommand(Document* doc, Plan before, Plan after, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  Plan before_, after_;
};

// A hand edit of the schedule or of fusion ("Set priority of 3 ops to 10", "Fuse 5 ops"):
// replaces the whole plan and re-measures it both ways, so the timeline shows the kernels of
// the plan in force after redo and after undo.
class PlanEditCommand : public QUndoCommand {
 public:
  PlanEditCommand(Document* doc, Plan before, Plan after, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  Plan before_, after_;
};

}  // namespace gp
