#include "timeline/timeline_format.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gp {

QString formatDuration(double seconds) {
  const double a = std::fabs(seconds);
  double v = seconds;
  const char* unit = "s";
  if (a == 0) {
    unit = "s";
  } else if (a < 1e-6) {
    v = seconds * 1e9, unit = "ns";
  } else if (a < 1e-3) {
    v = seconds * 1e6, unit = "\xc2\xb5s";
  } else if (a < 1) {
    v = seconds * 1e3, unit = "ms";
  }
  const double av = std::fabs(v);
  const int decimals = av == 0 ? 0 : av < 10 ? 2 : av < 100 ? 1 : 0;
  return QStringLiteral("%1 %2").arg(QLocale().toString(v, 'f', decimals), QString::fromUtf8(unit));
}

QString formatBytes(int64_t bytes) {
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

double niceTickStep(double minStep) {
  if (!(minStep > 0) || !std::isfinite(minStep)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(minStep)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= minStep * (1 - 1e-9)) return m * p;
  return 10 * p;
}

TickUnit tickUnit(double step, double maxTime) {
  const double m = std::max(std::fabs(maxTime), step);
  TickUnit u{1, 0, "s"};
  if (m < 1e-6) {
    u = {1e9, 0, "ns"};
  } else if (m < 1e-3) {
    u = {1e6, 0, "\xc2\xb5s"};
  } else if (m < 1) {
    u = {1e3, 0, "ms"};
  }
  const double s = step * u.scale;
  u.decimals = s >= 1 ? 0 : std::min(9, static_cast<int>(std::ceil(-std::log10(s) - 1e-9)));
  return u;
}

int formatTick(double seconds, const TickUnit& unit, QChar* buf, int cap) {
  char text[48];
  double v = seconds * unit.scale;
  if (std::fabs(v) < 0.5 * std::pow(10.0, -unit.decimals)) v = 0;  // no "-0"
  int n = std::snprintf(text, sizeof text, "%.*f %s", unit.decimals, v, unit.name);
  if (n < 0) return 0;
  // Widen UTF-8 (only ASCII and U+00B5 occur) into QChars.
  int len = 0;
  for (int i = 0; i < n && len < cap; ++i) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (ch == 0xC2 && i + 1 < n) {
      buf[len++] = QChar(static_cast<char16_t>(static_cast<unsigned char>(text[++i])));
    } else {
      buf[len++] = QChar(static_cast<char16_t>(ch));
    }
  }
  return len;
}

}  // namespace gp
