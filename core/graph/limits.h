// Limits that keep hostile inputs from exhausting memory or overflowing sums, and the
// saturating add that byte totals use.
#pragma once
#include <cstdint>
#include <limits>

namespace gp {

inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 50;  // 1 PiB
inline constexpr int32_t kMaxScopeDepth = 256;

// a + b for non-negative values, saturating at INT64_MAX.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
}

}  // namespace gp
