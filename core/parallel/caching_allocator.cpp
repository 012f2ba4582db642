#include "parallel/caching_allocator.h"

#include <cmath>

#include "parallel/pipeline_sim.h"

namespace gp {

double allocatorBlockBytes(double bytes) {
  if (!(bytes > 0)) return 0;
  return kAllocatorBlockBytes * std::ceil(bytes / kAllocatorBlockBytes);
}

double allocatorSegmentBytes(double bytes) {
  const double block = allocatorBlockBytes(bytes);
  if (block == 0) return 0;
  if (block <= kAllocatorSmallSize) return kAllocatorSmallSegment;
  if (block < kAllocatorMinLargeAlloc) return kAllocatorLargeSegment;
  return kAllocatorRoundLarge * std::ceil(block / kAllocatorRoundLarge);
}

double reservedPeakBytes(const StageMemory& s, const FrameworkSpec& framework, double oneWorkspace) {
  double bytes = allocatorSegmentBytes(s.statics.weights) + allocatorSegmentBytes(s.statics.gradients) +
                 allocatorSegmentBytes(s.statics.optimizer) + allocatorBlockBytes(static_cast<double>(s.transient()));
  if (oneWorkspace > 0) bytes += std::round(s.runtime.workspaces / oneWorkspace) * allocatorSegmentBytes(oneWorkspace);
  return bytes * (1 + framework.fragmentation);
}

}  // namespace gp
