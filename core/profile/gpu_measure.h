// Real re-measure: one step of a placed graph on the local GPUs (the CUDA plugin's executor),
// compared with the simulator. CUDA-free front: builds the GpuProgram (profile/gpu_program.h),
// runs it through the plugin (profile/profile_plugin.h) and turns the median step's CUPTI
// records into a Measurement with a real Timeline (ops on their cluster device, peer copies as
// transfers), so every view that shows a simulated step can show the measured one.
//
//   GpuMeasureResult r = measureOnGpus(cost, plan, {}, say, &cancel);
//   r.measured.stepTime;  r.simulated.stepTime;  r.difference();   // (measured - sim) / sim
//
// Errors (gp::Error("measure", one line)): built without CUDA, plugin missing, no driver, no
// GPU, fewer GPUs than the plan's devices, infeasible plan, cancelled.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "profile/gpu_program.h"
#include "profile/gpu_run.h"
#include "sim/measurement.h"
#include "sim/plan.h"

namespace gp {

struct GpuMeasureOptions {
  int warmupSteps = 3;
  int steps = 10;
  std::vector<int> ordinals;  // CUDA ordinal per cluster device; empty: device d on GPU d
  ProfileTimer timer = ProfileTimer::Auto;
};

struct GpuMeasureResult {
  Measurement simulated;        // the simulator's step (with its timeline)
  Measurement measured;         // stepTime: median measured step; timeline from CUPTI (empty
                                // with CUDA events); devices[].busy/utilization from it;
                                // lowerBound, memory, feasible as simulated
  std::vector<double> stepTimes;  // every measured step, seconds
  std::string timer, note;
  std::vector<GpuInfo> gpus;      // per cluster device: the GPU that ran it (unused ones: the first used GPU)
  std::vector<int32_t> devicesUsed;  // cluster devices that ran kernels or copies, ascending
  // The median step's GPU span (CUPTI): first kernel or copy start to last end. The step time
  // (events around the whole step) also holds the host's issuing of the step's calls when
  // the host cannot keep ahead of the GPU; the span does not. 0 without a timeline.
  double gpuSpan = 0;
  int launches = 0, copies = 0;   // kernels-or-groups and peer copies per step
  double difference() const {
    return simulated.stepTime > 0 ? (measured.stepTime - simulated.stepTime) / simulated.stepTime : 0;
  }
};

GpuMeasureResult measureOnGpus(const CostModel& cost, const Plan& plan, const GpuMeasureOptions& options = {},
                               const ProfileProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The CUPTI records of one step of `program` -> the measured Measurement's timeline and busy
// times (pure; tested without a GPU): a launch's kernels become one Op event per op of the
// launch (dst = its fusion group or -1) from the first kernel's start to the last one's end;
// a copy's record becomes a Transfer event of its tensor (resource: the first channel of the
// cluster's route, as the simulator has it). Times are from the earliest record.
Measurement measurementFromRecords(const CostModel& cost, const GpuProgram& program,
                                   const std::vector<ActivityRecord>& records, double stepSeconds);

// "" when Measure on GPUs can run a plan on `devicesNeeded` devices here, else the reason in
// one line (built without CUDA, plugin not loadable, no driver, no GPU, only N GPUs). Cheap
// after the first call (device discovery is cached).
std::string gpuMeasureUnavailable(int devicesNeeded);

}  // namespace gp
