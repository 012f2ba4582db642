// Why a simulated step takes as long as it does: its critical path and every op's slack.
//
// The step is read back from a Measurement's timeline as a graph of the work that ran: kernels
// (sim/kernels.h: an op, or a fusion group run as one) and transfers (a tensor sent to one other
// device, holding every channel of its route). Its edges are of two kinds:
//  - data: a kernel after the kernels and transfers that bring its inputs (a graph input or a
//    parameter resident on the kernel's device is there at time 0); a transfer after the kernel
//    that made the tensor (a parameter is sent at time 0);
//  - order: on each device, a kernel after the one that ran before it there; on each channel, a
//    transfer after the one that held it before.
// The simulator starts everything as soon as both kinds allow, so each start equals the end of
// one of its predecessors (or 0). The critical path is found backwards from the last thing to
// finish: at each step, the input that arrived last when the start is set by data, else the
// kernel or transfer the device or channel was busy with. It runs without a gap from 0 to the
// step time, so its compute and transfer times add up to the step time.
//
// Slack, with every device and channel keeping the order it ran in: how much later a kernel or
// transfer could finish without lengthening the step (latest finish, computed backwards over
// both kinds of edges, minus the simulated finish). An op's slack is its kernel's; the ops of the
// critical path have slack 0. Memory never delays work in this simulator (a plan over a device's
// memory is reported infeasible instead), so it is never a cause on the path; whether a kernel
// on the path is limited by memory bandwidth rather than by its compute rate is reported.
//
//   Simulator sim(cost);
//   Measurement m = sim.run(plan);            // with the timeline
//   StepAnalysis a = analyzeStep(cost, plan, m);
//   for (const PathStep& s : a.path) ...      // first to last
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

struct PathStep {
  enum class Kind : uint8_t { Kernel, Transfer };
  // What set this step's start: time 0, its input (a kernel's last input to arrive, a transfer's
  // producer finishing), its device busy with the kernel before it, a channel of its route busy
  // with the transfer before it.
  enum class Via : uint8_t { Start, Data, DeviceQueue, LinkBusy };
  Kind kind = Kind::Kernel;
  Via via = Via::Start;
  int32_t id = -1;       // Kernel: its first op (the kernel's id); Transfer: the tensor
  int32_t device = -1;   // Kernel: its device; Transfer: the source device
  int32_t dst = -1;      // Transfer: the destination device
  int32_t channel = -1;  // Transfer: the route's bottleneck channel (slowest, first of equals)
  int32_t waitedOn = -1; // Transfer entered through LinkBusy: the channel that was busy
  double ready = 0;      // Kernel: when its last input arrived; Transfer: when it was sent
  double start = 0, end = 0;
  bool memoryBound = false;  // Kernel: limited by memory bandwidth (roofline; not for calibrated times)
  int64_t bytes = 0;         // Transfer
  double waited() const { return start - ready; }  // behind other work on the device or a channel
};

struct StepAnalysis {
  double stepTime = 0;
  std::vector<PathStep> path;  // first to last; empty for a plan that did not run
  // Per op: seconds it could finish later without lengthening the step (0 on the critical path).
  std::vector<double> opSlack;
  // The path's time: kernels per device (and the part of it in memory-bound kernels), transfers
  // per bottleneck channel; sum(computeByDevice) + sum(transferByChannel) == stepTime.
  std::vector<double> computeByDevice, memoryBoundByDevice, transferByChannel;
  // Waits of the path's steps entered through a busy resource, per device (kernels ready but
  // queued behind other kernels) and per blocking channel (transfers behind other transfers):
  // the seconds during which at least one such step was waiting (their waits can overlap: a
  // gradient ready early may wait through many of the kernels before it), at most the step time.
  std::vector<double> queuedByDevice, linkBusyByChannel;
  double computeTime() const;
  double transferTime() const;
};

// `m` must come from Simulator::run(plan) with the timeline recorded. Throws gp::Error when the
// plan did not run (a plan problem or a deadlock: no timeline to read) or the timeline is not of
// this plan.
StepAnalysis analyzeStep(const CostModel& cost, const Plan& plan, const Measurement& m);

// What changed on the critical path between two steps of one graph on one cluster: per part and
// resource, after - before in seconds, the largest changes first (changes under 1e-9 of the
// longer step left out).
struct PathDelta {
  enum class Part : uint8_t { Compute, Transfer, Queued, LinkBusy };
  Part part;
  int32_t resource;  // a device (Compute, Queued) or a channel (Transfer, LinkBusy)
  double seconds;
};
std::vector<PathDelta> pathDeltas(const StepAnalysis& before, const StepAnalysis& after);

// "compute", "data", "queued on device", "link busy": how a path step's start was set, in words.
std::string viaName(PathStep::Via via);

// Where a path step ran: its device ("gpu0"), or a transfer's source and destination ("gpu0->gpu1").
std::string stepPlace(const Cluster& c, const PathStep& s);
// What it ran: the kernel's op, or the tensor a transfer carried.
std::string stepName(const Graph& g, const PathStep& s);

}  // namespace gp
