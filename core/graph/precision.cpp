#include "graph/precision.h"

#include <array>

#include "base/error.h"

namespace gp {
namespace {

constexpr std::array<std::string_view, 5> kNames{"fp32", "tf32", "fp16", "bf16", "fp8"};

DType activationType(Precision p) {
  switch (p) {
    case Precision::FP16:
      return DType::F16;
    case Precision::BF16:
      return DType::BF16;
    case Precision::FP8:
      return DType::F8;
    default:
      return DType::F32;
  }
}

// bytes * new / old over a set of tensors, keeping an op's own byte count where it is not the
// plain sum of its tensors (a gather reads only some rows).
int64_t rescaled(int64_t opBytes, int64_t oldSum, int64_t newSum) {
  if (oldSum <= 0 || oldSum == newSum) return opBytes;
  return static_cast<int64_t>(static_cast<double>(opBytes) * static_cast<double>(newSum) / static_cast<double>(oldSum));
}

}  // namespace

std::string_view precisionName(Precision p) { return kNames.at(static_cast<size_t>(p)); }

std::vector<std::string> precisionNames() { return {kNames.begin(), kNames.end()}; }

Precision parsePrecision(std::string_view name, const std::string& source) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Precision>(i);
  throw Error(source, "unknown precision '" + std::string(name) + "' (fp32, tf32, fp16, bf16 or fp8)");
}

Graph withPrecision(const Graph& g, Precision p) {
  Graph out = g;
  out.tf32Math_ = p == Precision::TF32;
  const DType to = activationType(p);
  if (to == DType::F32) return out;
  // Every f32 activation and gradient becomes `to` (the gradient GEMMs run on tensor cores too);
  // parameters and the optimizer's state stay f32.
  std::vector<int64_t> oldBytes = g.tBytes_;
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    if (g.tDType_[t] != DType::F32 || g.tKind_[t] == TensorKind::Parameter) continue;
    out.tDType_[t] = to;
    out.tBytes_[t] = g.tBytes_[t] / dtypeSize(DType::F32) * dtypeSize(to);
  }
  for (OpId op = 0; op < g.numOps(); ++op) {
    int64_t oldIn = 0, newIn = 0, oldOut = 0, newOut = 0;
    for (TensorId t : g.inputs(op)) oldIn += oldBytes[t], newIn += out.tBytes_[t];
    for (TensorId t : g.outputs(op)) oldOut += oldBytes[t], newOut += out.tBytes_[t];
    // an update's traffic is mostly its f32 parameter and moments: only the gradient shrinks
    out.bytesRead_[op] = g.role(op) == OpRole::Update ? g.bytesRead_[op] - (oldIn - newIn)
                                                      : rescaled(g.bytesRead_[op], oldIn, newIn);
    out.bytesWritten_[op] = rescaled(g.bytesWritten_[op], oldOut, newOut);
  }
  return out;
}

}  // namespace gp
