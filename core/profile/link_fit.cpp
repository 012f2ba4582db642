#include "profile/link_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "base/error.h"

namespace gp {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  if (v.size() % 2) return v[m];
  const double hi = v[m];
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m));
  return 0.5 * (lo + hi);
}

std::vector<TransferSample> medianPerSize(std::span<const TransferSample> samples) {
  std::map<int64_t, std::vector<double>> bySize;
  for (const TransferSample& s : samples) bySize[s.bytes].push_back(s.seconds);
  std::vector<TransferSample> out;
  for (auto& [bytes, times] : bySize) out.push_back({bytes, median(std::move(times))});
  return out;
}

LinkFit fitLatencyBandwidth(std::span<const TransferSample> samples) {
  std::map<int64_t, int> sizes;
  for (size_t i = 0; i < samples.size(); ++i) {
    const TransferSample& s = samples[i];
    if (s.bytes < 0) throw Error("link fit", "sample " + std::to_string(i) + " has a negative size");
    if (!std::isfinite(s.seconds) || s.seconds <= 0)
      throw Error("link fit", "sample " + std::to_string(i) + " has a time that is not a positive number");
    ++sizes[s.bytes];
  }
  if (sizes.size() < 2)
    throw Error("link fit", "need transfers of at least 2 distinct sizes to fit latency and bandwidth, got " +
                                std::to_string(sizes.size()));
  // Weighted least squares on t = a + b x with w = 1 / t^2; x in MB keeps the sums well scaled.
  double sw = 0, swx = 0, swy = 0, swxx = 0, swxy = 0;
  for (const TransferSample& s : samples) {
    const double x = static_cast<double>(s.bytes) * 1e-6, y = s.seconds, w = 1.0 / (y * y);
    sw += w;
    swx += w * x;
    swy += w * y;
    swxx += w * x * x;
    swxy += w * x * y;
  }
  const double det = sw * swxx - swx * swx;
  const double slope = det > 0 ? (sw * swxy - swx * swy) / det : 0;  // seconds per MB
  if (!(slope > 0)) throw Error("link fit", "transfer time does not grow with size: no bandwidth can be fitted");
  double intercept = (swy - slope * swx) / sw;
  LinkFit f;
  f.latency = std::max(0.0, intercept);
  f.bandwidth = 1e6 / slope;
  if (intercept < 0) {
    // refit the slope through the origin: min sum w (y - b x)^2 -> b = sum w x y / sum w x x
    f.bandwidth = 1e6 / (swxy / swxx);
  }
  f.samples = static_cast<int>(samples.size());
  f.distinctSizes = static_cast<int>(sizes.size());
  for (const TransferSample& s : samples)
    f.maxRelativeError = std::max(f.maxRelativeError, std::abs(f.seconds(s.bytes) - s.seconds) / s.seconds);
  return f;
}

}  // namespace gp
