#include "panels/device_tree_model.h"

#include <QFont>
#include <QLocale>
#include <algorithm>

#include "device_colors.h"
#include "panels/memory_bar.h"
#include "panels/number_format.h"

namespace gp {

using panels::formatMemorySize;
using panels::formatMs;

namespace {

QString percent(double share) { return QLocale().toString(100.0 * share, 'f', 0); }

}  // namespace

DeviceTreeModel::DeviceTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void DeviceTreeModel::setCluster(const Cluster& c) {
  beginResetModel();
  groups_ = DeviceGroups(c);
  kinds_.clear();
  mixed_ = false;
  for (int d = 0; d < c.numDevices(); ++d) {
    kinds_.push_back(c.device(d).kind);
    mixed_ |= kinds_.back() != kinds_.front();
  }
  figures_.assign(static_cast<size_t>(c.numDevices()), DeviceFigures{});
  for (int d = 0; d < c.numDevices(); ++d) figures_[static_cast<size_t>(d)].capacity = c.device(d).memCapacity;
  colors_.clear();
  details_.clear();
  aggregateGroups();
  endResetModel();
}

void DeviceTreeModel::setFigures(std::vector<DeviceFigures> figures, std::vector<QColor> colors,
                                 std::vector<QString> details, int busyDecimals) {
  figures.resize(figures_.size());
  for (size_t d = 0; d < figures.size(); ++d)
    if (figures[d].capacity <= 0) figures[d].capacity = figures_[d].capacity;
  figures_ = std::move(figures);
  colors_ = std::move(colors);
  details_ = std::move(details);
  busyDecimals_ = busyDecimals;
  aggregateGroups();
  // One signal over the top rows: a view repaints what it shows, children included; the shape
  // (and so what is expanded) stays.
  const int rows = rowCount();
  if (rows > 0) Q_EMIT dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
}

void DeviceTreeModel::clearFigures() {
  std::vector<DeviceFigures> none(figures_.size());
  for (size_t d = 0; d < none.size(); ++d) none[d].capacity = figures_[d].capacity;
  setFigures(std::move(none));
}

void DeviceTreeModel::aggregateGroups() {
  serverFigures_.clear();
  podFigures_.clear();
  for (int s = 0; s < groups_.numServers(); ++s) serverFigures_.push_back(aggregate(groups_.devicesOf(s), figures_));
  for (int p = 0; p < groups_.numPods(); ++p) podFigures_.push_back(aggregate(groups_.devicesOfPod(p), figures_));
}

QModelIndex DeviceTreeModel::indexOfDevice(int device, int column) const {
  if (device < 0 || device >= deviceCount()) return {};
  return createIndex(groups_.levels() == 0 ? device : groups_.slotOf(device), column, id(Node::Device, device));
}

QModelIndex DeviceTreeModel::indexOfServer(int server, int column) const {
  if (groups_.levels() == 0 || server < 0 || server >= groups_.numServers()) return {};
  const int row = groups_.levels() == 2 ? server - groups_.serversOf(groups_.podOf(server)).front() : server;
  return createIndex(row, column, id(Node::Server, server));
}

QModelIndex DeviceTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
  if (!parent.isValid()) {
    switch (groups_.levels()) {
      case 2: return createIndex(row, column, id(Node::Pod, row));
      case 1: return createIndex(row, column, id(Node::Server, row));
      default: return createIndex(row, column, id(Node::Device, row));
    }
  }
  if (nodeOf(parent) == Node::Pod)
    return createIndex(row, column, id(Node::Server, groups_.serversOf(numberOf(parent))[static_cast<size_t>(row)]));
  return createIndex(row, column, id(Node::Device, groups_.devicesOf(numberOf(parent))[static_cast<size_t>(row)]));
}

QModelIndex DeviceTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const int n = numberOf(child);
  switch (nodeOf(child)) {
    case Node::Pod: return {};
    case Node::Server:
      return groups_.levels() == 2 ? createIndex(groups_.podOf(n), 0, id(Node::Pod, groups_.podOf(n))) : QModelIndex();
    case Node::Device: return groups_.levels() == 0 ? QModelIndex() : indexOfServer(groups_.serverOf(n));
  }
  return {};
}

int DeviceTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  if (!parent.isValid()) {
    switch (groups_.levels()) {
      case 2: return groups_.numPods();
      case 1: return groups_.numServers();
      default: return groups_.numDevices();
    }
  }
  switch (nodeOf(parent)) {
    case Node::Pod: return static_cast<int>(groups_.serversOf(numberOf(parent)).size());
    case Node::Server: return static_cast<int>(groups_.devicesOf(numberOf(parent)).size());
    case Node::Device: return 0;
  }
  return 0;
}

int DeviceTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool DeviceTreeModel::hasChildren(const QModelIndex& parent) const {
  if (!parent.isValid()) return groups_.numDevices() > 0;
  return parent.column() == 0 && nodeOf(parent) != Node::Device;
}

QVariant DeviceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Device");
    case Kind: return tr("Kind");
    case Memory: return tr("Peak memory / capacity");
    case Utilization: return tr("Util.");
    case Busy: return tr("Busy");
    case Fullest: return tr("Fullest");
    default: return {};
  }
}

QString DeviceTreeModel::deviceText(int device, Column column) const {
  return data(indexOfDevice(device, column)).toString();
}

QVariant DeviceTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const int n = numberOf(index);
  switch (nodeOf(index)) {
    case Node::Device: return deviceData(n, index.column(), role);
    case Node::Server:
      return groupData(QString::fromStdString(groups_.serverName(n)), serverFigures_[static_cast<size_t>(n)], false,
                       index.column(), role);
    case Node::Pod:
      return groupData(QString::fromStdString(groups_.podName(n)), podFigures_[static_cast<size_t>(n)], true,
                       index.column(), role);
  }
  return {};
}

QVariant DeviceTreeModel::deviceData(int d, int column, int role) const {
  const DeviceFigures& f = figures_[static_cast<size_t>(d)];
  const bool over = f.peak >= 0 && f.capacity > 0 && f.peak > f.capacity;
  const QColor color =
      static_cast<size_t>(d) < colors_.size() && colors_[static_cast<size_t>(d)].isValid() ? colors_[static_cast<size_t>(d)]
                                                                                         : deviceColor(d);
  const QString fullName = QString::fromStdString(groups_.deviceName(d));
  switch (role) {
    case PeakRole: return QVariant::fromValue<qint64>(f.peak);
    case MinPeakRole: return QVariant::fromValue<qint64>(-1);
    case CapacityRole: return QVariant::fromValue<qint64>(f.capacity);
    case ColorRole: return color;
    case OverRole: return over;
    case DeviceRole: return d;
    case FilterRole: return fullName;
    case Qt::TextAlignmentRole:
      return column == Utilization || column == Busy ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::DecorationRole:
      return column == Name ? QVariant(color) : QVariant();
    case Qt::DisplayRole:
      switch (column) {
        case Name: return groups_.levels() == 0 ? fullName : QString::fromStdString(groups_.deviceShortName(d));
        case Kind: return QString::fromStdString(kinds_[static_cast<size_t>(d)]);
        case Memory: return memoryBarText(f.peak, f.capacity);
        case Utilization: return f.utilization >= 0 ? tr("%1 %").arg(percent(f.utilization)) : tr("–");
        case Busy: return f.busy >= 0 ? tr("%1 ms").arg(formatMs(f.busy, busyDecimals_)) : tr("–");
        default: return {};
      }
    case Qt::ToolTipRole: {
      QString tip = over ? tr("%1: peak memory %2 of %3: %4 over capacity")
                               .arg(fullName, formatMemorySize(f.peak), formatMemorySize(f.capacity),
                                    formatMemorySize(f.peak - f.capacity))
                    : f.peak >= 0 ? tr("%1: peak memory %2 of %3 (%4 %)")
                                        .arg(fullName, formatMemorySize(f.peak), formatMemorySize(f.capacity),
                                             QLocale().toString(f.capacity > 0 ? 100.0 * static_cast<double>(f.peak) /
                                                                                     static_cast<double>(f.capacity)
                                                                               : 0.0,
                                                                'f', 1))
                                  : tr("%1 (%2): capacity %3").arg(fullName, QString::fromStdString(kinds_[static_cast<size_t>(d)]),
                                                                   formatMemorySize(f.capacity));
      if (static_cast<size_t>(d) < details_.size() && !details_[static_cast<size_t>(d)].isEmpty())
        tip += QLatin1Char('\n') + details_[static_cast<size_t>(d)];
      return tip;
    }
    default: return {};
  }
}

