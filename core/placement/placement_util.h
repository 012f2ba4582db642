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

// Live memory per device while a placer assigns ops one at a time, with the simulator's
// accounting (sim/simulator.h) played in placement order: an op's unit's resident bytes
// (Graph::paramBytes: parameters, Adam moments) are charged to its device when the unit's first
// op is placed; an op's outputs are allocated on its device when it is placed; a tensor read on
// another device is allocated there when its first reader there is placed (a parameter's home is
// its first consumer's device, as in the simulator); outputs nobody reads are kept to the end.
// The simulator frees a copy after its last use on that device; the tracker, not knowing where
// later consumers go, frees every copy of a tensor once all its consumers are placed. Placing ops
// in start order (the list schedulers) or topological order (m-TOPO), used(d) follows the live
// memory of d over the step, and peak(d) its high-water mark.
class MemoryTracker {
 public:
  explicit MemoryTracker(const Context& ctx);
  // Bytes placing op on d would add now: its outputs, its inputs not yet on d, and its unit's
  // resident bytes if the unit is not placed yet.
  int64_t need(OpId op, int d) const;
  bool fits(OpId op, int d) const { return need(op, d) <= room(d); }
  void place(OpId op, int d);
  int64_t used(int d) const { return used_[d]; }
  int64_t peak(int d) const { return peak_[d]; }
  int64_t room(int d) const { return budget_[d] - used_[d]; }
  int devices() const { return static_cast<int>(used_.size()); }

 private:
  bool needsCopy(TensorId t, int d) const;
  void allocate(TensorId t, int d);

  const Context& ctx_;
  std::vector<int64_t> budget_, used_, peak_;
  std::vector<uint8_t> on_;           // tensor * n + device: a copy is (or will be) there
  std::vector<int32_t> remaining_;    // per tensor: consumer slots not placed yet
  std::vector<int32_t> home_;         // per tensor: its producer's (a parameter's owner's) device
  std::vector<uint8_t> charged_;      // per unit: resident bytes charged
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
