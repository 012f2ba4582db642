// Plan: what every producer (baseline, optimizer, hand edit, imported file) hands the
// simulator: a device per op, and optionally a priority and a fusion group per op.
#pragma once
#include <cstdint>
#include <vector>

namespace gp {

struct Plan {
  std::vector<int32_t> device;       // per op: device index in the cluster
  std::vector<int32_t> priority;     // empty: FIFO ready queues; else per op, higher runs first
  std::vector<int32_t> fusionGroup;  // empty: no fusion; else per op, -1 = not fused

  bool operator==(const Plan&) const = default;

  static Plan singleDevice(int32_t numOps, int32_t device = 0) {
    return Plan{std::vector<int32_t>(static_cast<size_t>(numOps), device), {}, {}};
  }
};

}  // namespace gp
