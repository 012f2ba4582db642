#include "plan_commands.h"

#include "document.h"

namespace gp {

AssignDevicesCommand::AssignDevicesCommand(Document* doc, std::vector<OpId> ops, int device,
                                           const QString& deviceName)
    : doc_(doc), ops_(std::move(ops)), device_(device) {
  before_.reserve(ops_.size());
  for (OpId op : ops_) before_.push_back(doc_->plan().device[static_cast<size_t>(op)]);
  setText(describe(*doc_->graph(), ops_, deviceName));
}

QString AssignDevicesCommand::describe(const Graph& g, const std::vector<OpId>& ops, const QString& deviceName) {
  return ops.size() == 1 ? QObject::tr("Move %1 to %2").arg(QString::fromStdString(g.opName(ops[0])), deviceName)
                         : QObject::tr("Move %n ops to %1", nullptr, static_cast<int>(ops.size())).arg(deviceName);
}

void AssignDevicesCommand::redo() { doc_->setPlanDevices(ops_, std::vector<int32_t>(ops_.size(), device_)); }
void AssignDevicesCommand::undo() { doc_->setPlanDevices(ops_, before_); }

ReplacePlanCommand::ReplacePlanCommand(Document* doc, Plan before, Plan after, const QString& text)
    : doc_(doc), before_(std::move(before)), after_(std::move(after)) {
  setText(text);
}

void ReplacePlanCommand::redo() { doc_->replacePlan(after_); }
void ReplacePlanCommand::undo() { doc_->replacePlan(before_); }

PlanEditCommand::PlanEditCommand(Document* doc, Plan before, Plan after, const QString& text)
    : doc_(doc), before_(std::move(before)), after_(std::move(after)) {
  setText(text);
}

void PlanEditCommand::redo() {
  doc_->replacePlan(after_);
  doc_->remeasure();
}
void PlanEditCommand::undo() {
  doc_->replacePlan(before_);
  doc_->remeasure();
}

}  // namespace gp
