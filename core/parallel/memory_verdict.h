// Will it fit? A simulated plan's memory against its GPUs, with the margin and the prediction's
// own error: the rank with the least headroom (capacity less its simulated peak; below zero it
// is over), and the band its peak may be off by, kMemoryErrorShare of that peak
// (prediction_band.h: 12 of the corpus's 15 published peaks of 16 GiB and more lie within it). A plan fits
// when its headroom exceeds the band, risks running out of memory when the headroom lies
// within the band either side of zero, and does not fit below it:
//   "fits with 16.2 GiB to spare (±8.9 GiB)"
//   "out-of-memory risk: 1.4 GiB over its 75.7 GiB, within the ±7.2 GiB the peak may be off"
//   "does not fit: 12.0 GiB over its 75.7 GiB (±7.2 GiB)"
#pragma once
#include <cstdint>
#include <string>

#include "parallel/pipeline_sim.h"
#include "parallel/prediction_band.h"

namespace gp {


enum class MemoryFit : uint8_t { Fits, Risk, Over };
const char* memoryFitName(MemoryFit f);  // "fits", "risk", "over"

struct MemoryVerdict {
  MemoryFit fit = MemoryFit::Fits;
  int rank = -1;         // the rank with the least headroom (-1: no rank measured)
  int64_t headroom = 0;  // bytes: its capacity less its peak (negative: over)
  int64_t band = 0;      // bytes: kMemoryErrorShare of its peak
  int64_t capacity = 0;  // bytes: its capacity
  std::string text;      // one line, as above
};

MemoryVerdict memoryVerdict(const ParallelMeasurement& m, double errorShare = kMemoryErrorShare);
// Whether a fits with room beyond the peak's error (its verdict is "fits").
inline bool fitsWithRoom(const ParallelMeasurement& m) { return memoryVerdict(m).fit == MemoryFit::Fits; }
// How the searches rank two plans that run: one that fits with room before one at risk, then the
// shorter step.
bool ranksBefore(const ParallelMeasurement& a, const ParallelMeasurement& b);

}  // namespace gp
