// ActivityRecord: one piece of GPU work as the profiler saw it (a kernel, a copy, a memset),
// in our own CUDA-free form, and its conversion into the simulator's Timeline type.
//
// The CUPTI collector (profile/cuda/cupti_collector) turns CUPTI's activity records into these;
// everything downstream (the Timeline, the fits, the tests) never sees a CUDA header.
//
//   ActivityTimeline t = toTimeline(records);          // sorted, seconds from the first start
//   for (const TimelineEvent& e : t.events) ...        // Op on a device / Transfer between two
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/measurement.h"

namespace gp {

class Cluster;

struct ActivityRecord {
  enum class Kind : uint8_t { Kernel, Memcpy, MemcpyPeer, Memset };
  // Where a Memcpy goes (CUPTI's copy kinds, reduced to what the timeline needs).
  enum class CopyKind : uint8_t { Unknown, HostToDevice, DeviceToHost, DeviceToDevice, PeerToPeer };

  Kind kind = Kind::Kernel;
  CopyKind copyKind = CopyKind::Unknown;  // Memcpy / MemcpyPeer
  int32_t device = 0;                     // CUDA device ordinal that ran it
  uint32_t stream = 0;
  uint64_t start = 0, end = 0;             // ns, GPU timestamps (end >= start)
  uint32_t correlationId = 0;              // joins the record to the API call that made it
  uint64_t externalId = 0;                 // the id pushed by the caller around the call; 0: none
  int64_t bytes = 0;                       // copies and memsets
  int32_t srcDevice = -1, dstDevice = -1;  // MemcpyPeer (and device-to-device copies)
  std::string name;                        // kernel name (CUPTI's, mangled or not)
};

std::string_view activityKindName(ActivityRecord::Kind k);  // "kernel", "memcpy", "memcpy-peer", "memset"

struct ActivityTimelineOptions {
  // Cluster device index of a CUDA ordinal; default: the ordinal itself.
  std::function<int32_t(int32_t ordinal)> deviceOf;
  // TimelineEvent::id of a record; default: its externalId when set, else its correlationId
  // (both clamped to int32).
  std::function<int32_t(const ActivityRecord&)> idOf;
  // When given, a transfer's resource is the first channel of the cluster's route (as the
  // simulator's timeline has it) and its devices must exist in the cluster; otherwise the
  // resource is the source device.
  const Cluster* cluster = nullptr;
};

struct ActivityTimeline {
  std::vector<TimelineEvent> events;  // sorted by start, then resource, then end
  std::vector<size_t> recordOf;       // per event: index of its record in the input
  uint64_t originNs = 0;              // the first start, subtracted from every time
  double span = 0;                    // seconds from the first start to the last end
  int skipped = 0;                    // records with no place on the timeline (host copies)
};

// Kernels, memsets and copies within one device become Op events on that device (bytes set
// for copies and memsets, dst = -1); copies between two devices (MemcpyPeer, or a Memcpy whose
// source and destination devices differ) become Transfer events (resource: see options, dst:
// the destination device, bytes); host<->device copies are skipped (the timeline has no host).
// Times are seconds relative to the earliest start. Throws gp::Error("activity", ...) for a
// record with end < start, a negative device, or a device outside the cluster.
ActivityTimeline toTimeline(std::span<const ActivityRecord> records, const ActivityTimelineOptions& options = {});

}  // namespace gp
