#include "profile/cuda/executor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/cupti_collector.h"
#include "profile/cuda/gpu_session.h"
#include "profile/cuda/kernel_launch.h"
#include "profile/cuda/kernels.h"
#include "profile/cuda/microbench.h"

namespace gp::prof {
namespace {

std::string gib(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (int64_t{1} << 30));
  return buf;
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

std::string gpuName(int ordinal) {
  return "gpu" + std::to_string(ordinal);
}

struct Event {
  cudaEvent_t e = nullptr;
  Event(int ordinal, bool timing) {
    checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
    checkCuda(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming), "cudaEventCreate");
  }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

struct Stream {
  cudaStream_t s = nullptr;
  explicit Stream(int ordinal) {
    checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
    checkCuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

// The CUPTI external id of the work issued while it lives.
struct ExternalId {
  explicit ExternalId(uint64_t id) { CuptiCollector::push(id); }
  ~ExternalId() { CuptiCollector::pop(); }
  ExternalId(const ExternalId&) = delete;
  ExternalId& operator=(const ExternalId&) = delete;
};

// One cluster device the program uses, on its GPU.
struct DeviceRun {
  int device = 0, ordinal = 0;
  std::unique_ptr<DeviceContext> ctx;
  std::unique_ptr<KernelLauncher> launcher;
  int64_t inputBytes = 0, outputBytes = 0, receiveBytes = 0;
  std::unique_ptr<ScratchSpace> scratch;
};

// A stream every step begins and ends on.
struct StepStream {
  cudaStream_t s = nullptr;
  int ordinal = 0;
  std::unique_ptr<Event> end;
};

[[noreturn]] void bad(const std::string& why) {
  fail("the GPU program is inconsistent: " + why);
}

// Indices in range, every launch and copy issued exactly once, after what it waits on.
void validate(const GpuProgram& p) {
  const auto numL = static_cast<int32_t>(p.launches.size()), numC = static_cast<int32_t>(p.copies.size());
  if (p.numDevices < 1) bad("it has no devices");
  if (numL == 0) bad("it has no launches");
  for (int32_t l = 0; l < numL; ++l) {
    const GpuLaunch& x = p.launches[l];
    if (x.device < 0 || x.device >= p.numDevices) bad("launch " + std::to_string(l) + " is on no device");
    for (int32_t c : x.waitCopies)
      if (c < 0 || c >= numC || p.copies[c].dst != x.device)
        bad("launch " + std::to_string(l) + " waits on copy " + std::to_string(c) + ", which does not come to it");
  }
  for (int32_t c = 0; c < numC; ++c) {
    const GpuCopy& x = p.copies[c];
    if (x.src < 0 || x.src >= p.numDevices || x.dst < 0 || x.dst >= p.numDevices || x.src == x.dst)
      bad("copy " + std::to_string(c) + " does not go between two devices");
    if (x.bytes < 0) bad("copy " + std::to_string(c) + " has negative bytes");
    if (x.after < -1 || x.after >= numL || (x.after >= 0 && p.launches[x.after].device != x.src))
      bad("copy " + std::to_string(c) + " waits on a launch that is not on its source device");
  }
  std::vector<char> launched(static_cast<size_t>(numL), 0), copied(static_cast<size_t>(numC), 0);
  for (const GpuIssue& i : p.issue) {
    if (i.copy) {
      if (i.index < 0 || i.index >= numC || copied[i.index])
        bad("the issue order has copy " + std::to_string(i.index) + " wrong");
      const int32_t after = p.copies[i.index].after;
      if (after >= 0 && !launched[after])
        bad("copy " + std::to_string(i.index) + " is issued before launch " + std::to_string(after));
      copied[i.index] = 1;
    } else {
      if (i.index < 0 || i.index >= numL || launched[i.index])
        bad("the issue order has launch " + std::to_string(i.index) + " wrong");
      for (int32_t c : p.launches[i.index].waitCopies)
        if (!copied[c]) bad("launch " + std::to_string(i.index) + " is issued before copy " + std::to_string(c));
      launched[i.index] = 1;
    }
  }
  if (std::count(launched.begin(), launched.end(), 1) != numL || std::count(copied.begin(), copied.end(), 1) != numC)
    bad("the issue order leaves launches or copies out");
}

bool enablePeer(int from, int to) {
  int can = 0;
  checkCuda(cudaDeviceCanAccessPeer(&can, from, to), "cudaDeviceCanAccessPeer");
  if (!can) return false;
  checkCuda(cudaSetDevice(from), "cudaSetDevice");
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // clear the error state
    return true;
  }
  checkCuda(e, "cudaDeviceEnablePeerAccess");
  return true;
}

class Executor {
 public:
  Executor(const GpuProgram& p, const GpuRunOptions& o, const ProfileProgressFn& progress)
      : p_(p), o_(o), progress_(progress) {}

