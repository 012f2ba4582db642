#include "parallel/memory_verdict.h"

#include <cmath>

#include "base/byte_text.h"

namespace gp {
namespace {

std::string gib(int64_t bytes) { return gibText(static_cast<double>(bytes), 1); }

}  // namespace

const char* memoryFitName(MemoryFit f) {
  switch (f) {
    case MemoryFit::Fits: return "fits";
    case MemoryFit::Risk: return "risk";
    case MemoryFit::Over: return "over";
  }
  return "fits";
}

bool ranksBefore(const ParallelMeasurement& a, const ParallelMeasurement& b) {
  const bool roomA = fitsWithRoom(a), roomB = fitsWithRoom(b);
  if (roomA != roomB) return roomA;
  return a.stepTime < b.stepTime;
}

MemoryVerdict memoryVerdict(const ParallelMeasurement& m, double errorShare) {
  MemoryVerdict v;
  for (size_t r = 0; r < m.peakMemory.size() && r < m.capacity.size(); ++r) {
    if (m.capacity[r] <= 0) continue;  // no limit known
    const int64_t headroom = m.capacity[r] - m.peakMemory[r];
    if (v.rank < 0 || headroom < v.headroom) v.rank = static_cast<int>(r), v.headroom = headroom, v.capacity = m.capacity[r];
  }
  if (v.rank < 0) {
    v.text = m.peakMemory.empty() ? "memory not simulated" : "no memory limit known";
    return v;
  }
  v.band = std::llround(errorShare * static_cast<double>(m.peakMemory[static_cast<size_t>(v.rank)]));
  const std::string band = "±" + gib(v.band);
  if (v.headroom > v.band) {
    v.fit = MemoryFit::Fits;
    v.text = "fits with " + gib(v.headroom) + " to spare (" + band + ")";
  } else if (v.headroom >= -v.band) {
    v.fit = MemoryFit::Risk;
    v.text = "out-of-memory risk: " +
             (v.headroom >= 0 ? gib(v.headroom) + " to spare of its " : gib(-v.headroom) + " over its ") +
             gib(v.capacity) + ", within the " + band + " the peak may be off";
  } else {
    v.fit = MemoryFit::Over;
    v.text = "does not fit: " + gib(-v.headroom) + " over its " + gib(v.capacity) + " (" + band + ")";
  }
  return v;
}

}  // namespace gp
