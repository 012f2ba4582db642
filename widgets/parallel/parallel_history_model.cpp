#include "parallel/parallel_history_model.h"

#include <QBrush>
#include <QColor>

#include "parallel/parallel_format.h"

namespace gp {

ParallelHistoryModel::ParallelHistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

int ParallelHistoryModel::find(const pedit::PlanState& state, const QString& label) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if ((label.isEmpty() || entries_[i].label == label) && pedit::sameState(entries_[i].state, state))
      return static_cast<int>(i);
  return -1;
}

int ParallelHistoryModel::add(const QString& label, const pedit::PlanState& state, const ParallelMeasurement& m) {
  if (const int row = find(state, label); row >= 0) return row;
  const int row = count();
  beginInsertRows({}, row, row);
  entries_.push_back(
      {label, state, m.samplesPerSecond, m.stepTime, m.mfu, m.feasible, QString::fromStdString(m.problem)});
  endInsertRows();
  return row;
}

void ParallelHistoryModel::clear() {
  beginResetModel();
  entries_.clear();
  endResetModel();
}

int ParallelHistoryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : count(); }

int ParallelHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ParallelHistoryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= count()) return {};
  const ParallelHistoryEntry& e = entry(index.row());
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Number: return index.row() + 1;
      case Label: return e.label;
      case Shape: return pformat::shapeText(e.state.plan, e.state.batch);
      case Samples: return e.feasible ? pformat::samplesText(e.samplesPerSecond) : tr("does not fit");
      case Step: return e.feasible ? pformat::stepMsText(e.stepTime) : QString();
      case Mfu: return e.feasible ? pformat::percentText(e.mfu) : QString();
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() >= Samples)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && !e.feasible) return QBrush(QColor(180, 30, 30));
  if (role == Qt::ToolTipRole) {
    const QString plan = tr("%1\nGlobal batch %2, layers per stage %3")
                             .arg(pformat::shapeText(e.state.plan, e.state.batch))
                             .arg(e.state.batch)
                             .arg(pformat::stagesText(e.state.plan));
    return e.feasible ? plan : plan + QLatin1Char('\n') + e.problem;
  }
  return {};
}

QVariant ParallelHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Number: return tr("#");
    case Label: return tr("Plan");
    case Shape: return tr("Shape");
    case Samples: return tr("Samples/s");
    case Step: return tr("Step ms");
    case Mfu: return tr("MFU %");
    default: return {};
  }
}

}  // namespace gp
