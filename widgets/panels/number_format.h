// Number formats shared by the panels (namespace gp::panels): times in milliseconds with a precision that suits
// their size, signed differences with a real minus sign, all through QLocale.
#pragma once
#include <QCoreApplication>
#include <QLocale>
#include <QString>
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gp::panels {

// Decimals for a millisecond figure: 1 from 100 ms, 2 from 1 ms, 3 below.
inline int msDecimals(double ms) {
  const double a = std::fabs(ms);
  return a >= 100 ? 1 : a >= 1 ? 2 : 3;
}

// "1,234.5" for 1.2345 s (number only; callers add the unit through tr()). Figures shown in one
// column pass the decimals of the column's largest figure so their decimal points line up.
inline QString formatMs(double seconds, int decimals = -1) {
  const double ms = seconds * 1e3;
  return QLocale().toString(ms, 'f', decimals >= 0 ? decimals : msDecimals(ms));
}

// "+12.3" / "−12.3" (U+2212) / "0.0" with `decimals` decimals.
inline QString formatSigned(double v, int decimals) {
  const QLocale loc;
  const QString mag = loc.toString(std::fabs(v), 'f', decimals);
  if (mag == loc.toString(0.0, 'f', decimals)) return mag;
  return (v < 0 ? QString(QChar(0x2212)) : QStringLiteral("+")) + mag;
}

// Signed milliseconds for a difference of `seconds`, precision from the larger of the two times.
inline QString formatSignedMs(double seconds, double scaleSeconds) {
  return formatSigned(seconds * 1e3, msDecimals(std::max(std::fabs(seconds), std::fabs(scaleSeconds)) * 1e3));
}

// "11.2 GiB", "512.0 MiB": bytes in binary units with one decimal.
inline QString formatMemorySize(int64_t bytes) {
  const QLocale loc;
  const auto b = static_cast<double>(bytes);
  if (bytes >= (int64_t{1} << 30))
    return QCoreApplication::translate("gp::MemoryBar", "%1 GiB").arg(loc.toString(b / (1 << 30), 'f', 1));
  if (bytes >= (int64_t{1} << 20))
    return QCoreApplication::translate("gp::MemoryBar", "%1 MiB").arg(loc.toString(b / (1 << 20), 'f', 1));
  return QCoreApplication::translate("gp::MemoryBar", "%1 KiB").arg(loc.toString(b / 1024, 'f', 1));
}

}  // namespace gp::panels
