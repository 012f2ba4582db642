#include "profile/model_calibration.h"

#include <algorithm>
#include <unordered_map>

#include "graph/op_class.h"
#include "base/error.h"
#include "profile/profile_plugin.h"

namespace gp {

std::vector<ModelSignature> modelSignatures(const CostModel& cost, int device) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  if (device < 0 || device >= c.numDevices())
    throw Error("profile", "device " + std::to_string(device) + " is not in cluster " + c.name());
  const std::string& kind = c.device(device).kind;
  std::vector<ModelSignature> out;
  std::unordered_map<std::string, size_t> seen;
  for (OpId op = 0; op < g.numOps(); ++op) {
    if (isMetadataOp(g.opType(op))) continue;
    std::string sig = CalibrationTable::signature(g, op, cost.opDType(op), kind);
    if (!seen.emplace(sig, out.size()).second) continue;
    out.push_back({std::move(sig), op, kernelForOp(cost, op)});
  }
  return out;
}

CalibrationTable calibrateModel(const CostModel& cost, const std::vector<int>& ordinalOfDevice,
                                const KernelTimingOptions& base, const ProfileProgressFn& progress,
                                const std::atomic<bool>* cancel) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  if (!ordinalOfDevice.empty() && static_cast<int>(ordinalOfDevice.size()) != c.numDevices())
    throw Error("profile", "got " + std::to_string(ordinalOfDevice.size()) + " GPU numbers for a cluster of " +
                               std::to_string(c.numDevices()) + " devices");
  CalibrationTable table;
  std::vector<std::string> kinds;
  for (int d = 0; d < c.numDevices(); ++d) {
    const std::string& kind = c.device(d).kind;
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) continue;
    kinds.push_back(kind);
    const std::vector<ModelSignature> sigs = modelSignatures(cost, d);
    // Several signatures may run the same kernel (e.g. the same GEMM under two op types).
    std::vector<GpuKernel> kernels;
    std::vector<size_t> kernelOf;
    for (const ModelSignature& s : sigs) {
      auto it = std::find(kernels.begin(), kernels.end(), s.kernel);
      kernelOf.push_back(static_cast<size_t>(it - kernels.begin()));
      if (it == kernels.end()) kernels.push_back(s.kernel);
    }
    KernelTimingOptions o = base;
    o.ordinal = ordinalOfDevice.empty() ? d : ordinalOfDevice[d];
    if (progress)
      progress("calibrating " + g.name() + " on " + kind + " (GPU " + std::to_string(o.ordinal) + "): " +
               std::to_string(sigs.size()) + " op signatures, " + std::to_string(kernels.size()) + " distinct kernels");
    if (kernels.empty()) continue;
    const std::vector<double> seconds = timeKernels(kernels, o, progress, cancel);
    for (size_t i = 0; i < sigs.size(); ++i) {
      const OpId op = sigs[i].op;
      CalibrationTable::Entry e;
      e.opType = std::string(g.opType(op));
      for (TensorId t : g.inputs(op)) {
        if (g.hasShape(t)) e.inputShapes.emplace_back(std::vector<int64_t>(g.shape(t).begin(), g.shape(t).end()));
        else e.inputShapes.emplace_back(std::nullopt);
      }
      e.dtype = cost.opDType(op);
      e.deviceKind = kind;
      e.seconds = seconds[kernelOf[i]];
      table.add(std::move(e));
    }
  }
  return table;
}

}  // namespace gp
