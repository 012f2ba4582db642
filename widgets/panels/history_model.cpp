#include "panels/history_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QPalette>
#include <algorithm>

#include "panels/number_format.h"

namespace gp {

using namespace gp::panels;

namespace {
const QColor kFaster(26, 127, 55);
const QColor kSlower(207, 34, 46);
const QColor kGrey(140, 140, 140);
}  // namespace

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

int HistoryModel::add(HistoryEntry e) {
  const int row = count();
  int prev = -1;
  for (int r = row - 1; r >= 0; --r)
    if (entries_[static_cast<size_t>(r)].feasible) {
      prev = r;
      break;
    }
  if (!e.when.isValid()) e.when = QDateTime::currentDateTime();
  double largest = e.stepTime;
  for (const HistoryEntry& old : entries_) largest = std::max(largest, old.stepTime);
  const int decimals = msDecimals(largest * 1e3);
  const bool rescaled = decimals != decimals_;
  decimals_ = decimals;
  beginInsertRows({}, row, row);
  entries_.push_back(std::move(e));
  prevFeasible_.push_back(prev);
  endInsertRows();
  // Keep the decimal points of the Step and Δ columns aligned.
  if (rescaled && row > 0) Q_EMIT dataChanged(index(0, Step), index(row - 1, Delta), {Qt::DisplayRole});
  return row;
}

void HistoryModel::clear() {
  beginResetModel();
  decimals_ = 1;
  entries_.clear();
  prevFeasible_.clear();
  endResetModel();
}

std::optional<double> HistoryModel::deltaSeconds(int row) const {
  const int prev = previousFeasible(row);
  if (prev < 0) return std::nullopt;
  return entry(row).stepTime - entry(prev).stepTime;
}

std::vector<OpId> HistoryModel::movedOps(const Plan& a, const Plan& b) {
  std::vector<OpId> moved;
  const size_t common = std::min(a.device.size(), b.device.size());
  for (size_t i = 0; i < common; ++i)
    if (a.device[i] != b.device[i]) moved.push_back(static_cast<OpId>(i));
  for (size_t i = common; i < std::max(a.device.size(), b.device.size()); ++i) moved.push_back(static_cast<OpId>(i));
  return moved;
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : count();
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::TextAlignmentRole)
    return QVariant::fromValue(section == Label || section == Feasible ? Qt::AlignLeft | Qt::AlignVCenter
                                                                       : Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Step:
        return tr("Simulated step time");
      case Ratio:
        return tr("Step time divided by the lower bound (1.00 is the best possible)");
      case Delta:
        return tr("Step time difference to the previous feasible entry");
      case Time:
        return tr("When the plan was measured");
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Number:
      return tr("#");
    case Label:
      return tr("Plan");
    case Step:
      return tr("Step (ms)");
    case Ratio:
      return tr("× bound");
    case Delta:
      return tr("Δ vs previous");
    case Feasible:
      return tr("Feasible");
    case Time:
      return tr("Time");
    default:
      return {};
  }
}

QVariant HistoryModel::display(const HistoryEntry& e, int row, int column) const {
  const QLocale loc;
  switch (column) {
    case Number:
      return loc.toString(row + 1);
    case Label:
      return e.label;
    case Step:
      return formatMs(e.stepTime, decimals_);
    case Ratio:
      return e.lowerBound > 0 ? tr("%1×").arg(loc.toString(e.stepTime / e.lowerBound, 'f', 2)) : tr("–");
    case Delta: {
      const std::optional<double> d = deltaSeconds(row);
      if (!d) return tr("–");
      const double base = entry(previousFeasible(row)).stepTime;
      const QString ms = formatSigned(*d * 1e3, decimals_);
      if (base <= 0) return tr("%1 ms").arg(ms);
      return tr("%1 ms (%2 %)").arg(ms, formatSigned(100.0 * *d / base, 1));
    }
    case Feasible:
      return e.feasible ? tr("Yes") : tr("No");
    case Time:
      return loc.toString(e.when.time(), QStringLiteral("HH:mm:ss"));
    default:
      return {};
  }
}

QVariant HistoryModel::toolTip(const HistoryEntry& e, int row, int column) const {
  switch (column) {
    case Label: {
      QString kind;
      switch (e.kind) {
        case HistoryKind::Initial: kind = tr("as opened"); break;
        case HistoryKind::Baseline: kind = tr("baseline"); break;
        case HistoryKind::Manual: kind = tr("manual edit"); break;
        case HistoryKind::Optimizer: kind = tr("optimizer"); break;
        case HistoryKind::File: kind = tr("placement file"); break;
      }
      QString tip = tr("%1 (%2)").arg(e.label, kind);
      if (e.seconds > 0) tip = tr("%1, computed in %2 s").arg(tip, QLocale().toString(e.seconds, 'f', 2));
      return tip;
    }
    case Step:
    case Feasible:
      return e.feasible ? QVariant() : QVariant(e.problem.isEmpty() ? tr("Not feasible") : e.problem);
    case Delta: {
      const int prev = previousFeasible(row);
      if (prev < 0) return tr("No earlier feasible entry to compare with");
      return tr("Compared with #%1 (%2)").arg(QLocale().toString(prev + 1), entry(prev).label);
    }
    case Time:
      return QLocale().toString(e.when, QLocale::LongFormat);
    default:
      return {};
  }
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const int row = index.row(), column = index.column();
  const HistoryEntry& e = entry(row);
  switch (role) {
    case Qt::DisplayRole:
      return display(e, row, column);
    case Qt::ToolTipRole:
      return toolTip(e, row, column);
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(column == Label || column == Feasible ? Qt::AlignLeft | Qt::AlignVCenter
                                                                       : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if ((column == Step || column == Ratio || column == Delta) && !e.feasible) return QBrush(kGrey);
      if (column == Feasible && !e.feasible) return QBrush(kSlower);
      if (column == Delta) {
        const std::optional<double> d = deltaSeconds(row);
        if (d && *d < 0) return QBrush(kFaster);
        if (d && *d > 0) return QBrush(kSlower);
      }
      return {};
    case RawRole:
      switch (column) {
        case Number:
          return row + 1;
        case Label:
          return e.label;
        case Step:
          return e.stepTime;
        case Ratio:
          return e.lowerBound > 0 ? QVariant(e.stepTime / e.lowerBound) : QVariant();
        case Delta: {
          const std::optional<double> d = deltaSeconds(row);
          return d ? QVariant(*d) : QVariant();
        }
        case Feasible:
          return e.feasible;
        case Time:
          return e.when;
        default:
          return {};
      }
    default:
      return {};
  }
}

}  // namespace gp
