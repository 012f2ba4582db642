// measureOnGpus / measurementFromRecords / gpuMeasureUnavailable (profile/gpu_measure.h).
#include "profile/gpu_measure.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "base/error.h"
#include "profile/activity.h"
#include "profile/profile_plugin.h"
#include "sim/lower_bound.h"
#include "sim/simulator.h"

namespace gp {
namespace {

std::string plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The plugin speaks as "profile"; here its errors are the re-measure's.
[[noreturn]] void rethrowAsMeasure(const Error& e) { throw Error("measure", e.problem()); }

struct Discovery {
  std::vector<GpuInfo> gpus;
  std::string error;  // why there are none
};

Discovery discover() {
  Discovery d;
  try {
    d.gpus = listGpus();
  } catch (const Error& e) {
    d.error = e.problem();
  }
  if (d.error.empty() && d.gpus.empty()) d.error = "no NVIDIA GPU found";
  return d;
}

// "gpu0..gpu3" for consecutive devices, else "gpu0, gpu2".
std::string deviceList(const Cluster& c, const std::vector<int32_t>& used) {
  bool consecutive = used.size() > 2;
  for (size_t i = 1; i < used.size(); ++i) consecutive &= used[i] == used[i - 1] + 1;
  if (consecutive) return c.device(used.front()).name + ".." + c.device(used.back()).name;
  std::string s;
  for (int32_t d : used) s += (s.empty() ? "" : ", ") + c.device(d).name;
  return s;
}

// CUDA ordinal per cluster device. Explicit ordinals name one GPU per cluster device, or one per
// used device (in device order); by default the used devices take GPUs 0, 1, ... in device order
// (so a plan on devices 0..k-1 runs device d on GPU d). Unused devices get the first used one's
// GPU (the executor does not touch them). Two used devices never share a GPU.
std::vector<int> ordinalsFor(const Cluster& c, const std::vector<int32_t>& used, const std::vector<int>& given,
                             int gpuCount) {
  const int nd = c.numDevices();
  const auto numUsed = static_cast<int>(used.size());
  std::vector<int> ord(static_cast<size_t>(nd), -1);
  if (given.empty()) {
    if (numUsed > gpuCount)
      throw Error("measure", "the plan uses " + plural(numUsed, "device", "devices") + " (" + deviceList(c, used) +
                                 ") but this machine has " + plural(gpuCount, "GPU", "GPUs"));
    for (int i = 0; i < numUsed; ++i) ord[used[i]] = i;
  } else if (static_cast<int>(given.size()) == nd) {
    for (int d = 0; d < nd; ++d) ord[d] = given[d];
  } else if (static_cast<int>(given.size()) == numUsed) {
    for (int i = 0; i < numUsed; ++i) ord[used[i]] = given[i];
  } else {
    throw Error("measure", "got " + plural(static_cast<int64_t>(given.size()), "GPU", "GPUs") + " for a plan that uses " +
                               plural(numUsed, "device", "devices") + " (" + deviceList(c, used) + ") on a cluster of " +
                               std::to_string(nd) + ": give one per used device or one per cluster device");
  }
  std::map<int, int32_t> owner;
  for (int32_t d : used) {
    const int o = ord[d];
    if (o < 0 || o >= gpuCount)
      throw Error("measure", "device " + c.device(d).name + " is to run on GPU " + std::to_string(o) +
                                 " but this machine has " + plural(gpuCount, "GPU", "GPUs"));
    if (auto [it, fresh] = owner.emplace(o, d); !fresh)
      throw Error("measure", "devices " + c.device(it->second).name + " and " + c.device(d).name +
                                 " would share GPU " + std::to_string(o));
  }
  const int fallback = used.empty() ? 0 : ord[used.front()];
  for (int& o : ord)
    if (o < 0) o = fallback;
  return ord;
}

}  // namespace

Measurement measurementFromRecords(const CostModel& cost, const GpuProgram& program,
                                   const std::vector<ActivityRecord>& records, double stepSeconds) {
  const Cluster& c = cost.cluster();
  const Graph& g = cost.graph();
  if (program.numDevices != c.numDevices())
    throw Error("measure", "the program is for " + std::to_string(program.numDevices) + " devices, the cluster has " +
                               std::to_string(c.numDevices()));
  const auto numL = static_cast<uint64_t>(program.launches.size());
  const auto numC = static_cast<uint64_t>(program.copies.size());
  Measurement m;
  m.stepTime = stepSeconds;
  m.devices.assign(static_cast<size_t>(c.numDevices()), DeviceStats{});
  for (int d = 0; d < c.numDevices(); ++d) m.devices[d].capacity = c.device(d).memCapacity;
  m.channelBytes.assign(static_cast<size_t>(c.numChannels()), 0);
  // The plan's traffic, as the simulator counts it (each copy once, on every channel of its route).
  for (const GpuCopy& cp : program.copies) {
    m.commBytes += cp.bytes;
    for (int ch : c.route(cp.src, cp.dst)) m.channelBytes[ch] += cp.bytes;
  }
  std::vector<int32_t> fusionGroup(static_cast<size_t>(g.numOps()), -1);
  for (const GpuLaunch& l : program.launches)
    for (OpId op : l.ops)
      if (op >= 0 && op < g.numOps()) fusionGroup[op] = l.fusionGroup;
  m.lowerBound = lowerBound(cost, fusionGroup);

  // Only the program's work counts (the executor's own fills have no external id); each record
  // is put on the cluster devices of its launch or copy, whichever GPU ran it.
  std::vector<ActivityRecord> mine;
  for (const ActivityRecord& r : records) {
    if (r.externalId == 0 || r.externalId > numL + numC) continue;
    ActivityRecord x = r;
    if (r.externalId <= numL) {
      const GpuLaunch& l = program.launches[r.externalId - 1];
      x.device = l.device;
      if (x.srcDevice >= 0) x.srcDevice = l.device;
      if (x.dstDevice >= 0) x.dstDevice = l.device;
    } else {
      const GpuCopy& cp = program.copies[r.externalId - numL - 1];
      x.device = x.device == r.dstDevice ? cp.dst : cp.src;
      if (x.srcDevice >= 0) x.srcDevice = cp.src;
      if (x.dstDevice >= 0) x.dstDevice = cp.dst;
    }
    mine.push_back(std::move(x));
  }
  if (mine.empty()) return m;
  ActivityTimelineOptions o;
  o.cluster = &c;
  o.idOf = [](const ActivityRecord& r) { return static_cast<int32_t>(r.externalId); };
  const ActivityTimeline t = toTimeline(mine, o);
  auto seconds = [&](uint64_t ns) { return static_cast<double>(ns - t.originNs) * 1e-9; };

  // Per launch and copy: from its first record's start to its last one's end.
  struct Span {
    uint64_t start = UINT64_MAX, end = 0;
    bool any() const { return end >= start; }
  };
  std::vector<Span> spans(static_cast<size_t>(numL + numC));
  std::vector<std::vector<std::pair<double, double>>> busy(static_cast<size_t>(c.numDevices()));
  for (const ActivityRecord& r : mine) {
    Span& s = spans[r.externalId - 1];
    s.start = std::min(s.start, r.start);
    s.end = std::max(s.end, r.end);
  }
  for (size_t i = 0; i < t.events.size(); ++i)  // kernel time: the launches' records on their device
    if (t.events[i].kind == TimelineEvent::Kind::Op && mine[t.recordOf[i]].externalId <= numL)
      busy[t.events[i].resource].emplace_back(t.events[i].start, t.events[i].end);
  for (uint64_t l = 0; l < numL; ++l) {
    if (!spans[l].any()) continue;  // no kernel (metadata ops)
    const GpuLaunch& launch = program.launches[l];
    for (OpId op : launch.ops)
      m.timeline.push_back({TimelineEvent::Kind::Op, op, launch.device, launch.fusionGroup, seconds(spans[l].start),
                            seconds(spans[l].end), 0});
  }
  for (uint64_t k = 0; k < numC; ++k) {
    const Span& s = spans[numL + k];
    if (!s.any()) continue;
    const GpuCopy& cp = program.copies[k];
    auto route = c.route(cp.src, cp.dst);
    m.timeline.push_back({TimelineEvent::Kind::Transfer, cp.tensor, route.empty() ? cp.src : route.front(), cp.dst,
                          seconds(s.start), seconds(s.end), cp.bytes});
  }
  std::stable_sort(m.timeline.begin(), m.timeline.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.resource != b.resource) return a.resource < b.resource;
    return a.end < b.end;
  });
  // Busy: the union of each device's kernel intervals.
  for (int d = 0; d < c.numDevices(); ++d) {
    auto& iv = busy[d];
    std::sort(iv.begin(), iv.end());
    double total = 0, from = 0, to = -1;
    for (auto [s, e] : iv) {
      if (s > to) {
        if (to > from) total += to - from;
        from = s;
        to = e;
      } else {
        to = std::max(to, e);
      }
    }
    if (to > from) total += to - from;
    m.devices[d].busy = total;
    m.devices[d].utilization = stepSeconds > 0 ? total / stepSeconds : 0;
  }
  return m;
}

