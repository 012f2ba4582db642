#include "costmodel/cost_features.h"

#include <cmath>

namespace gp {
namespace {

float lg(double x) { return static_cast<float>(std::log1p(std::max(0.0, x)) / 10.0); }
constexpr int kKinds = static_cast<int>(KernelSpec::Kind::Copy) + 1;

}  // namespace

void appendNodeFeatures(const KernelSpec& k, bool fused, std::vector<float>& out) {
  const double bytes = static_cast<double>(k.bytes);
  out.push_back(lg(k.flops));
  out.push_back(lg(bytes));
  out.push_back(static_cast<float>((std::log1p(k.flops) - std::log1p(bytes)) / 10.0));
  double d[6] = {0, 0, 0, 0, 0, 0};
  switch (k.kind) {
    case KernelSpec::Kind::None:
      break;
    case KernelSpec::Kind::Gemm:
      d[0] = static_cast<double>(k.batch), d[1] = static_cast<double>(k.m), d[2] = static_cast<double>(k.n),
      d[3] = static_cast<double>(k.k);
      break;
    case KernelSpec::Kind::Conv:
    case KernelSpec::Kind::Pool:
      d[0] = static_cast<double>(k.convN), d[1] = static_cast<double>(k.convC),
      d[2] = static_cast<double>(k.convH * k.convW), d[3] = static_cast<double>(k.convK),
      d[4] = static_cast<double>(k.convR * k.convS), d[5] = static_cast<double>(k.stride);
      break;
    default:
      d[0] = static_cast<double>(k.rows), d[1] = static_cast<double>(k.cols);
  }
  for (double v : d) out.push_back(lg(v));
  for (int i = 0; i < kKinds; ++i) out.push_back(static_cast<int>(k.kind) == i ? 1.0f : 0.0f);
  out.push_back(lg(static_cast<double>(k.largestOperand())));
  out.push_back(fused ? 1.0f : 0.0f);
  out.push_back(1.0f);
}

void appendConfigFeatures(const KernelConfig& c, bool configurable, std::vector<float>& out) {
  out.push_back(static_cast<float>(std::log2(std::max(1, c.threads))));
  out.push_back(c.threads == 1 ? 1.0f : 0.0f);
  out.push_back(c.layout == 0 ? 1.0f : 0.0f);
  out.push_back(c.layout == 1 ? 1.0f : 0.0f);
  out.push_back(static_cast<float>(std::log2(std::max<int>(1, c.tiles))));
  out.push_back(c.tiles == 1 ? 1.0f : 0.0f);
  out.push_back(configurable ? 1.0f : 0.0f);
  out.push_back(1.0f);
}

KernelConfig configOfRow(std::span<const float> row) {
  KernelConfig c;
  c.threads = static_cast<int32_t>(std::lround(std::exp2(row[0])));
  c.layout = row[3] > 0.5f ? 1 : 0;
  c.tiles = static_cast<uint8_t>(std::lround(std::exp2(row[4])));
  return c;
}

std::vector<KernelConfig> kernelConfigs(std::span<const int32_t> threadChoices) {
  std::vector<KernelConfig> out;
  for (int32_t t : threadChoices)
    for (uint8_t layout : {0, 1})
      for (uint8_t tiles : {1, 4}) out.push_back({t, layout, tiles});
  return out;
}

bool layoutConfigurable(KernelSpec::Kind k) {
  switch (k) {
    case KernelSpec::Kind::Gemm:
    case KernelSpec::Kind::Conv:
    case KernelSpec::Kind::Pool:
    case KernelSpec::Kind::Softmax:
    case KernelSpec::Kind::LayerNorm:
    case KernelSpec::Kind::Reduce:
      return true;
    default:
      return false;
  }
}

}  // namespace gp
