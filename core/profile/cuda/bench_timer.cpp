#include "profile/cuda/bench_timer.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/cupti_collector.h"
#include "profile/link_fit.h"

namespace gp::prof {
namespace {

struct Event {
  cudaEvent_t e = nullptr;
  Event() { checkCuda(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

// Time covered by the union of the records' intervals, ns.
double busyNs(std::vector<ActivityRecord>& rs) {
  std::sort(rs.begin(), rs.end(), [](const ActivityRecord& a, const ActivityRecord& b) { return a.start < b.start; });
  double busy = 0;
  uint64_t curStart = 0, curEnd = 0;
  bool open = false;
  for (const ActivityRecord& r : rs) {
    if (open && r.start <= curEnd) {
      curEnd = std::max(curEnd, r.end);
      continue;
    }
    if (open) busy += static_cast<double>(curEnd - curStart);
    curStart = r.start;
    curEnd = r.end;
    open = true;
  }
  if (open) busy += static_cast<double>(curEnd - curStart);
  return busy;
}

// Every record is one repetition when there are exactly `reps`; otherwise the batch's span and
// busy time shared out over the repetitions.
BatchTiming fromUntagged(std::vector<ActivityRecord> rs, int reps) {
  BatchTiming t;
  t.repetitions = reps;
  std::sort(rs.begin(), rs.end(), [](const ActivityRecord& a, const ActivityRecord& b) { return a.start < b.start; });
  if (static_cast<int>(rs.size()) == reps && reps >= 2) {
    std::vector<double> gaps, durations;
    for (size_t i = 0; i + 1 < rs.size(); ++i)
      gaps.push_back(static_cast<double>(rs[i + 1].start - rs[i].start) * 1e-9);
    for (const ActivityRecord& r : rs) durations.push_back(static_cast<double>(r.end - r.start) * 1e-9);
    t.seconds = median(gaps);
    t.kernelSeconds = median(durations);
    t.kernelsPerRepetition = 1;
    return t;
  }
  uint64_t first = rs.front().start, last = rs.front().end;
  for (const ActivityRecord& r : rs) {
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  t.seconds = static_cast<double>(last - first) * 1e-9 / reps;
  t.kernelSeconds = busyNs(rs) * 1e-9 / reps;
  t.kernelsPerRepetition = static_cast<int>(std::lround(static_cast<double>(rs.size()) / reps));
  return t;
}

}  // namespace

BatchTiming BenchTimer::timeEvents(cudaStream_t stream, int reps, const std::function<void()>& launch) {
  Event start, stop;
  checkCuda(cudaEventRecord(start.e, stream), "cudaEventRecord");
  for (int i = 0; i < reps; ++i) launch();
  checkCuda(cudaEventRecord(stop.e, stream), "cudaEventRecord");
  checkCuda(cudaEventSynchronize(stop.e), "cudaEventSynchronize");
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime");
  BatchTiming t;
  t.repetitions = reps;
  t.seconds = t.kernelSeconds = static_cast<double>(ms) * 1e-3 / reps;
  return t;
}

BatchTiming BenchTimer::time(cudaStream_t stream, int warmup, int reps, const std::function<void()>& launch,
                             bool tagged) {
  reps = std::max(reps, 2);
  for (int i = 0; i < warmup; ++i) launch();
  checkCuda(cudaStreamSynchronize(stream), "warm-up");
  if (!cupti_) return timeEvents(stream, reps, launch);

  CuptiCollector::take();  // drop whatever the warm-up left
  const uint64_t base = nextId_;
  nextId_ += static_cast<uint64_t>(reps);
  if (!tagged) CuptiCollector::apiTracing(false);
  struct Restore {
    bool on;
    ~Restore() {
      if (on) CuptiCollector::apiTracing(true);
    }
  } restore{!tagged};
  for (int i = 0; i < reps; ++i) {
    if (tagged) CuptiCollector::push(base + static_cast<uint64_t>(i));
    launch();
    if (tagged) CuptiCollector::pop();
  }
  checkCuda(cudaStreamSynchronize(stream), "timed batch");
  std::vector<ActivityRecord> rs = CuptiCollector::take();
  if (rs.empty()) {
    note_ = "CUPTI delivered no records for some batches; CUDA events timed them";
    return timeEvents(stream, reps, launch);
  }
  if (!tagged) return fromUntagged(std::move(rs), reps);

  // per repetition: first start, last end, record count
  std::map<uint64_t, std::vector<ActivityRecord>> byRep;
  for (ActivityRecord& r : rs)
    if (r.externalId >= base && r.externalId < base + static_cast<uint64_t>(reps)) byRep[r.externalId].push_back(r);
  if (static_cast<int>(byRep.size()) != reps) return fromUntagged(std::move(rs), reps);
  std::vector<double> starts, spans, counts;
  for (auto& [id, list] : byRep) {
    uint64_t first = list.front().start, last = list.front().end;
    for (const ActivityRecord& r : list) {
      first = std::min(first, r.start);
      last = std::max(last, r.end);
    }
    starts.push_back(static_cast<double>(first));
    spans.push_back(static_cast<double>(last - first) * 1e-9);
    counts.push_back(static_cast<double>(list.size()));
  }
  std::vector<double> gaps;
  for (size_t i = 0; i + 1 < starts.size(); ++i) gaps.push_back((starts[i + 1] - starts[i]) * 1e-9);
  BatchTiming t;
  t.repetitions = reps;
  t.seconds = median(gaps);
  t.kernelSeconds = median(spans);
  t.kernelsPerRepetition = static_cast<int>(std::lround(median(counts)));
  // A repetition's start-to-start interval can come out shorter than its own kernels when
  // consecutive repetitions overlap (independent kernels); the op then takes its span.
  t.seconds = std::max(t.seconds, t.kernelSeconds);
  return t;
}

BatchTiming BenchTimer::timeFor(cudaStream_t stream, double targetSeconds, int minReps, int maxReps,
                                const std::function<void()>& launch) {
  for (int i = 0; i < 2; ++i) launch();
  checkCuda(cudaStreamSynchronize(stream), "warm-up");
  const BatchTiming probe = timeEvents(stream, 3, launch);
  const double each = std::max(probe.seconds, 1e-7);
  const int reps = std::clamp(static_cast<int>(std::ceil(targetSeconds / each)), minReps, maxReps);
  return time(stream, 0, reps, launch, true);
}

}  // namespace gp::prof
