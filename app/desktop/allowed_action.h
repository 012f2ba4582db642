// How MainWindow's actions follow the document's rules (Document::whyNot): an action is enabled
// only when its own conditions hold (a model, a selection…) and the document allows its kind.
// Allowed, it shows the tooltip it was given with setAllowedTip (none: its text); refused, the
// reason in one line.
//
//   setAllowedTip(fuseAct_, tr("Run the selected ops as one kernel"));
//   allowIf(fuseAct_, sel.size() >= 2, doc_->whyNot(JobKind::EditPlan));
#pragma once
#include <QAction>
#include <QString>

namespace gp {

inline constexpr const char* kAllowedToolTip = "gpAllowedToolTip";  // the action's property

inline void setAllowedTip(QAction* a, const QString& tip) {
  a->setProperty(kAllowedToolTip, tip);
  a->setToolTip(tip);
}

inline void allowIf(QAction* a, bool enabled, const QString& why) {
  a->setEnabled(enabled && why.isEmpty());
  a->setToolTip(why.isEmpty() ? a->property(kAllowedToolTip).toString() : why);
}

}  // namespace gp
