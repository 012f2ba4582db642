// OpInspector: the selected op(s) under the current plan, and their hand edits. For one op:
// its name, type, cost (FLOPs, "estimated" when the importer could not learn a shape it needs),
// device, priority ("FIFO" when the plan has none) and fusion group with its op
// count. For several: the same rows aggregated ("MatMul ×2, Relu ×10", "3–40", "2 groups…")
// and a one-line summary ("12 ops; priorities 3–40; 2 fusion groups"). Below, the edits:
// a priority spin box with "Set", "Fuse" and "Unfuse" — they only ask (priorityRequested,
// fuseRequested, unfuseRequested); the document decides and may refuse. The last line
// describes the whole plan (its priorities and fusion groups).
#pragma once
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

class QLabel;
class QPushButton;
class QSpinBox;

namespace gp {

class ElidedLabel;

class OpInspector : public QWidget {
  Q_OBJECT
 public:
  // the spin box's range is ± this: every int32 priority (the optimizer's reach ~ 4 × ops)
  static constexpr int kPriorityLimit = 2147483647;

  enum class Row { Type, Cost, Device, Priority, Fusion };

  explicit OpInspector(QWidget* parent = nullptr);

  void setGraph(std::shared_ptr<const Graph> g);  // clears the selection
  void setDevices(const QStringList& names);
  void setPlan(const Plan& plan);
  void setSelection(const std::vector<OpId>& ops);
  // false while the plan cannot be edited (no model, the optimizer running): buttons disabled.
  void setEditable(bool editable);

  // What it shows (tests, the main window).
  QString titleText() const;
  static QString flopsText(double flops);  // "1.23 GFLOP"  // the op's name, "12 ops selected" or a hint
  QString valueText(Row row) const;
  QString summaryText() const;  // one line: "12 ops; priorities 3–40; 2 fusion groups"
  QString planText() const;     // "Plan: FIFO order · 3 fusion groups (9 ops)"
  QSpinBox* prioritySpin() const { return prioritySpin_; }
  QPushButton* setPriorityButton() const { return setPriority_; }
  QPushButton* fuseButton() const { return fuse_; }
  QPushButton* unfuseButton() const { return unfuse_; }

  QSize sizeHint() const override;

 Q_SIGNALS:
  void priorityRequested(int priority);  // for the selected ops
  void fuseRequested();
  void unfuseRequested();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void refresh();
  void refreshPlanText();
  void updateButtons();
  QString deviceText(int32_t d) const;

  std::shared_ptr<const Graph> graph_;
  QStringList devices_;
  Plan plan_;
  std::vector<int32_t> groupSize_;  // per fusion group id: its ops
  std::vector<OpId> selection_;
  bool editable_ = false;

  ElidedLabel* title_;
  QLabel *type_, *cost_, *device_, *priority_, *fusion_;
  QLabel* summary_;
  QSpinBox* prioritySpin_;
  QPushButton *setPriority_, *fuse_, *unfuse_;
  QLabel* planLabel_;
};

}  // namespace gp
