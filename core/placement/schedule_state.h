// The partial schedule a list scheduler (m-ETF, m-SCT, HEFT) builds as it places ops one at a
// time: device, start and finish per op; the transfers those placements need, reserved on the
// cluster's channels with the simulator's semantics; the live memory of each device as the
// schedule proceeds (MemoryTracker, placement_util.h). Not public: shared by list_schedulers.cpp
// and its tests.
//
// Transfers follow core/sim/simulator.h: a tensor read on another device is sent once per
// destination device; it leaves its producer's device when the producer finishes (a parameter
// leaves its home, the device of its first consumer, at time 0); a transfer holds every channel
// of its route for routeLatency + bytes / routeBandwidth. The simulator sends eagerly, in the
// order producers finish, so a transfer decided late may still have gone through an earlier
// idle gap of its channels: reservations are inserted into the earliest gap at or after the
// tensor exists, not appended after the last reservation.
//
// Every estimate only grows as reservations are added (a gap can only shrink), which the
// schedulers' lazy priority queues rely on; epoch(d) changes whenever an estimate on d may have.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "placement/placement_util.h"

namespace gp::placement {

// Earliest t >= ready with [t, t + w) free in `busy` (disjoint intervals start -> end). Scans a
// bounded number of intervals, then appends after the last one: never earlier than the true
// earliest gap, and never earlier when intervals are added.
double earliestGap(const std::map<double, double>& busy, double ready, double w);

class ScheduleState {
 public:
  explicit ScheduleState(const Context& ctx);

  int32_t unit(OpId op) const { return ctx_.units.unitOf[op]; }
  // The op's unit is on d already, or is free (no pin, no op placed yet).
  bool allowed(OpId op, int d) const { return unitDev_[unit(op)] < 0 || unitDev_[unit(op)] == d; }
  // What placing op on d allocates (its outputs, inputs not on d yet, its unit's resident bytes
  // if the unit is new) fits what d has free at this point of the schedule.
  bool fits(OpId op, int d) const { return mem_.fits(op, d); }
  // Every parameter op reads lives on d, or its home (the device of its first consumer) is not
  // decided yet. The simulator sends a parameter read elsewhere at time 0, ahead of every
  // activation on its channels: a transfer the schedule, built forward in time, cannot account for.
  bool readsParamsOn(OpId op, int d) const {
    for (int32_t i = paramOff_[op]; i < paramOff_[op + 1]; ++i)
      if (dev[paramOwners_[i]] >= 0 && dev[paramOwners_[i]] != d) return false;
    return true;
  }
  bool usable(OpId op, int d) const { return allowed(op, d) && fits(op, d) && readsParamsOn(op, d); }
  // Where an op goes when no device has room: its unit's device, else the one it overfills least.
  int fallbackDevice(OpId op) const;

  // When every input of op would be on d if op were placed there now (the state is unchanged).
  double dataReady(OpId op, int d) { return inputsReady(op, d, /*commit=*/false); }
  // Reserves the transfers op needs on d; returns when its inputs are there.
  double reserveInputs(OpId op, int d) { return inputsReady(op, d, /*commit=*/true); }
  // Puts op on d from `at` (its inputs reserved already) and allocates its memory on d.
  void assign(OpId op, int d, double at);
  // Both: op on d at max(at, its data-ready time); returns the start.
  double place(OpId op, int d, double at) {
    assign(op, d, std::max(at, reserveInputs(op, d)));
    return start[op];
  }
  // Changes whenever a reservation may have moved dataReady(., d).
  uint64_t epoch(int d) const { return epoch_[d]; }
  const MemoryTracker& memory() const { return mem_; }

  bool placed(OpId op) const { return dev[op] >= 0; }
  double makespan() const { return makespan_; }
  // Devices, and priorities in the order of predicted start times (ties: topological order), so
  // that each device of the simulator runs its ready ops in the schedule's order.
  Plan plan() const;

  std::vector<int32_t> dev;          // per op, -1 until placed
  std::vector<double> start, finish;  // per op, predicted

 private:
  double inputsReady(OpId op, int d, bool commit);
  // Arrival on d of tensor t sent from src once it exists (`from`); records what it reserves.
  double arrival(TensorId t, int src, double from, int d);
  void undo();

  const Context& ctx_;
  std::vector<int32_t> paramOff_, paramOwners_;  // CSR per op: owners of the parameters it reads
  std::vector<int32_t> unitDev_;
  MemoryTracker mem_;
  std::vector<std::map<double, double>> channelBusy_;  // per channel: start -> end
  std::vector<std::vector<int>> channelDests_;          // per channel: devices whose inbound routes use it
  std::vector<uint64_t> epoch_;
  std::unordered_map<int64_t, double> sent_;            // tensor * n + device -> arrival
  // What the current dry run reserved, to undo.
  std::vector<std::pair<int, double>> undoChannels_;
  std::vector<int64_t> undoSent_;
  double makespan_ = 0;
};

}  // namespace gp::placement
