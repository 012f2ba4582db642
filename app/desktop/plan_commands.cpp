#include "plan_commands.h"

#include "document.h"

namespace gp {

AssignDevicesCommand::AssignDevicesCommand(Document* doc, std::vector<OpId> ops, int device,
                                           const QString& deviceName)
    : doc_(doc), ops_(std::move(ops)), device_(device) {
  before_.reserve(ops_.size());
  for (OpId op : ops_) before_.push_back(doc_->plan().device[static_cast<size_t>(op)]);
  setText(ops_.size() == 1
              ? QObject::tr("Move %1 to %2").arg(QString::fromStdString(doc_->graph()->opName(ops_[0])), deviceName)
              : QObject::tr("Move %n ops to %1", nullptr, static_cast<int>(ops_.size())).arg(deviceName));
}

void AssignDevicesCommand::redo() { doc_->setPlanDevices(ops_, std::vector<int32_t>(ops_.size(), device_)); }
void AssignDevicesCommand::undo() { doc_->setPlanDevices(ops_, before_); }

ReplacePlanCommand::ReplacePlanCommand(Document* doc, Plan before, Plan after, const QString& text)
    : doc_(doc), before_(std::move(before)), after_(std::move(after)) {
  setText(text);
}

void ReplacePlanCommand::redo() { doc_->replacePlan(after_); }
void ReplacePlanCommand::undo() { doc_->replacePlan(before_); }

}  // namespace gp
