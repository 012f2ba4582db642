#include "profile/activity.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "cluster/cluster.h"
#include "base/error.h"

namespace gp {
namespace {

int32_t clampId(uint64_t v) {
  return static_cast<int32_t>(std::min<uint64_t>(v, static_cast<uint64_t>(std::numeric_limits<int32_t>::max())));
}

// A copy between two different devices: its (source, destination), else {-1, -1}.
std::pair<int32_t, int32_t> peerEnds(const ActivityRecord& r) {
  using K = ActivityRecord::Kind;
  if (r.kind != K::MemcpyPeer && r.kind != K::Memcpy) return {-1, -1};
  if (r.srcDevice < 0 || r.dstDevice < 0 || r.srcDevice == r.dstDevice) return {-1, -1};
  if (r.kind == K::Memcpy && r.copyKind != ActivityRecord::CopyKind::PeerToPeer &&
      r.copyKind != ActivityRecord::CopyKind::DeviceToDevice)
    return {-1, -1};
  return {r.srcDevice, r.dstDevice};
}

}  // namespace

std::string_view activityKindName(ActivityRecord::Kind k) {
  switch (k) {
    case ActivityRecord::Kind::Kernel:
      return "kernel";
    case ActivityRecord::Kind::Memcpy:
      return "memcpy";
    case ActivityRecord::Kind::MemcpyPeer:
      return "memcpy-peer";
    case ActivityRecord::Kind::Memset:
      return "memset";
  }
  return "?";
}

ActivityTimeline toTimeline(std::span<const ActivityRecord> records, const ActivityTimelineOptions& options) {
  ActivityTimeline t;
  auto where = [](size_t i) { return "record " + std::to_string(i); };
  uint64_t origin = std::numeric_limits<uint64_t>::max();
  for (size_t i = 0; i < records.size(); ++i) {
    const ActivityRecord& r = records[i];
    if (r.end < r.start)
      throw Error("activity",
                  where(i) + " (" + std::string(activityKindName(r.kind)) + " '" + r.name + "') ends before it starts");
    if (r.device < 0) throw Error("activity", where(i) + " has a negative device " + std::to_string(r.device));
    origin = std::min(origin, r.start);
  }
  if (records.empty()) return t;
  t.originNs = origin;

  auto device = [&](int32_t ordinal, size_t i) {
    int32_t d = options.deviceOf ? options.deviceOf(ordinal) : ordinal;
    if (d < 0 || (options.cluster && d >= options.cluster->numDevices()))
      throw Error("activity", where(i) + ": device " + std::to_string(ordinal) + " is not in the cluster");
    return d;
  };
  uint64_t last = origin;
  for (size_t i = 0; i < records.size(); ++i) {
    const ActivityRecord& r = records[i];
    using K = ActivityRecord::Kind;
    using C = ActivityRecord::CopyKind;
    TimelineEvent e{};
    e.id = options.idOf ? options.idOf(r) : clampId(r.externalId ? r.externalId : r.correlationId);
    e.start = static_cast<double>(r.start - origin) * 1e-9;
    e.end = static_cast<double>(r.end - origin) * 1e-9;
    if (auto [src, dst] = peerEnds(r); src >= 0) {
      const int32_t a = device(src, i), b = device(dst, i);
      e.kind = TimelineEvent::Kind::Transfer;
      e.dst = b;
      e.bytes = r.bytes;
      e.resource = a;
      if (options.cluster && a != b) {
        auto route = options.cluster->route(a, b);
        if (!route.empty()) e.resource = route.front();
      }
    } else if (r.kind == K::Kernel || r.kind == K::Memset || (r.kind == K::Memcpy && r.copyKind == C::DeviceToDevice) ||
               (r.kind == K::MemcpyPeer && r.srcDevice == r.dstDevice)) {
      e.kind = TimelineEvent::Kind::Op;
      e.resource = device(r.device, i);
      e.dst = -1;
      e.bytes = r.kind == K::Kernel ? 0 : r.bytes;
    } else {
      ++t.skipped;  // host <-> device
      continue;
    }
    last = std::max(last, r.end);
    t.events.push_back(e);
    t.recordOf.push_back(i);
  }
  t.span = static_cast<double>(last - origin) * 1e-9;

  std::vector<size_t> order(t.events.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const TimelineEvent &x = t.events[a], &y = t.events[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.resource != y.resource) return x.resource < y.resource;
    return x.end < y.end;
  });
  ActivityTimeline sorted;
  sorted.originNs = t.originNs;
  sorted.span = t.span;
  sorted.skipped = t.skipped;
  for (size_t k : order) {
    sorted.events.push_back(t.events[k]);
    sorted.recordOf.push_back(t.recordOf[k]);
  }
  return sorted;
}

}  // namespace gp