  void run(const std::atomic<bool>* cancel, GpuRunResult& out);

 private:
  void say(const std::string& line) const {
    if (progress_) progress_(line);
  }
  void mapDevices(const std::vector<GpuInfo>& gpus, GpuRunResult& out);
  void setUpDevices();
  void setUpCopies();
  void setUpEvents();
  double step();
  void setDevice(int ordinal) {
    if (ordinal == current_) return;
    checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
    current_ = ordinal;
  }

  const GpuProgram& p_;
  const GpuRunOptions& o_;
  const ProfileProgressFn& progress_;
  std::string note_;
  std::vector<int> used_;                        // cluster devices with launches or copies
  std::vector<std::unique_ptr<DeviceRun>> run_;  // per cluster device (null when unused)
  std::map<std::pair<int, int>, std::unique_ptr<Stream>> copyStreams_;
  std::vector<std::unique_ptr<Event>> launchDone_, copyDone_;  // null where nothing waits on it
  std::vector<StepStream> streams_;
  std::unique_ptr<Event> begin_, end_;
  int current_ = -1;
};

void Executor::mapDevices(const std::vector<GpuInfo>& gpus, GpuRunResult& out) {
  const int n = p_.numDevices, count = static_cast<int>(gpus.size());
  if (!o_.ordinals.empty() && static_cast<int>(o_.ordinals.size()) != n)
    fail("the GPU ordinals list " + std::to_string(o_.ordinals.size()) + " GPU(s) for a cluster of " +
         std::to_string(n) + " devices");
  std::vector<char> uses(static_cast<size_t>(n), 0);
  for (const GpuLaunch& l : p_.launches) uses[l.device] = 1;
  for (const GpuCopy& c : p_.copies) uses[c.src] = uses[c.dst] = 1;
  for (int d = 0; d < n; ++d)
    if (uses[d]) used_.push_back(d);
  auto ordinalOf = [&](int d) { return o_.ordinals.empty() ? d : o_.ordinals[d]; };
  if (o_.ordinals.empty() && used_.back() >= count)
    fail("the plan runs on " + std::to_string(used_.size()) + " device(s), up to cluster device " +
         std::to_string(used_.back()) + ", but only " + std::to_string(count) + " GPU(s) are here");
  std::map<int, int> deviceOnGpu;
  for (int d : used_) {
    const int ord = ordinalOf(d);
    checkOrdinal(ord, count);
    if (auto [it, fresh] = deviceOnGpu.emplace(ord, d); !fresh)
      fail("cluster devices " + std::to_string(it->second) + " and " + std::to_string(d) + " both map to GPU " +
           std::to_string(ord));
  }
  out.gpus.assign(static_cast<size_t>(n), GpuInfo{});
  for (int d = 0; d < n; ++d) {
    const int ord = ordinalOf(d);
    if (ord >= 0 && ord < count)
      out.gpus[d] = gpus[ord];
    else
      out.gpus[d].ordinal = ord;
  }
  run_.resize(static_cast<size_t>(n));
  for (int d : used_) {
    auto r = std::make_unique<DeviceRun>();
    r->device = d;
    r->ordinal = ordinalOf(d);
    run_[d] = std::move(r);
  }
}

// Contexts, convolution searches (before allocating, as cuDNN advises), scratch.
void Executor::setUpDevices() {
  for (int d : used_) {
    DeviceRun& r = *run_[d];
    r.ctx = std::make_unique<DeviceContext>(r.ordinal);
    r.launcher = std::make_unique<KernelLauncher>(LaunchContext{r.ctx->stream, r.ctx->blas, r.ctx->dnn});
  }
  std::vector<int64_t> largest(static_cast<size_t>(p_.numDevices), 0);  // one launch's or copy's operands
  std::vector<int> launches(static_cast<size_t>(p_.numDevices), 0);
  for (const GpuLaunch& l : p_.launches) {
    DeviceRun& r = *run_[l.device];
    r.ctx->makeCurrent();
    r.launcher->prepare(l.kernel);
    const KernelFootprint f = kernelFootprint(l.kernel);
    r.inputBytes = std::max(r.inputBytes, f.input);
    r.outputBytes = std::max(r.outputBytes, f.output);
    largest[l.device] = std::max(largest[l.device], f.total());
    ++launches[l.device];
  }
  for (const GpuCopy& c : p_.copies) {
    DeviceRun &src = *run_[c.src], &dst = *run_[c.dst];
    src.inputBytes = std::max(src.inputBytes, c.bytes);  // sent from the input region
    dst.receiveBytes = std::max(dst.receiveBytes, c.bytes);
    largest[c.src] = std::max(largest[c.src], c.bytes);
    largest[c.dst] = std::max(largest[c.dst], c.bytes);
  }
  for (int d : used_) {
    DeviceRun& r = *run_[d];
    // The builder's estimate of the same (program.scratchBytes) differs only by alignment and
    // rounding; a larger gap means the two disagree about a kernel's operands.
    if (d < static_cast<int>(p_.scratchBytes.size())) {
      const int64_t theirs = p_.scratchBytes[d], ours = largest[d];
      if (std::abs(static_cast<double>(ours - theirs)) > 0.01 * static_cast<double>(std::max(ours, theirs)) + 4096)
        note_ += (note_.empty() ? "" : "; ") + gpuName(r.ordinal) + ": the largest op's operands are " +
                 std::to_string(ours) + " bytes here, " + std::to_string(theirs) + " bytes in the program";
    }
    r.scratch = std::make_unique<ScratchSpace>(LaunchContext{r.ctx->stream, r.ctx->blas, r.ctx->dnn}, r.ordinal,
                                               "the plan's largest op", r.inputBytes, r.outputBytes,
                                               static_cast<int64_t>(r.launcher->workspaceBytes()), r.receiveBytes);
    r.launcher->setScratch(r.scratch->kernelScratch());
    say("  " + gpuName(r.ordinal) + " runs device " + std::to_string(d) + ": " + std::to_string(launches[d]) +
        " launches, " + gib(r.scratch->totalBytes()) + " of scratch");
  }
}

void Executor::setUpCopies() {
  std::set<std::pair<int, int>> staged;
  for (const GpuCopy& c : p_.copies) {
    const std::pair<int, int> pair{c.src, c.dst};
    if (copyStreams_.count(pair)) continue;
    const int a = run_[c.src]->ordinal, b = run_[c.dst]->ordinal;
    const bool ab = enablePeer(a, b), ba = enablePeer(b, a);
    if (!ab || !ba) staged.insert({a, b});
    copyStreams_[pair] = std::make_unique<Stream>(a);
  }
  if (!staged.empty()) {
    std::string s = "no peer access (copies staged through the host):";
    for (auto [a, b] : staged) {
      s += ' ';
      s += gpuName(a) + "->" + gpuName(b);
    }
    note_ += (note_.empty() ? "" : "; ") + s;
    say("  " + s);
  }
}

void Executor::setUpEvents() {
  launchDone_.resize(p_.launches.size());
  copyDone_.resize(p_.copies.size());
  for (const GpuCopy& c : p_.copies)
    if (c.after >= 0 && !launchDone_[c.after])
      launchDone_[c.after] = std::make_unique<Event>(run_[c.src]->ordinal, false);
  for (const GpuLaunch& l : p_.launches)
    for (int32_t c : l.waitCopies)
      if (!copyDone_[c]) copyDone_[c] = std::make_unique<Event>(run_[p_.copies[c].src]->ordinal, false);
  for (int d : used_) {
    const DeviceRun& r = *run_[d];
    streams_.push_back({r.ctx->stream, r.ordinal, std::make_unique<Event>(r.ordinal, false)});
  }
  for (auto& [pair, s] : copyStreams_) {
    const int ord = run_[pair.first]->ordinal;
    streams_.push_back({s->s, ord, std::make_unique<Event>(ord, false)});
  }
  begin_ = std::make_unique<Event>(streams_.front().ordinal, true);
  end_ = std::make_unique<Event>(streams_.front().ordinal, true);
  current_ = -1;
}

double Executor::step() {
  const StepStream& first = streams_.front();
  setDevice(first.ordinal);
  checkCuda(cudaEventRecord(begin_->e, first.s), "cudaEventRecord");
  for (size_t i = 1; i < streams_.size(); ++i) {
    setDevice(streams_[i].ordinal);
    checkCuda(cudaStreamWaitEvent(streams_[i].s, begin_->e, 0), "cudaStreamWaitEvent");
  }
  for (const GpuIssue& is : p_.issue) {
    if (!is.copy) {
      const GpuLaunch& l = p_.launches[is.index];
      DeviceRun& r = *run_[l.device];
      setDevice(r.ordinal);
      for (int32_t c : l.waitCopies)
        checkCuda(cudaStreamWaitEvent(r.ctx->stream, copyDone_[c]->e, 0), "cudaStreamWaitEvent");
      {
        const ExternalId id(launchExternalId(p_, is.index));
        r.launcher->launch(l.kernel);
      }
      if (launchDone_[is.index]) checkCuda(cudaEventRecord(launchDone_[is.index]->e, r.ctx->stream), "cudaEventRecord");
    } else {
      const GpuCopy& c = p_.copies[is.index];
      const DeviceRun &src = *run_[c.src], &dst = *run_[c.dst];
      const cudaStream_t s = copyStreams_.at({c.src, c.dst})->s;
      setDevice(src.ordinal);
      if (c.after >= 0) checkCuda(cudaStreamWaitEvent(s, launchDone_[c.after]->e, 0), "cudaStreamWaitEvent");
      {
        const ExternalId id(copyExternalId(p_, is.index));
        checkCuda(cudaMemcpyPeerAsync(dst.scratch->receive(), dst.ordinal, src.scratch->input(), src.ordinal,
                                      static_cast<size_t>(c.bytes), s),
                  "cudaMemcpyPeerAsync");
      }
      if (copyDone_[is.index]) checkCuda(cudaEventRecord(copyDone_[is.index]->e, s), "cudaEventRecord");
    }
  }
  for (size_t i = 1; i < streams_.size(); ++i) {
    setDevice(streams_[i].ordinal);
    checkCuda(cudaEventRecord(streams_[i].end->e, streams_[i].s), "cudaEventRecord");
  }
  setDevice(first.ordinal);
  for (size_t i = 1; i < streams_.size(); ++i)
    checkCuda(cudaStreamWaitEvent(first.s, streams_[i].end->e, 0), "cudaStreamWaitEvent");
  checkCuda(cudaEventRecord(end_->e, first.s), "cudaEventRecord");
  checkCuda(cudaEventSynchronize(end_->e), "the step");
  float elapsedMs = 0;
  checkCuda(cudaEventElapsedTime(&elapsedMs, begin_->e, end_->e), "cudaEventElapsedTime");
  return static_cast<double>(elapsedMs) * 1e-3;
}

void Executor::run(const std::atomic<bool>* cancel, GpuRunResult& out) {
  auto checkCancel = [&] {
    if (cancel && cancel->load()) fail("cancelled");
  };
  out = GpuRunResult{};
  validate(p_);
  const std::vector<GpuInfo> gpus = discoverGpus();
  mapDevices(gpus, out);
  say("running " + std::to_string(p_.launches.size()) + " launches and " + std::to_string(p_.copies.size()) +
      " copies per step on " + std::to_string(used_.size()) + " GPU(s)");
  setUpDevices();
  checkCancel();
  setUpCopies();
  setUpEvents();

  const CuptiSession cupti(o_.timer);  // after the set-up: its API calls are not traced
  out.timer = cupti.timerName();
  if (!cupti.note().empty()) {
    say("warning: " + cupti.note() + "; timing with CUDA events instead (no timeline)");
    note_ = cupti.note() + (note_.empty() ? "" : "; " + note_);
  }
  const uint64_t dropped = CuptiCollector::droppedRecords();
  const uint64_t incomplete = CuptiCollector::incompleteRecords();
  for (int i = 0; i < o_.warmupSteps; ++i) {
    checkCancel();
    const double t = step();
    if (i == 0) say("warm-up: " + std::to_string(o_.warmupSteps) + " step(s), the first " + ms(t));
  }
  if (cupti.on()) CuptiCollector::take();  // drop the warm-up's records
  std::vector<std::vector<ActivityRecord>> records;
  for (int i = 0; i < o_.steps; ++i) {
    checkCancel();
    const double t = step();
    out.stepSeconds.push_back(t);
    records.push_back(cupti.on() ? CuptiCollector::take() : std::vector<ActivityRecord>{});
    say("step " + std::to_string(i + 1) + "/" + std::to_string(o_.steps) + ": " + ms(t));
  }
  std::vector<int> byTime(out.stepSeconds.size());
  std::iota(byTime.begin(), byTime.end(), 0);
  std::sort(byTime.begin(), byTime.end(), [&](int a, int b) { return out.stepSeconds[a] < out.stepSeconds[b]; });
  out.medianStep = byTime[(byTime.size() - 1) / 2];
  out.records = std::move(records[out.medianStep]);
  if (const uint64_t lost = CuptiCollector::droppedRecords() - dropped)
    note_ += (note_.empty() ? "" : "; ") + std::to_string(lost) + " CUPTI records dropped";
  if (const uint64_t bad = CuptiCollector::incompleteRecords() - incomplete)
    note_ += (note_.empty() ? "" : "; ") + std::to_string(bad) + " CUPTI records without timestamps left out";
  out.note = note_;
}

}  // namespace

void executeProgram(const GpuProgram& program, const GpuRunOptions& options, const ProfileProgressFn& progress,
                    const std::atomic<bool>* cancel, GpuRunResult& out) {
  if (options.steps < 1 || options.warmupSteps < 0) fail("needs at least 1 measured step and no negative warm-up");
  Executor(program, options, progress).run(cancel, out);
}

}  // namespace gp::prof
