#include "graph/flops.h"

#include <algorithm>
#include <limits>

namespace gp::flops {

int64_t numel(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0) return 0;
    if (n > std::numeric_limits<int64_t>::max() / d) return std::numeric_limits<int64_t>::max();  // saturate
    n *= d;
  }
  return n;
}

double matmul(std::span<const int64_t> a, std::span<const int64_t> b) {
  if (a.empty() || b.empty()) return 0;
  const int64_t k = a.back();
  const int64_t m = a.size() >= 2 ? a[a.size() - 2] : 1;
  const int64_t n = b.size() >= 2 ? b.back() : 1;
  // broadcast batch dims
  const size_t ra = a.size() >= 2 ? a.size() - 2 : 0, rb = b.size() >= 2 ? b.size() - 2 : 0;
  double batch = 1;
  for (size_t i = 0; i < std::max(ra, rb); ++i) {
    int64_t da = i < ra ? a[ra - 1 - i] : 1, db = i < rb ? b[rb - 1 - i] : 1;
    batch *= static_cast<double>(std::max(da, db));
  }
  return 2.0 * batch * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

double conv(std::span<const int64_t> out, int64_t cinPerGroup, int64_t kernelElems, bool bias) {
  const double o = static_cast<double>(numel(out));
  return 2.0 * o * static_cast<double>(cinPerGroup) * static_cast<double>(kernelElems) + (bias ? o : 0.0);
}

double rnnStep(int64_t batch, int64_t inputSize, int64_t hiddenSize, int gates) {
  const double b = static_cast<double>(batch), h = static_cast<double>(hiddenSize);
  const double macs = b * gates * (static_cast<double>(inputSize) + h) * h;
  const double elementwise = b * h * (gates == 4 ? 10.0 : gates == 3 ? 8.0 : 2.0);
  return 2.0 * macs + elementwise;
}

}  // namespace gp::flops
