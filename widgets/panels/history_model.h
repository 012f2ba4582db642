// HistoryModel: the measured plans of a session (each baseline run, optimizer best, measured
// manual edit, opened placement file) as a table: #, plan, step time, ratio to the lower
// bound, difference to the previous feasible entry, feasibility, time. Entries keep their
// whole Plan so any of them can be compared with another or restored.
#pragma once
#include <QAbstractTableModel>
#include <QDateTime>
#include <QString>
#include <optional>
#include <vector>

#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

// What produced a history entry.
enum class HistoryKind { Initial, Baseline, Manual, Optimizer, File };

struct HistoryEntry {
  QString label;  // "m_etf", "Manual edit (12 ops → gpu2)", "Optimizer best", "Opened placement.json"
  HistoryKind kind = HistoryKind::Manual;
  Plan plan;
  double stepTime = 0, lowerBound = 0;  // seconds
  bool feasible = true;
  QString problem;
  double seconds = 0;  // how long the producer took (baselines), 0 if n/a
  QDateTime when;
};

class HistoryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Number, Label, Step, Ratio, Delta, Feasible, Time, ColumnCount };
  // Role giving the raw figure behind a cell (seconds, ratio, bool, QDateTime), for sorting/tests.
  static constexpr int RawRole = Qt::UserRole + 1;

  explicit HistoryModel(QObject* parent = nullptr);

  int add(HistoryEntry e);  // returns the new row
  const HistoryEntry& entry(int row) const { return entries_[static_cast<size_t>(row)]; }
  int count() const { return static_cast<int>(entries_.size()); }
  void clear();

  // The latest feasible entry before `row`, or -1.
  int previousFeasible(int row) const { return prevFeasible_[static_cast<size_t>(row)]; }
  // Step time of `row` minus that of previousFeasible(row), in seconds; empty if there is none.
  std::optional<double> deltaSeconds(int row) const;

  // Ops whose device differs between two plans, ascending. When the plans have different
  // lengths, ops present in only one of them count as moved.
  static std::vector<OpId> movedOps(const Plan& a, const Plan& b);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant display(const HistoryEntry& e, int row, int column) const;
  QVariant toolTip(const HistoryEntry& e, int row, int column) const;

  std::vector<HistoryEntry> entries_;
  std::vector<int> prevFeasible_;  // per entry, see previousFeasible()
  int decimals_ = 1;               // of the Step and Δ columns, from the largest step time
};

}  // namespace gp
