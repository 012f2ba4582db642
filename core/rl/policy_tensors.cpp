// GraphFeatures -> LibTorch tensors (copies; the tensors own their memory).
#include "rl/policy_tensors.h"

namespace gp::rl {

namespace {

torch::Tensor toInt64(const std::vector<int32_t>& v) {
  if (v.empty()) return torch::empty({0}, torch::kInt64);
  return torch::from_blob(const_cast<int32_t*>(v.data()), {static_cast<int64_t>(v.size())}, torch::kInt32)
      .to(torch::kInt64);
}

}  // namespace

void refreshCurrentPlan(PolicyInput& in, const GraphFeatures& f) {
  in.x = f.x.empty() ? torch::zeros({static_cast<int64_t>(f.numOps), f.featureDim})
                     : torch::from_blob(const_cast<float*>(f.x.data()), {static_cast<int64_t>(f.numOps), f.featureDim},
                                        torch::kFloat32)
                           .clone();
  in.deviceX = f.deviceX.empty()
                   ? torch::zeros({kMaxDevices, kDeviceFeatures})
                   : torch::from_blob(const_cast<float*>(f.deviceX.data()), {kMaxDevices, kDeviceFeatures},
                                      torch::kFloat32)
                         .clone();
}

PolicyInput toPolicyInput(const GraphFeatures& f) {
  PolicyInput in;
  in.numOps = f.numOps;
  in.numUnits = f.numUnits;
  refreshCurrentPlan(in, f);
  in.opType = toInt64(f.opType);
  in.edgeSrc = toInt64(f.edgeSrc);
  in.edgeDst = toInt64(f.edgeDst);
  in.edgeBytes = f.edgeBytes.empty() ? torch::zeros({static_cast<int64_t>(f.edgeSrc.size())})
                                     : torch::from_blob(const_cast<float*>(f.edgeBytes.data()),
                                                        {static_cast<int64_t>(f.edgeBytes.size())}, torch::kFloat32)
                                           .clone();
  in.topo = toInt64(f.topo);
  in.unitOf = toInt64(f.unitOf);
  return in;
}

}  // namespace gp::rl
