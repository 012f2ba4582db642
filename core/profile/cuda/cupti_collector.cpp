#include "profile/cuda/cupti_collector.h"

#include <cupti.h>

#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "profile/cuda/cuda_errors.h"

namespace gp::prof {
namespace {

// The record versions of the CUPTI headers we build with (CUDA 13: Kernel10 / Memcpy6;
// CUDA 12: Kernel9 / Memcpy5).
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
#else
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
#endif
using PeerRecord = CUpti_ActivityMemcpyPtoP4;
using MemsetRecord = CUpti_ActivityMemset4;

constexpr size_t kBufferBytes = 8u << 20;
constexpr size_t kAlign = 8;
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                         CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMCPY2,
                                         CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                                         CUPTI_ACTIVITY_KIND_RUNTIME,
                                         CUPTI_ACTIVITY_KIND_DRIVER};

struct State {
  std::mutex mutex;
  std::vector<ActivityRecord> records;
  std::unordered_map<uint32_t, uint64_t> external;  // correlation id -> external id
  uint64_t dropped = 0;
  uint64_t incomplete = 0;
  bool registered = false, running = false;
};

// Never destroyed: CUPTI may still hand over buffers while the process exits.
State& state() {
  static State& s = *new State;
  return s;
}

ActivityRecord::CopyKind copyKindOf(uint8_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return ActivityRecord::CopyKind::HostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return ActivityRecord::CopyKind::DeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return ActivityRecord::CopyKind::DeviceToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return ActivityRecord::CopyKind::PeerToPeer;
    default:
      return ActivityRecord::CopyKind::Unknown;
  }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kAlign, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxNumRecords = 0;  // as many as fit
}

// The fields every kernel, copy and memset record has.
template <class Record>
void copyCommon(ActivityRecord& a, const Record& r) {
  a.device = static_cast<int32_t>(r.deviceId);
  a.stream = r.streamId;
  a.start = r.start;
  a.end = r.end;
  a.correlationId = r.correlationId;
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t /*size*/,
                              size_t validSize) {
  std::vector<ActivityRecord> got;
  std::vector<std::pair<uint32_t, uint64_t>> ext;
  uint64_t incomplete = 0;
  CUpti_Activity* rec = nullptr;
  while (validSize > 0 && cuptiActivityGetNextRecord(buffer, validSize, &rec) == CUPTI_SUCCESS) {
    ActivityRecord a;
    switch (rec->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const KernelRecord*>(rec);
        a.kind = ActivityRecord::Kind::Kernel;
        copyCommon(a, *k);
        if (k->name) a.name = k->name;
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const MemcpyRecord*>(rec);
        a.kind = ActivityRecord::Kind::Memcpy;
        a.copyKind = copyKindOf(m->copyKind);
        copyCommon(a, *m);
        a.bytes = static_cast<int64_t>(m->bytes);
        a.srcDevice = a.dstDevice = a.device;
        a.name = "memcpy";
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto* m = reinterpret_cast<const PeerRecord*>(rec);
        a.kind = ActivityRecord::Kind::MemcpyPeer;
        a.copyKind = ActivityRecord::CopyKind::PeerToPeer;
        copyCommon(a, *m);
        a.bytes = static_cast<int64_t>(m->bytes);
        a.srcDevice = static_cast<int32_t>(m->srcDeviceId);
        a.dstDevice = static_cast<int32_t>(m->dstDeviceId);
        a.name = "memcpy-peer";
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const MemsetRecord*>(rec);
        a.kind = ActivityRecord::Kind::Memset;
        copyCommon(a, *m);
        a.bytes = static_cast<int64_t>(m->bytes);
        a.name = "memset";
        break;
      }
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto* x = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(rec);
        ext.emplace_back(x->correlationId, x->externalId);
        continue;
      }
      default:
        continue;  // runtime / driver API records: enabled only so that external ids are emitted
    }
    if (a.start == 0 || a.end == 0 || a.end < a.start) {
      ++incomplete;
      continue;
    }
    got.push_back(std::move(a));
  }
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(context, streamId, &dropped);
  std::free(buffer);
  State& s = state();
  std::lock_guard lock(s.mutex);
  for (auto& a : got) s.records.push_back(std::move(a));
  for (auto [c, id] : ext) s.external[c] = id;
  s.dropped += dropped;
  s.incomplete += incomplete;
}

}  // namespace

std::string CuptiCollector::start() {
  State& s = state();
  if (s.running) return "";
  if (!s.registered) {
    CUptiResult r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (r != CUPTI_SUCCESS) {
      if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        return "CUPTI has no permission to trace this GPU (" + cuptiMessage(r) +
               "): run as root or let all users profile (nvidia driver option NVreg_RestrictProfilingToAdminUsers=0)";
      return "CUPTI is unavailable: " + cuptiMessage(r);
    }
    s.registered = true;
  }
  for (CUpti_ActivityKind k : kKinds) {
    CUptiResult r = cuptiActivityEnable(k);
    if (r == CUPTI_SUCCESS) continue;
    for (CUpti_ActivityKind d : kKinds) cuptiActivityDisable(d);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
      return "CUPTI has no permission to trace this GPU (" + cuptiMessage(r) +
             "): run as root or let all users profile (nvidia driver option NVreg_RestrictProfilingToAdminUsers=0)";
    return "CUPTI is unavailable: cuptiActivityEnable(" + std::to_string(static_cast<int>(k)) +
           ") failed: " + cuptiMessage(r);
  }
  s.running = true;
  return "";
}

bool CuptiCollector::running() {
  return state().running;
}

void CuptiCollector::stop() {
  State& s = state();
  if (!s.running) return;
  cuptiActivityFlushAll(0);
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind k : kKinds) cuptiActivityDisable(k);
  s.running = false;
}

std::vector<ActivityRecord> CuptiCollector::take() {
  State& s = state();
  if (s.running) {
    cuptiActivityFlushAll(0);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  }
  std::lock_guard lock(s.mutex);
  std::vector<ActivityRecord> out;
  out.swap(s.records);
  for (ActivityRecord& a : out)
    if (a.externalId == 0)
      if (auto it = s.external.find(a.correlationId); it != s.external.end()) a.externalId = it->second;
  s.external.clear();
  return out;
}

uint64_t CuptiCollector::droppedRecords() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.dropped;
}

uint64_t CuptiCollector::incompleteRecords() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.incomplete;
}

void CuptiCollector::apiTracing(bool on) {
  if (!state().running) return;
  for (CUpti_ActivityKind k :
       {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER}) {
    if (on)
      cuptiActivityEnable(k);
    else
      cuptiActivityDisable(k);
  }
}

void CuptiCollector::push(uint64_t id) {
  if (state().running) cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id);
}

void CuptiCollector::pop() {
  uint64_t last = 0;
  if (state().running) cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
}

}  // namespace gp::prof
