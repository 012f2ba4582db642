#include "graph/graph_colors.h"

#include <algorithm>
#include <cmath>

namespace gp {

QRgb fusionGroupColor(int32_t group) {
  if (group < 0) return kNoValueColor;
  uint32_t h = static_cast<uint32_t>(group) * 2654435761u;
  h ^= h >> 15;
  const double hue = (h % 3600) / 3600.0;
  const double sat = 0.50 + ((h >> 12) % 4) * 0.08;
  const double val = 0.78 + ((h >> 16) % 3) * 0.07;
  return QColor::fromHsvF(static_cast<float>(hue), static_cast<float>(sat), static_cast<float>(val)).rgb();
}

QRgb gradientColor(double t) {
  // stops of a viridis-like ramp
  static constexpr QRgb kStops[] = {0xff440154, 0xff3b528b, 0xff21918c, 0xff5ec962, 0xfffde725};
  constexpr int n = static_cast<int>(std::size(kStops));
  if (!(t >= 0)) t = 0;
  t = std::min(t, 1.0) * (n - 1);
  const int i = std::min(static_cast<int>(t), n - 2);
  const double f = t - i;
  auto mix = [&](int shift) {
    const int a = (kStops[i] >> shift) & 0xff, b = (kStops[i + 1] >> shift) & 0xff;
    return static_cast<int>(std::lround(a + (b - a) * f));
  };
  return qRgb(mix(16), mix(8), mix(0));
}

QRgb lighten(QRgb c, double amount) {
  auto m = [&](int v) { return static_cast<int>(std::lround(v + (255 - v) * amount)); };
  return qRgb(m(qRed(c)), m(qGreen(c)), m(qBlue(c)));
}

QRgb darken(QRgb c, double amount) {
  auto m = [&](int v) { return static_cast<int>(std::lround(v * (1 - amount))); };
  return qRgb(m(qRed(c)), m(qGreen(c)), m(qBlue(c)));
}

}  // namespace gp
