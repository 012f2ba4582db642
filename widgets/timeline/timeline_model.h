// TimelineModel: the rows and bars the timeline (Gantt) view paints, built once from a
// Measurement's timeline so that painting and hit-testing never touch the raw event list.
//
// Rows: one per device, then one per directed channel that carried a transfer (a transfer
// holds every channel of its route, so it appears on each of them). On a cluster of more than
// kAllDeviceRows devices only the devices that ran something have a row (an op placement uses a
// few of 16,384 GPUs); hiddenDevices() counts the others. Within a row, bars are
// sorted by start and (the simulator runs one kernel per device and one transfer per channel
// at a time) do not overlap; maxEnd[i] = max end of bars 0..i lets a binary search find the
// first bar reaching into a time window even if they did. Ops of one fusion group on one
// device with identical start/end become one bar (one item with several ops).
#pragma once
#include <QString>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"

namespace gp {

struct TimelineBar {
  double start, end;  // seconds
  int32_t item;       // index into TimelineModel::items()
};

struct TimelineItem {
  TimelineEvent::Kind kind;
  int32_t id;                // Op: first op of the bar; Transfer: tensor id
  int32_t src, dst;          // devices (Op: both the device that ran it)
  int32_t fusionGroup;       // Op: fusion group or -1; Transfer: -1
  int32_t opsOff, opsCount;  // Op: the bar's ops in TimelineModel::itemOps()
  int32_t row, bar;          // Op: where its bar is (Transfer: its first channel's bar)
  int64_t bytes;             // Transfer: bytes moved
  double start, end;
};

struct TimelineRow {
  enum class Kind : uint8_t { Device, Channel };
  Kind kind;
  int32_t index;   // device or channel id
  QString name;    // "gpu0", "gpu0->host"
  QString detail;  // "73%" busy for devices, bytes carried for channels
  std::vector<TimelineBar> bars;
  std::vector<double> maxEnd;
  std::vector<double> busyBefore;  // busyBefore[i] = summed durations of bars 0..i-1

  // Busy seconds of the row before time t (bars do not overlap). `cursor` is the first bar
  // starting at or after the previous t asked for (0 at first): cheap when t moves forward.
  double busyUntil(double t, size_t& cursor) const;

  // First bar whose end (or an earlier bar's end) reaches t; bars.size() if none.
  size_t firstReaching(double t) const;
  // First bar at index >= from whose start is >= t.
  size_t firstStartingAt(double t, size_t from) const;
  // The same, galloping forward from `from` (cheap when the answer is near).
  size_t gallopStartingAt(double t, size_t from) const;
};

class TimelineModel {
 public:
  static constexpr int kAllDeviceRows = 64;

  void build(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& m);
  void clear();

  const Graph* graph() const { return graph_.get(); }
  int numDevices() const { return static_cast<int>(deviceNames_.size()); }
  const QString& deviceName(int d) const { return deviceNames_[static_cast<size_t>(d)]; }
  const std::vector<TimelineRow>& rows() const { return rows_; }
  const std::vector<TimelineItem>& items() const { return items_; }
  std::span<const OpId> itemOps(const TimelineItem& it) const {
    return {itemOps_.data() + it.opsOff, static_cast<size_t>(it.opsCount)};
  }
  // Short name drawn inside the bar (last part of the op / tensor name); shares storage, no copy.
  QString itemLabel(int32_t item) const {
    const auto i = static_cast<size_t>(item);
    return QString::fromRawData(labelText_.constData() + labelOff_[i], labelOff_[i + 1] - labelOff_[i]);
  }
  // The rows an item is drawn on: a kernel's device row; a transfer's every channel of its route.
  std::span<const int32_t> itemRows(int32_t item) const {
    const auto i = static_cast<size_t>(item);
    if (i < firstTransfer_) return {&items_[i].row, 1};
    return {routeRows_.data() + routeOff_[i - firstTransfer_], routeOff_[i - firstTransfer_ + 1] - routeOff_[i - firstTransfer_]};
  }
  int32_t itemOfOp(OpId op) const {
    return op >= 0 && static_cast<size_t>(op) < itemOfOp_.size() ? itemOfOp_[static_cast<size_t>(op)] : -1;
  }
  // The bar of `row` under time t: one that contains t, else the nearest within tol seconds;
  // -1 if none.
  int32_t barAt(int row, double t, double tol) const;

  double stepTime() const { return stepTime_; }
  double endTime() const { return endTime_; }  // max(stepTime, last event end)
  size_t numBars() const { return numBars_; }
  int hiddenDevices() const { return hiddenDevices_; }  // idle devices without a row

 private:
  std::shared_ptr<const Graph> graph_;
  std::vector<QString> deviceNames_;
  void hideIdleDevices();

  std::vector<TimelineRow> rows_;
  int hiddenDevices_ = 0;
  std::vector<TimelineItem> items_;
  std::vector<OpId> itemOps_;
  void appendLabel(const std::string& name, int32_t more);
  QString labelText_;                   // every label, back to back
  std::vector<qsizetype> labelOff_{0};  // item i: labelText_[labelOff_[i], labelOff_[i + 1])
  std::vector<int32_t> itemOfOp_;
  size_t firstTransfer_ = 0;             // items before it are kernels, from it on transfers
  std::vector<int32_t> routeRows_;       // transfer item firstTransfer_ + k: routeRows_[routeOff_[k], routeOff_[k + 1])
  std::vector<size_t> routeOff_{0};
  double stepTime_ = 0, endTime_ = 0;
  size_t numBars_ = 0;
};

}  // namespace gp
