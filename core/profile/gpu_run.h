// What the CUDA plugin's executor takes and gives back (plain data, CUDA-free): the options of
// one real re-measure and the raw result, before profile/gpu_measure turns it into a
// Measurement. Also the request of `profile --model`: time a list of representative kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "profile/activity.h"
#include "profile/profile_result.h"

namespace gp {

struct GpuRunOptions {
  int warmupSteps = 3;           // unmeasured steps first (allocation, cuBLAS/cuDNN plans, clocks)
  int steps = 10;                // measured steps; the result is their median
  std::vector<int> ordinals;     // CUDA ordinal per cluster device; empty: device d runs on GPU d
  ProfileTimer timer = ProfileTimer::Auto;  // CUPTI gives the timeline; events give step times only
};

struct GpuRunResult {
  std::vector<double> stepSeconds;       // every measured step (CUDA events around the whole step)
  int medianStep = -1;                   // index into stepSeconds of the median step
  std::vector<ActivityRecord> records;   // CUPTI records of the median step (empty with events)
  std::string timer;                     // "cupti" or "cuda-events"
  std::string note;                      // why events were used; dropped records; ...
  std::vector<GpuInfo> gpus;             // per cluster device the GPU that ran it (unused devices too)
};

// Timing of single kernels (profile --model): each kernel back to back on one stream, like
// the microbenchmarks (KernelBench::seconds: median start-to-start interval).
struct KernelTimingOptions {
  int ordinal = 0;
  int repetitions = 20;          // per kernel, after 3 warm-up launches
  ProfileTimer timer = ProfileTimer::Auto;
};

}  // namespace gp