// A GPU named within its group: "gpu5" in a server, "node3/gpu5" in a pod.
QString DeviceTreeModel::groupMemberName(int device, bool pod) const {
  return QString::fromStdString(pod ? groups_.deviceName(device) : groups_.deviceShortName(device));
}

QVariant DeviceTreeModel::groupData(const QString& name, const GroupFigures& g, bool pod, int column, int role) const {
  const QColor color = g.over > 0          ? MemoryBar::overColor()
                       : g.worst >= 0 && static_cast<size_t>(g.worst) < colors_.size() && colors_[static_cast<size_t>(g.worst)].isValid()
                           ? colors_[static_cast<size_t>(g.worst)]
                       : g.worst >= 0 ? deviceColor(g.worst)
                                      : QColor(150, 154, 160);
  switch (role) {
    case PeakRole: return QVariant::fromValue<qint64>(g.maxPeak);
    case MinPeakRole: return QVariant::fromValue<qint64>(g.minPeak);
    case CapacityRole: return QVariant::fromValue<qint64>(g.capacity);
    case ColorRole: return color;
    case OverRole: return g.over > 0;
    case DeviceRole: return -1;
    case FilterRole: return name;
    case Qt::TextAlignmentRole:
      return column == Utilization || column == Busy ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::FontRole:
      if (column == Name && g.over > 0) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::DisplayRole:
      switch (column) {
        case Name:
          return g.over > 0 ? tr("%1 (%n GPU(s), %2 over)", nullptr, g.devices).arg(name).arg(g.over)
                            : tr("%1 (%n GPU(s))", nullptr, g.devices).arg(name);
        case Memory: return memoryBarText(g.maxPeak, g.capacity, g.minPeak);
        case Utilization:
          if (g.maxUtil < 0) return tr("–");
          return percent(g.minUtil) == percent(g.maxUtil) ? tr("%1 %").arg(percent(g.maxUtil))
                                                          : tr("%1–%2 %").arg(percent(g.minUtil), percent(g.maxUtil));
        case Busy: return g.maxBusy >= 0 ? tr("%1 ms").arg(formatMs(g.maxBusy, busyDecimals_)) : tr("–");
        case Fullest: return g.worst >= 0 ? groupMemberName(g.worst, pod) : QString();
        default: return {};
      }
    case Qt::ToolTipRole: {
      if (g.measured == 0)
        return tr("%1: %n GPU(s), %2 each at most; not measured", nullptr, g.devices).arg(name, formatMemorySize(g.capacity));
      QString tip = tr("%1: %n GPU(s), peak memory %2 to %3 of %4", nullptr, g.devices)
                        .arg(name, formatMemorySize(g.minPeak), formatMemorySize(g.maxPeak), formatMemorySize(g.capacity));
      if (g.worst >= 0)
        tip += QLatin1Char('\n') + tr("Fullest: %1 (%2)").arg(QString::fromStdString(groups_.deviceName(g.worst)),
                                                             formatMemorySize(figures_[static_cast<size_t>(g.worst)].peak));
      if (g.over > 0) tip += QLatin1Char('\n') + tr("%n GPU(s) over capacity", nullptr, g.over);
      if (g.busiest >= 0)
        tip += QLatin1Char('\n') + tr("Busiest: %1 (%2 ms)").arg(QString::fromStdString(groups_.deviceName(g.busiest)),
                                                                formatMs(g.maxBusy, busyDecimals_));
      if (g.measured < g.devices) tip += QLatin1Char('\n') + tr("%n GPU(s) not used", nullptr, g.devices - g.measured);
      return tip;
    }
    default: return {};
  }
}

}  // namespace gp
