// Document: hand edits of the schedule and of fusion (setPriority, fuseOps, unfuseOps). The
// plan arithmetic is planedit (plan_edits.h); here the requests are checked, refusals told in
// one line (warning) and each edit becomes one PlanEditCommand, which re-measures the plan.
#include <algorithm>
#include <set>

#include "document.h"
#include "fusion/fuser.h"
#include "plan_commands.h"
#include "plan_edits.h"

namespace gp {

namespace {
// The ops that exist, sorted, each once (the selection already is; other callers may not be).
std::vector<OpId> validOps(std::vector<OpId> ops, int32_t n) {
  std::erase_if(ops, [n](OpId op) { return op < 0 || op >= n; });
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  return ops;
}
}  // namespace

QString Document::refuse(const QString& message) {
  Q_EMIT warning(message);
  return message;
}

void Document::pushPlanEdit(const Plan& after, const QString& text) {
  undo_.push(new PlanEditCommand(this, plan_, after, text));
}

void Document::applyEdit(const Plan& plan, const QString& text) {
  if (!ws_ || plan.device.size() != plan_.device.size() || refuses(JobKind::EditPlan)) return;
  pushPlanEdit(plan, text);
}

void Document::remeasure() {
  if (ws_) startMeasure(PendingHistory{});
}

QString Document::setPriority(const std::vector<OpId>& selected, int priority) {
  if (!ws_) return {};
  const std::vector<OpId> ops = validOps(selected, ws_->graph->numOps());
  if (const QString why = whyNot(JobKind::EditPlan); !why.isEmpty()) return refuse(why);
  if (ops.empty()) return refuse(tr("Select ops to set their priority."));
  const Graph& g = *ws_->graph;
  const Plan after = planedit::withPriority(plan_, g.numOps(), ops, priority);
  if (after == plan_) return {};  // they have it already
  pushPlanEdit(after, ops.size() == 1
                          ? tr("Set priority of %1 to %2").arg(QString::fromStdString(g.opName(ops[0]))).arg(priority)
                          : tr("Set priority of %n ops to %1", nullptr, static_cast<int>(ops.size())).arg(priority));
  return {};
}

QString Document::fuseOps(const std::vector<OpId>& selected) {
  if (!ws_) return {};
  const std::vector<OpId> ops = validOps(selected, ws_->graph->numOps());
  if (const QString why = whyNot(JobKind::EditPlan); !why.isEmpty()) return refuse(why);
  const int n = static_cast<int>(ops.size());
  if (n < 2) return refuse(tr("Cannot fuse: select at least two ops."));
  const Graph& g = *ws_->graph;
  std::set<int32_t> devices;
  for (OpId op : ops) devices.insert(plan_.device[static_cast<size_t>(op)]);
  if (devices.size() > 1) {
    QStringList names;
    for (int32_t d : devices) names << QString::fromStdString(ws_->cluster->device(d).name);
    return refuse(
        tr("Cannot fuse %n ops: they are on different devices (%1); ops on different devices never fuse.", nullptr, n)
            .arg(names.join(QStringLiteral(", "))));
  }
  if (!plan_.fusionGroup.empty()) {  // already one group of exactly these ops?
    const int32_t grp = plan_.fusionGroup[static_cast<size_t>(ops[0])];
    if (grp >= 0 && planedit::groupSize(plan_, grp) == n &&
        std::all_of(ops.begin(), ops.end(), [&](OpId op) { return plan_.fusionGroup[static_cast<size_t>(op)] == grp; }))
      return refuse(tr("These %n ops already form fusion group %1.", nullptr, n).arg(grp));
  }
  const planedit::FuseResult r = planedit::fused(g, plan_, ops);
  if (!r.problem.empty())
    return refuse(tr("Cannot fuse %n ops: %1.", nullptr, n).arg(QString::fromStdString(r.problem)));
  pushPlanEdit(r.plan, tr("Fuse %n ops", nullptr, n));
  warnDissolved(r.dissolved);
  return {};
}

QString Document::unfuseOps(const std::vector<OpId>& selected) {
  if (!ws_) return {};
  const std::vector<OpId> ops = validOps(selected, ws_->graph->numOps());
  if (const QString why = whyNot(JobKind::EditPlan); !why.isEmpty()) return refuse(why);
  int fused = 0;
  if (!plan_.fusionGroup.empty())
    for (OpId op : ops) fused += plan_.fusionGroup[static_cast<size_t>(op)] >= 0 ? 1 : 0;
  if (fused == 0) return refuse(tr("Cannot unfuse: none of the selected ops is fused."));
  const planedit::LeaveResult r = planedit::withoutFusion(*ws_->graph, plan_, ops);
  pushPlanEdit(r.plan, tr("Unfuse %n ops", nullptr, fused));
  warnDissolved(r.dissolved);
  return {};
}

void Document::warnDissolved(int dissolved) {
  if (dissolved > 0)
    Q_EMIT warning(tr("%n fusion group(s) dissolved as well: what was left of them could not run as one kernel.",
                      nullptr, dissolved));
}

}  // namespace gp