GpuMeasureResult measureOnGpus(const CostModel& cost, const Plan& plan, const GpuMeasureOptions& options,
                               const ProfileProgressFn& progress, const std::atomic<bool>* cancel) {
  const Cluster& c = cost.cluster();
  if (options.steps < 1 || options.warmupSteps < 0)
    throw Error("measure", "needs at least 1 measured step and no negative warm-up");
  GpuMeasureResult r;
  r.simulated = Simulator(cost).run(plan, /*recordTimeline=*/true);
  if (!r.simulated.feasible)
    throw Error("measure", "the plan is not feasible: " + r.simulated.problem);
  const GpuProgram program = buildGpuProgram(cost, plan, r.simulated);
  std::vector<int32_t> used;
  for (int32_t d = 0; d < c.numDevices(); ++d)
    if (program.usesDevice(d)) used.push_back(d);

  std::vector<GpuInfo> gpus;
  try {
    gpus = listGpus();
  } catch (const Error& e) {
    rethrowAsMeasure(e);
  }
  if (gpus.empty()) throw Error("measure", "no NVIDIA GPU found");
  GpuRunOptions run;
  run.warmupSteps = options.warmupSteps;
  run.steps = options.steps;
  run.timer = options.timer;
  run.ordinals = ordinalsFor(c, used, options.ordinals, static_cast<int>(gpus.size()));
  if (progress)
    progress("measure: " + plural(static_cast<int64_t>(program.launches.size()), "kernel", "kernels") + " and " +
             plural(static_cast<int64_t>(program.copies.size()), "peer copy", "peer copies") + " per step on " +
             plural(static_cast<int64_t>(used.size()), "GPU", "GPUs") + ", " + std::to_string(run.warmupSteps) +
             " warm-up + " + std::to_string(run.steps) + " measured steps");
  GpuRunResult out;
  try {
    out = executeOnGpus(program, run, progress, cancel);
  } catch (const Error& e) {
    rethrowAsMeasure(e);
  }
  if (out.stepSeconds.empty()) throw Error("measure", "the GPU executor measured no step");
  int median = out.medianStep;
  if (median < 0 || median >= static_cast<int>(out.stepSeconds.size())) {  // take it ourselves
    std::vector<int> idx(out.stepSeconds.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
    const auto mid = static_cast<long>((idx.size() - 1) / 2);  // the lower middle, as the executor takes it
    std::nth_element(idx.begin(), idx.begin() + mid, idx.end(),
                     [&](int a, int b) { return out.stepSeconds[a] < out.stepSeconds[b]; });
    median = idx[static_cast<size_t>(mid)];
  }
  const double step = out.stepSeconds[median];
  r.measured = measurementFromRecords(cost, program, out.records, step);
  r.measured.lowerBound = r.simulated.lowerBound;
  r.measured.feasible = r.simulated.feasible;
  r.measured.problem = r.simulated.problem;
  for (size_t d = 0; d < r.measured.devices.size() && d < r.simulated.devices.size(); ++d)
    r.measured.devices[d].peakMemory = r.simulated.devices[d].peakMemory;
  if (!r.measured.timeline.empty()) {
    double first = r.measured.timeline.front().start, last = 0;
    for (const TimelineEvent& e : r.measured.timeline) {
      first = std::min(first, e.start);
      last = std::max(last, e.end);
    }
    r.gpuSpan = last - first;
  }
  r.stepTimes = out.stepSeconds;
  r.timer = out.timer;
  r.note = out.note;
  if (!out.gpus.empty()) {
    r.gpus = out.gpus;
  } else {
    r.gpus.resize(run.ordinals.size());
    for (size_t d = 0; d < run.ordinals.size(); ++d)
      for (const GpuInfo& gi : gpus)
        if (gi.ordinal == run.ordinals[d]) r.gpus[d] = gi;
  }
  r.devicesUsed = used;
  r.launches = static_cast<int>(program.launches.size());
  r.copies = static_cast<int>(program.copies.size());
  return r;
}

std::string gpuMeasureUnavailable(int devicesNeeded) {
  if (!profilerBuilt()) return kBuiltWithoutCuda;
  static std::mutex mutex;
  static std::optional<Discovery> cached;
  std::lock_guard lock(mutex);
  if (!cached) cached = discover();
  if (!cached->error.empty()) return cached->error;
  const auto have = static_cast<int>(cached->gpus.size());
  if (devicesNeeded > have)
    return "the plan uses " + plural(devicesNeeded, "device", "devices") + " but this machine has " +
           plural(have, "GPU", "GPUs");
  return "";
}

}  // namespace gp
