#include "timeline/timeline_model.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>

namespace gp {

size_t TimelineRow::firstReaching(double t) const {
  return static_cast<size_t>(std::lower_bound(maxEnd.begin(), maxEnd.end(), t) - maxEnd.begin());
}

double TimelineRow::busyUntil(double t, size_t& cursor) const {
  cursor = cursor > 0 && cursor <= bars.size() && bars[cursor - 1].start >= t ? firstStartingAt(t, 0)
                                                                              : gallopStartingAt(t, cursor);
  if (cursor == 0) return 0;
  const TimelineBar& b = bars[cursor - 1];
  return busyBefore[cursor - 1] + std::clamp(t - b.start, 0.0, b.end - b.start);
}

size_t TimelineRow::gallopStartingAt(double t, size_t from) const {
  const size_t n = bars.size();
  if (from >= n || bars[from].start >= t) return from;
  size_t lo = from, hi = n, step = 1;  // bars[lo].start < t
  while (lo + step < n) {
    if (bars[lo + step].start >= t) {
      hi = lo + step;
      break;
    }
    lo += step;
    step *= 2;
  }
  auto it = std::lower_bound(bars.begin() + static_cast<std::ptrdiff_t>(lo + 1),
                             bars.begin() + static_cast<std::ptrdiff_t>(hi), t,
                             [](const TimelineBar& b, double v) { return b.start < v; });
  return static_cast<size_t>(it - bars.begin());
}

size_t TimelineRow::firstStartingAt(double t, size_t from) const {
  auto it = std::lower_bound(bars.begin() + static_cast<std::ptrdiff_t>(from), bars.end(), t,
                             [](const TimelineBar& b, double v) { return b.start < v; });
  return static_cast<size_t>(it - bars.begin());
}

int32_t TimelineModel::barAt(int row, double t, double tol) const {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return -1;
  const TimelineRow& r = rows_[static_cast<size_t>(row)];
  int32_t best = -1;
  double bestDist = tol;
  for (size_t i = r.firstReaching(t - tol); i < r.bars.size() && r.bars[i].start <= t + tol; ++i) {
    const TimelineBar& b = r.bars[i];
    const double dist = t < b.start ? b.start - t : t > b.end ? t - b.end : 0;
    if (dist <= bestDist && (best < 0 || dist < bestDist || dist == 0)) {
      best = static_cast<int32_t>(i);
      bestDist = dist;
    }
  }
  return best;
}

namespace {

struct OpEvent {
  int32_t device, fusion, op;
  double start, end;
};

}  // namespace

void TimelineModel::appendLabel(const std::string& name, int32_t more) {
  // The part after the last '/': what fits inside a bar. Mostly ASCII: widened in place.
  const size_t slash = name.rfind('/');
  const std::string_view part =
      slash == std::string::npos ? std::string_view(name) : std::string_view(name).substr(slash + 1);
  if (std::all_of(part.begin(), part.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }))
    labelText_.append(QLatin1String(part.data(), static_cast<qsizetype>(part.size())));
  else
    labelText_.append(QString::fromUtf8(part.data(), static_cast<qsizetype>(part.size())));
  if (more > 0) labelText_.append(QStringLiteral(" +%1").arg(more));
  labelOff_.push_back(labelText_.size());
}

void TimelineModel::clear() {
  graph_.reset();
  deviceNames_.clear();
  rows_.clear();
  items_.clear();
  itemOps_.clear();
  labelText_.clear();
  labelOff_.assign(1, 0);
  itemOfOp_.clear();
  firstTransfer_ = 0;
  hiddenDevices_ = 0;
  routeRows_.clear();
  routeOff_.assign(1, 0);
  stepTime_ = endTime_ = 0;
  numBars_ = 0;
}

