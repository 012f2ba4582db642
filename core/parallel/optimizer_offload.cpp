#include "parallel/optimizer_offload.h"

#include <string_view>

namespace gp {

double hostLinkBandwidth(const DeviceSpec& d) {
  const std::string_view k = d.kind;
  auto has = [&](std::string_view s) { return k.find(s) != std::string_view::npos; };
  if (has("H100") || has("H200") || has("H800") || has("H20") || has("B200") || has("B100") || has("GB200")) return 48e9;
  if (has("V100") || has("P100") || has("T4")) return 12e9;
  return 24e9;
}

double offloadedUpdateSeconds(double params, const TrainingBytes& tb, const DeviceSpec& d) {
  if (params <= 0) return 0;
  return params * (tb.grad + tb.weight) / hostLinkBandwidth(d) + params * kCpuAdamBytesPerParam / kCpuAdamBandwidth;
}

}  // namespace gp
