#include "base/device_palette.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace gp {

namespace {
constexpr std::array<uint32_t, 10> kTableau10 = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                                 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

uint32_t hsvToRgb(double h, double s, double v) {
  double c = v * s, hp = h / 60.0, x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1)), m = v - c;
  double r = 0, g = 0, b = 0;
  if (hp < 1) r = c, g = x;
  else if (hp < 2) r = x, g = c;
  else if (hp < 3) g = c, b = x;
  else if (hp < 4) g = x, b = c;
  else if (hp < 5) r = x, b = c;
  else r = c, b = x;
  auto byte = [&](double f) { return static_cast<uint32_t>(std::lround((f + m) * 255.0)) & 0xffu; };
  return byte(r) << 16 | byte(g) << 8 | byte(b);
}
}  // namespace

uint32_t deviceColorRgb(int d) {
  if (d < 0) return 0x9e9e9e;
  if (d < static_cast<int>(kTableau10.size())) return kTableau10[static_cast<size_t>(d)];
  double hue = std::fmod(17.0 + 137.508 * (d - 10), 360.0);
  return hsvToRgb(hue, d % 2 ? 0.55 : 0.75, d % 3 ? 0.85 : 0.70);
}

std::string deviceColorHex(int d) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", deviceColorRgb(d));
  return buf;
}

}  // namespace gp
