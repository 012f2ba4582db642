// Shared by the placers (not public): placement units (colocation groups contracted), the
// per-op figures placers weigh, and the memory repair every placer's plan goes through.
#pragma once
#include <cstdint>
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
  std::vector<int64_t> mem;           // per op: parameter bytes + output bytes (kept to the end)
  std::vector<int32_t> topoPos;       // per op: index in g.topoOrder()
  Units units;

  Context(const CostModel& cm, Simulator& s);
  int64_t capacity(int d) const { return c.device(d).memCapacity; }
  int largestDevice() const;          // most memory, lowest index on ties
};

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
