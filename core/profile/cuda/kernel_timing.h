// Timing single representative kernels (plugin only), the measurements of `profile --model`:
// each kernel alone on one GPU, 3 warm-up launches then `repetitions` back to back on one
// stream, timed with BenchTimer as the microbenchmarks are (KernelBench::seconds: the median
// start-to-start interval, launch cost included: what the simulator charges per op). Identical
// kernels are timed once; a kernel of kind None takes 0 s. Progress every 50 kernels; `cancel`
// is polled between kernels ("cancelled").
#pragma once
#include <atomic>
#include <vector>

#include "profile/gpu_program.h"
#include "profile/gpu_run.h"
#include "profile/profile_result.h"

namespace gp::prof {

// out[i] = seconds of kernels[i].
void timeKernelList(const std::vector<GpuKernel>& kernels, const KernelTimingOptions& options,
                    const ProfileProgressFn& progress, const std::atomic<bool>* cancel, std::vector<double>& out);

}  // namespace gp::prof