void TimelineModel::build(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& m) {
  clear();
  graph_ = std::move(g);
  const int numDev = c.numDevices();
  const int32_t numOps = graph_ ? graph_->numOps() : 0;
  stepTime_ = endTime_ = m.stepTime;
  QLocale locale;
  for (int d = 0; d < numDev; ++d) {
    deviceNames_.push_back(QString::fromStdString(c.device(d).name));
    TimelineRow row{TimelineRow::Kind::Device, d, deviceNames_.back(), {}, {}, {}};
    if (static_cast<size_t>(d) < m.devices.size())
      row.detail = QCoreApplication::translate("gp::TimelineView", "%1%", "share of the step a device is busy")
                       .arg(locale.toString(100.0 * m.devices[static_cast<size_t>(d)].utilization, 'f', 0));
    rows_.push_back(std::move(row));
  }

  // Ops: sorted per device by time, fused ops with identical times merged into one item.
  std::vector<OpEvent> ops;
  std::vector<int32_t> channelRow(static_cast<size_t>(c.numChannels()), -1);
  std::vector<size_t> transfers;
  for (size_t i = 0; i < m.timeline.size(); ++i) {
    const TimelineEvent& e = m.timeline[i];
    endTime_ = std::max(endTime_, e.end);
    if (e.kind == TimelineEvent::Kind::Op) {
      if (e.resource < 0 || e.resource >= numDev || e.id < 0 || e.id >= numOps) continue;
      ops.push_back({e.resource, e.dst, e.id, e.start, e.end});
    } else {
      if (e.resource < 0 || e.resource >= c.numChannels() || e.dst < 0 || e.dst >= numDev) continue;
      const int src = c.channel(e.resource).from;
      if (src < 0 || src >= numDev) continue;
      for (int ch : c.route(src, e.dst)) channelRow[static_cast<size_t>(ch)] = 0;
      transfers.push_back(i);
    }
  }
  std::sort(ops.begin(), ops.end(), [](const OpEvent& a, const OpEvent& b) {
    if (a.device != b.device) return a.device < b.device;
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end < b.end;
    if (a.fusion != b.fusion) return a.fusion < b.fusion;
    return a.op < b.op;
  });
  itemOfOp_.assign(static_cast<size_t>(numOps), -1);
  items_.reserve(ops.size() + transfers.size());
  labelOff_.reserve(ops.size() + transfers.size() + 1);
  labelText_.reserve(static_cast<qsizetype>(16 * (ops.size() + transfers.size())));
  itemOps_.reserve(ops.size());
  for (size_t i = 0; i < ops.size();) {
    const OpEvent& e = ops[i];
    size_t j = i + 1;
    if (e.fusion >= 0)
      while (j < ops.size() && ops[j].device == e.device && ops[j].fusion == e.fusion && ops[j].start == e.start &&
             ops[j].end == e.end)
        ++j;
    const auto item = static_cast<int32_t>(items_.size());
    TimelineItem it{
        TimelineEvent::Kind::Op,     e.op,     e.device, e.device, e.fusion, static_cast<int32_t>(itemOps_.size()),
        static_cast<int32_t>(j - i), e.device, 0,        0,        e.start,  e.end};
    for (size_t k = i; k < j; ++k) {
      itemOps_.push_back(ops[k].op);
      itemOfOp_[static_cast<size_t>(ops[k].op)] = item;
    }
    TimelineRow& row = rows_[static_cast<size_t>(e.device)];
    it.bar = static_cast<int32_t>(row.bars.size());
    row.bars.push_back({e.start, e.end, item});
    items_.push_back(it);
    appendLabel(graph_->opName(e.op), static_cast<int32_t>(j - i - 1));
    i = j;
  }

  // Channel rows in channel order, then transfers on every channel of their route.
  for (int ch = 0; ch < c.numChannels(); ++ch) {
    if (channelRow[static_cast<size_t>(ch)] < 0) continue;
    channelRow[static_cast<size_t>(ch)] = static_cast<int32_t>(rows_.size());
    TimelineRow row{TimelineRow::Kind::Channel, ch, QString::fromStdString(c.channel(ch).name), {}, {}, {}};
    if (static_cast<size_t>(ch) < m.channelBytes.size())
      row.detail = locale.formattedDataSize(m.channelBytes[static_cast<size_t>(ch)], 1, QLocale::DataSizeSIFormat);
    rows_.push_back(std::move(row));
  }
  firstTransfer_ = items_.size();
  for (size_t i : transfers) {
    const TimelineEvent& e = m.timeline[i];
    const int src = c.channel(e.resource).from;
    const auto item = static_cast<int32_t>(items_.size());
    TimelineItem it{TimelineEvent::Kind::Transfer, e.id, src, e.dst, -1, 0, 0, -1, -1, e.bytes, e.start, e.end};
    for (int ch : c.route(src, e.dst)) {
      TimelineRow& row = rows_[static_cast<size_t>(channelRow[static_cast<size_t>(ch)])];
      if (it.row < 0) it.row = channelRow[static_cast<size_t>(ch)];
      row.bars.push_back({e.start, e.end, item});
      routeRows_.push_back(channelRow[static_cast<size_t>(ch)]);
    }
    routeOff_.push_back(routeRows_.size());
    items_.push_back(it);
    appendLabel(graph_ && e.id >= 0 && e.id < graph_->numTensors() ? graph_->tensorName(e.id) : std::string(), 0);
  }

  if (numDev > kAllDeviceRows) hideIdleDevices();
  for (TimelineRow& row : rows_) {
    if (row.kind == TimelineRow::Kind::Channel)
      std::stable_sort(row.bars.begin(), row.bars.end(),
                       [](const TimelineBar& a, const TimelineBar& b) { return a.start < b.start; });
    row.maxEnd.resize(row.bars.size());
    row.busyBefore.resize(row.bars.size());
    double maxEnd = -1e300, busy = 0;
    for (size_t i = 0; i < row.bars.size(); ++i) {
      maxEnd = std::max(maxEnd, row.bars[i].end);
      row.maxEnd[i] = maxEnd;
      row.busyBefore[i] = busy;
      busy += row.bars[i].end - row.bars[i].start;
      TimelineItem& it = items_[static_cast<size_t>(row.bars[i].item)];
      if (it.kind == TimelineEvent::Kind::Transfer && &row == &rows_[static_cast<size_t>(it.row)])
        it.bar = static_cast<int32_t>(i);
    }
    numBars_ += row.bars.size();
  }
}

// Drops the rows of devices that ran nothing and renumbers the rest (items' rows, routes).
void TimelineModel::hideIdleDevices() {
  std::vector<int32_t> newRow(rows_.size(), -1);
  std::vector<TimelineRow> kept;
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (rows_[r].kind == TimelineRow::Kind::Device && rows_[r].bars.empty()) {
      ++hiddenDevices_;
      continue;
    }
    newRow[r] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(rows_[r]));
  }
  rows_ = std::move(kept);
  for (TimelineItem& it : items_)
    if (it.row >= 0) it.row = newRow[static_cast<size_t>(it.row)];
  for (int32_t& r : routeRows_) r = newRow[static_cast<size_t>(r)];
}

}  // namespace gp
