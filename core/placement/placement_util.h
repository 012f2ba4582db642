// Shared by the placers (not public): placement units (colocation groups contracted), the
// per-op figures placers weigh, and the memory repair every placer's plan goes through.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "sim/plan.h"
#include "sim/simulator.h"

namespace gp::placement {

// A unit is what a placer moves: a colocation group, or one free op.
struct Units {
  std::vector<int32_t> unitOf;        // per op
  std::vector<int32_t> off, ops;      // CSR: ops of each unit, in topological order
  std::vector<int32_t> order;         // units by the topological position of their first op
  std::vector<int32_t> pinned;        // per unit: requested device, or -1
  std::vector<double> time;           // per unit: sum of its ops' average time
  std::vector<int64_t> mem;           // per unit: sum of its ops' memory estimate
  std::vector<int64_t> params;        // per unit: resident bytes (parameters, Adam moments)
  // Families: a unit together with the units of its backward / update ops (Graph::forwardOf),
  // which read its activations: moved as one they take those activations with them.
  std::vector<int32_t> famOff, famUnits;  // CSR: units of each family, in topological order
  int32_t size() const { return static_cast<int32_t>(pinned.size()); }
};

struct Context {
  const CostModel& cost;
  const Graph& g;
  const Cluster& c;
  Simulator& sim;
  int n;                              // devices
  std::vector<double> avgTime;        // per op: mean time over the devices
  // Per op: parameter bytes + output bytes, every output kept to the end of the step. An upper
  // bound, for weighing units against each other (repair, memory-balanced fill); the placers'
  // live-memory model is MemoryTracker.
  std::vector<int64_t> mem;
  std::vector<int32_t> topoPos;       // per op: index in g.topoOrder()
  Units units;

  Context(const CostModel& cm, Simulator& s);
  int64_t capacity(int d) const { return c.device(d).memCapacity; }
  int largestDevice() const;          // most memory, lowest index on ties
};

// Memory per device over the step while a placer assigns ops one at a time, with the
// simulator's accounting (sim/simulator.h). Placement order stands in for time: step k is the
// k-th op placed, and each device keeps its memory at every step so far (a segment tree with
// range add and range max), so that a decision can charge the past:
// - a unit's resident bytes (Graph::paramBytes: parameters, Adam moments) from step 0, when its
//   first op is placed; a parameter read away from home (its first consumer's device) and a
//   graph input are on each device that reads them from step 0 too;
// - an op's outputs from its own step; a tensor read on another device from its producer's step
//   (the simulator sends it when it is produced);
// - each copy until its last reader on that device (the home copy at least until its producer's
//   step, when it is sent). Where later readers go is unknown until every reader of the tensor is
//   placed: until then each copy is kept, then the steps after its last use there are given back.
//   Outputs nobody reads are kept to the end.
// Placing ops in start order (the list schedulers) or topological order (m-TOPO), peak(d) is the
// simulator's peak memory of d up to the order of events.
class MemoryTracker {
 public:
  explicit MemoryTracker(const Context& ctx);
  // By how much placing op on d now would take d over its capacity at the worst step it
  // charges (<= 0: it fits).
  int64_t overflow(OpId op, int d) const;
  bool fits(OpId op, int d) const { return overflow(op, d) <= 0; }
  // The device op takes d least over its capacity on (lowest index on ties).
  int leastOverflow(OpId op) const;
  void place(OpId op, int d);
  int64_t used(int d) const;                        // at the current step
  int64_t peak(int d) const;                        // over every step so far
  int64_t room(int d) const { return capacity_[d] - used(d); }
  int devices() const { return static_cast<int>(capacity_.size()); }

 private:
  // Range add / range max over steps [0, steps].
  class Timeline {
   public:
    explicit Timeline(int32_t steps);
    void add(int32_t from, int64_t bytes) { add(1, 0, size_ - 1, from, bytes); }  // steps >= from
    int64_t max(int32_t lo, int32_t hi) const { return max(1, 0, size_ - 1, lo, hi); }
    int64_t peak() const { return top_[1]; }

   private:
    void add(int node, int32_t l, int32_t r, int32_t from, int64_t bytes);
    int64_t max(int node, int32_t l, int32_t r, int32_t lo, int32_t hi) const;
    int32_t size_;
    std::vector<int64_t> top_, lazy_;  // per node: max of its range (its own adds included), pending add
  };
  // What placing op on d adds: `total` bytes, of which `early` are charged from step `from`
  // (before the current one).
  struct Need {
    int64_t total = 0, early = 0;
    int32_t from = 0;
  };
  Need need(OpId op, int d) const;
  size_t at(TensorId t, int d) const { return static_cast<size_t>(t) * capacity_.size() + d; }
  void charge(TensorId t, int d, int32_t from);

  const Context& ctx_;
  std::vector<int64_t> capacity_;
  std::vector<Timeline> mem_;          // per device
  int32_t step_ = 0;                   // ops placed so far
  std::vector<int32_t> stepOf_;        // per op: its step, -1 until placed
  std::vector<int32_t> lastUse_;       // tensor * n + device: step of its last reader there, -1: no copy
  std::vector<int32_t> remaining_;     // per tensor: consumer slots not placed yet
  std::vector<int32_t> home_;          // per tensor: its producer's (a parameter's owner's) device
  std::vector<uint8_t> charged_;       // per unit: resident bytes charged
  mutable std::vector<uint32_t> seen_;  // per tensor: stamp of the last visit (duplicate inputs)
  mutable uint32_t stamp_ = 0;
};

// Per-device peak memory of `plan` if its ops ran one at a time in `order` (a topological order),
// with the simulator's accounting: resident bytes from the start, outputs allocated when their op
// starts, a tensor sent to every other device that reads it when its producer finishes (a
// parameter at the start) and each copy freed after its last reader on that device. The
// simulator runs devices in parallel; this serial replay is its estimate.
std::vector<int64_t> estimatePeakMemory(const Context& ctx, const Plan& plan, std::span<const OpId> order);

// Cluster device index for a requested device name, or -1 ("gpu:1", "/device:GPU:1" -> "gpu1").
int resolveDevice(const Cluster& c, const std::string& requested);

// Puts every unit on one device: its pin if it has one, else the device of its first op.
void enforceUnits(const Context& ctx, Plan& plan);

// Simulates `plan`; while a device is over its memory, moves families (their unpinned units, in
// topological order) off the most over-full device onto the one with the most room. True if
// feasible.
bool repairMemory(const Context& ctx, Plan& plan, Measurement& m, std::string& note);

// Fills devices in topological order up to an equal share of the estimated memory: the
// fallback when a placer's plan cannot be repaired.
Plan memoryBalancedPlan(const Context& ctx);

// Placers (one per method; `note` gets anything worth telling the user).
Plan placeSingle(const Context& ctx, std::string& note);
Plan placeRoundRobin(const Context& ctx, std::string& note);
Plan placeExpert(const Context& ctx, std::string& note);
Plan placeMetis(const Context& ctx, std::string& note);
Plan placeTopo(const Context& ctx, std::string& note);
Plan placeEtf(const Context& ctx, std::string& note);
Plan placeSct(const Context& ctx, std::string& note);
Plan placeHeft(const Context& ctx, std::string& note);

}  // namespace gp::placement
