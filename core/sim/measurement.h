// Measurement: what every consumer (views, CLI, export) reads about one simulated step.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gp {

struct TimelineEvent {
  enum class Kind : uint8_t { Op, Transfer };
  Kind kind;
  int32_t id;        // Op: op id; Transfer: tensor id
  int32_t resource;  // Op: device; Transfer: first channel of the route
  int32_t dst;       // Transfer: destination device; Op: fusion group or -1
  double start, end; // seconds from the start of the step
  int64_t bytes;     // Transfer: bytes moved; Op: 0
};

struct DeviceStats {
  double busy = 0;          // seconds running kernels
  double utilization = 0;   // busy / step time
  int64_t peakMemory = 0;   // bytes: resident parameters + live activations at the worst moment
  int64_t capacity = 0;     // bytes
};

struct Measurement {
  double stepTime = 0;      // seconds (makespan)
  double lowerBound = 0;    // seconds, see sim/lower_bound.h
  bool feasible = true;     // valid plan and every device within its memory
  std::string problem;      // why not feasible ("gpu1 needs 18.20 GiB, 2.20 GiB over its 16.00 GiB")
  std::vector<DeviceStats> devices;
  std::vector<int64_t> channelBytes;  // bytes carried per directed channel
  int64_t commBytes = 0;              // bytes sent between devices (each transfer once)
  std::vector<TimelineEvent> timeline;

  double ratio() const { return lowerBound > 0 ? stepTime / lowerBound : 0; }
};

}  // namespace gp
