// Number formatting for the timeline: durations for tooltips, and tick labels of the time
// axis written into caller-owned buffers (painting allocates nothing).
#pragma once
#include <QChar>
#include <QString>
#include <cstdint>

namespace gp {

// "12.3 µs", "4.56 ms", "1.23 s" (three significant digits, unit chosen by magnitude).
QString formatDuration(double seconds);
// "1.2 MB" (SI).
QString formatBytes(int64_t bytes);

// A "nice" tick spacing (1, 2 or 5 times a power of ten) of at least `minStep` seconds.
double niceTickStep(double minStep);

// The unit and precision of axis labels for ticks `step` seconds apart on a window reaching
// to `maxTime` seconds: the unit follows the magnitude of the times shown ("3.1292 s" rather
// than "3129200 µs"), the decimals the step.
struct TickUnit {
  double scale;      // seconds -> unit
  int decimals;      // digits after the point so that neighbouring ticks differ
  const char* name;  // "s", "ms", "µs" (UTF-8), "ns"
};
TickUnit tickUnit(double step, double maxTime);

// Writes "12.5 ms" for `seconds` into buf (at most cap QChars); returns the length.
int formatTick(double seconds, const TickUnit& unit, QChar* buf, int cap);

}  // namespace gp
