// ParallelControls: the hand controls of a parallel plan — global batch, the dp / tp / pp
// degrees (only combinations whose product fits the devices are offered), the micro-batch count
// (only counts that divide the per-replica batch), the schedule, the ZeRO stage and its sharding
// group (HSDP), the training framework, fused or unfused attention, sequence parallelism, and per stage its first layer and recomputation (none,
// selective, full). Every change is reported as editRequested(the edited
// state, a one-line description); the owner checks and applies it, then calls setState — also
// after a refusal, which setNotice shows, so the controls always show the applied plan.
#pragma once
#include <QString>
#include <QWidget>

#include "parallel/parallel_edits.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace gp {

class ParallelControls : public QWidget {
  Q_OBJECT
 public:
  explicit ParallelControls(QWidget* parent = nullptr);

  // The devices of the cluster and the layers of the model: what the choices range over.
  void setContext(int devices, int layers);
  void setState(const pedit::PlanState& state);  // shows it; emits nothing
  void setEditable(bool editable, const QString& whyNot = {});
  // A one-line reason the last edit was not applied, shown in red; empty hides it.
  void setNotice(const QString& text);
  QString notice() const;

  QSpinBox* batchSpin() const { return batch_; }
  QComboBox* degreeCombo(int which) const;  // 0 dp, 1 tp, 2 pp
  QComboBox* virtualStagesCombo() const { return virtual_; }
  QComboBox* contextParallelCombo() const { return cp_; }
  QComboBox* microbatchCombo() const { return micro_; }
  QComboBox* scheduleCombo() const { return schedule_; }
  QComboBox* zeroCombo() const { return zero_; }
  QComboBox* shardGroupCombo() const { return shard_; }  // ZeRO's sharding group; enabled with ZeRO 1-3
  QComboBox* frameworkCombo() const { return framework_; }
  QComboBox* attentionCombo() const { return attention_; }
  QCheckBox* sequenceParallelBox() const { return sequenceParallel_; }
  QCheckBox* fp8Box() const { return fp8_; }
  QCheckBox* tpOverlapBox() const { return tpOverlap_; }  // enabled with sequence parallelism
  QTableWidget* stageTable() const { return stages_; }
  // The spin box of boundary b (stage b's first layer, b = 1..pp-1) and stage s's recomputation.
  QSpinBox* boundarySpin(int boundary) const;
  QComboBox* recomputeBox(int stage) const;

 Q_SIGNALS:
  void editRequested(const gp::pedit::PlanState& after, const QString& text);

 private:
  void fillDegrees();
  void fillMicrobatches();
  void fillVirtualStages();
  void fillStages();
  void fillShardGroups();
  void requestMesh(int which, int value);

  int devices_ = 1, layers_ = 1;
  pedit::PlanState state_;
  QSpinBox* batch_;
  QComboBox *dp_, *tp_, *pp_, *cp_, *virtual_, *micro_, *schedule_, *zero_, *shard_, *framework_, *attention_;
  QCheckBox *sequenceParallel_, *tpOverlap_, *fp8_;
  bool editable_ = true;
  QTableWidget* stages_;
  QLabel* notice_;
};

}  // namespace gp
