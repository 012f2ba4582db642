// ParallelHistoryModel: the parallel plans of a session — Megatron's rule, data parallelism, the
// exact search, the DQN, hand edits — as a table: #, what produced it, the plan, samples/s,
// step time, MFU. Entries keep their whole state (batch + plan) so any of them can be restored.
#pragma once
#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "parallel/parallel_edits.h"
#include "parallel/pipeline_sim.h"

namespace gp {

struct ParallelHistoryEntry {
  QString label;  // "Megatron", "Exact", "DQN", "Micro-batches 8", …
  pedit::PlanState state;
  double samplesPerSecond = 0, stepTime = 0, mfu = 0;
  bool feasible = true;
  QString problem;
};

class ParallelHistoryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Number, Label, Shape, Samples, Step, Mfu, ColumnCount };
  explicit ParallelHistoryModel(QObject* parent = nullptr);

  // Adds the state with its measurement and returns its row; an entry with the same label and
  // state is not added twice (its row is returned).
  int add(const QString& label, const pedit::PlanState& state, const ParallelMeasurement& m);
  // The first entry holding this state (with this label, when one is given); -1 when none.
  int find(const pedit::PlanState& state, const QString& label = {}) const;
  const ParallelHistoryEntry& entry(int row) const { return entries_[static_cast<size_t>(row)]; }
  int count() const { return static_cast<int>(entries_.size()); }
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<ParallelHistoryEntry> entries_;
};

}  // namespace gp
