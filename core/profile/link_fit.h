// Fitting the communication model of a link to measured transfers, as Baechi fits its
// communication cost: time(bytes) = latency + bytes / bandwidth, by linear regression over
// (bytes, seconds) samples of many sizes.
//
// The regression minimises relative residuals ((t_i - a - b x_i) / t_i, i.e. weights 1/t_i^2):
// sizes span 2^0..2^29 bytes, and plain least squares would let the largest transfers' noise
// swamp the microsecond latency that the small ones measure.
//
//   LinkFit f = fitLatencyBandwidth(samples);   // f.latency s, f.bandwidth bytes/s
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace gp {

struct TransferSample {
  int64_t bytes = 0;
  double seconds = 0;
};

struct LinkFit {
  double latency = 0;           // seconds (clamped at 0 when the intercept comes out negative)
  double bandwidth = 0;         // bytes/s
  double maxRelativeError = 0;  // max over samples of |fit - measured| / measured
  int samples = 0;
  int distinctSizes = 0;
  double seconds(int64_t bytes) const { return latency + static_cast<double>(bytes) / bandwidth; }
};

// Throws gp::Error("link fit", ...) for fewer than 2 distinct sizes, a negative size, a
// non-positive or non-finite time, or times that do not grow with size (no bandwidth).
LinkFit fitLatencyBandwidth(std::span<const TransferSample> samples);

// The median of each size's samples, one sample per size, sorted by size.
std::vector<TransferSample> medianPerSize(std::span<const TransferSample> samples);

double median(std::vector<double> values);  // 0 for none

}  // namespace gp
