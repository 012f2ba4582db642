// Discrete-event simulation of one step of a graph on a cluster under a Plan.
//
// Semantics (docs/internals.md, "Simulator"): one kernel at a time per device; ready
// kernels in FIFO order, or highest priority first when the plan has priorities; a tensor
// read on another device is sent once per destination device, a transfer holds every
// directed channel of its route (one transfer per channel direction at a time) and overlaps
// compute; the ops of a fusion group run as one kernel (one launch, summed FLOPs, only the
// group's boundary tensors touch memory); parameters stay resident on the device of the op
// that owns them, activations live from their producer's start to their last use on a device.
#pragma once
#include <cstdint>
#include <vector>

#include "cost/cost_model.h"
#include "sim/kernels.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

class Simulator {
 public:
  explicit Simulator(const CostModel& cost);

  // Simulates one step. Buffers are reused across calls; not thread-safe (one per thread).
  Measurement run(const Plan& plan, bool recordTimeline = true);
  // The same, reusing `out`'s storage (the optimizer's hot path).
  void run(const Plan& plan, Measurement& out, bool recordTimeline);

 private:
  struct Copy {        // a tensor on one device
    int32_t device;
    int32_t uses;      // consumer kernels (and outgoing transfers) still to read it
  };
  struct Event {
    double time;
    uint64_t seq;
    int32_t kind;      // 0: kernel end (a = task), 1: transfer end (a = tensor, b = device)
    int32_t a, b;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };

  void buildCopies(const Plan& plan);
  Copy* copyOn(TensorId t, int32_t device);
  void allocate(int32_t device, int64_t bytes);
  void release(Copy* c, TensorId t);
  void makeReady(int32_t task);
  void arrive(TensorId t, int32_t device);
  void sendFrom(TensorId t, int32_t srcDevice, double now, Measurement& m, bool record);
  void startReady(int32_t device, double now, Measurement& m, bool record);
  void finishTask(int32_t task, double now, Measurement& m, bool record);
  double taskDuration(int32_t task);
  void pushEvent(double time, int32_t kind, int32_t a, int32_t b);

  const CostModel& cost_;
  const Graph& g_;
  const Cluster& c_;
  const Plan* plan_ = nullptr;
  // per-run buffers, sized once
  PlanKernels kernels_;  // the plan's kernels (sim/kernels.h): a task is a kernel
  KernelWorkScratch kernelScratch_;
  std::vector<int32_t> pending_, stamp_;
  std::vector<int32_t> copyOff_;
  std::vector<Copy> copies_;
  std::vector<int32_t> home_;  // per tensor: device holding the original (-1: graph input)
  std::vector<int32_t> arriveMark_, releaseMark_;
  std::vector<TensorId> inPlaceInput_;     // per op: the input it may overwrite, kNone if none
  std::vector<OpId> donatedBy_;            // per tensor: the op that wrote over it this run
  double lowerBound_ = 0;
  std::vector<std::vector<std::pair<uint64_t, int32_t>>> ready_;  // per device heap of (key, task)
  std::vector<uint8_t> busy_;
  std::vector<double> channelFree_;
  std::vector<int64_t> memNow_;
  std::vector<Event> events_;
  uint64_t seq_ = 0;
  int32_t doneTasks_ = 0;
  Measurement* m_ = nullptr;
};

}  // namespace gp
