// graphplace-cli measure: one step of a placed model run on the local GPUs (the profiler
// plugin's executor, profile/gpu_measure.h) beside the simulator's step: simulated vs measured
// step time and their difference, the measured steps (min / median / max), per device the
// measured busy time and utilization, the timer used; --trace writes the MEASURED timeline as
// a Chrome / Perfetto trace, --json a report. The plan: --placement FILE, --method NAME (a
// baseline placer) or, by default, everything on the cluster's first device. Throws gp::Error
// ("measure: ..." when the GPUs cannot run it: built without CUDA, no driver, too few GPUs) or
// std::invalid_argument for bad input; main prints one line and exits 1.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runMeasure(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli
