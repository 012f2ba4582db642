// The one undo step of the Parallel Plan window: the shown state (global batch + plan) before
// and after an edit, a search's result, a restore or a reset.
#pragma once
#include <QUndoCommand>

#include "parallel_session.h"

namespace gp {

class ShowStateCommand : public QUndoCommand {
 public:
  ShowStateCommand(ParallelSession* s, pedit::PlanState before, pedit::PlanState after, const QString& text)
      : QUndoCommand(text), s_(s), before_(std::move(before)), after_(std::move(after)) {}
  void undo() override { s_->showState(before_); }
  void redo() override { s_->showState(after_); }

 private:
  ParallelSession* s_;
  pedit::PlanState before_, after_;
};

}  // namespace gp
