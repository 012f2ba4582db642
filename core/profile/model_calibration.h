// Calibration of one model's ops on the local GPUs (`graphplace-cli profile --model`): every
// distinct op signature of the graph (CalibrationTable::signature: op type, input shapes,
// dtype, device kind) is timed as the kernel the GPU executor would run for it (kernelForOp),
// so the simulator with the resulting table and the real re-measure run the same kernels.
//
//   CostModel cost(graph, profiledCluster);
//   CalibrationTable t = calibrateModel(cost, ordinals, {}, say, &cancel);  // needs the plugin
//   std::vector<ModelSignature> s = modelSignatures(cost, 0);               // pure, no GPU
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "profile/gpu_program.h"
#include "profile/gpu_run.h"
#include "profile/profile_result.h"

namespace gp {

struct ModelSignature {
  std::string signature;  // CalibrationTable::signature(g, op, cost.opDType(op), kind of the device)
  OpId op = -1;           // its first op in id order (the one that is timed)
  GpuKernel kernel;       // kernelForOp(cost, op)
};

// The distinct signatures of the graph's ops on the kind of cluster device `device`, in the
// order of their first op; metadata ops (no kernel) are left out. Throws gp::Error("profile",
// ...) for a device outside the cluster.
std::vector<ModelSignature> modelSignatures(const CostModel& cost, int device);

// One CalibrationTable entry per signature and device kind of cost.cluster(), timed with
// timeKernels() on the GPU of the kind's first device (ordinalOfDevice[d]; empty: GPU d), one
// call per kind with the distinct kernels. `base` gives repetitions and timer (its ordinal is
// replaced). Errors are timeKernels()'s (gp::Error("profile", ...)); ordinalOfDevice, when
// given, must have one entry per cluster device.
CalibrationTable calibrateModel(const CostModel& cost, const std::vector<int>& ordinalOfDevice,
                                const KernelTimingOptions& base, const ProfileProgressFn& progress = {},
                                const std::atomic<bool>* cancel = nullptr);

}  // namespace gp
