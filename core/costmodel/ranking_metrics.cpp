#include "costmodel/ranking_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace gp {
namespace {

void sameLength(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size())
    throw std::invalid_argument("ranking metrics need one prediction per measurement (" + std::to_string(a.size()) +
                                " measured, " + std::to_string(b.size()) + " predicted)");
}

int sign(double v) { return (v > 0) - (v < 0); }

}  // namespace

double kendallTau(std::span<const double> measured, std::span<const double> predicted) {
  sameLength(measured, predicted);
  const size_t n = measured.size();
  if (n < 2) return 0;
  double concordant = 0, discordant = 0, tiesX = 0, tiesY = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const int sx = sign(measured[i] - measured[j]), sy = sign(predicted[i] - predicted[j]);
      if (sx == 0) tiesX += 1;
      if (sy == 0) tiesY += 1;
      if (sx != 0 && sy != 0) (sx == sy ? concordant : discordant) += 1;
    }
  const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  const double denom = std::sqrt((pairs - tiesX) * (pairs - tiesY));
  return denom > 0 ? (concordant - discordant) / denom : 0;
}

double orderedPairAccuracy(std::span<const double> measured, std::span<const double> predicted) {
  sameLength(measured, predicted);
  double ordered = 0, right = 0;
  for (size_t i = 0; i < measured.size(); ++i)
    for (size_t j = 0; j < measured.size(); ++j)
      if (measured[i] > measured[j]) {
        ordered += 1;
        if (predicted[i] > predicted[j]) right += 1;
      }
  return ordered > 0 ? right / ordered : 1;
}

double topKSlowdown(std::span<const double> measured, std::span<const double> predicted, int k) {
  sameLength(measured, predicted);
  const size_t n = measured.size();
  if (n == 0) return 0;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return predicted[a] < predicted[b]; });
  const size_t top = std::clamp<size_t>(static_cast<size_t>(std::max(k, 1)), 1, n);
  double bestOfTop = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < top; ++i) bestOfTop = std::min(bestOfTop, measured[order[i]]);
  const double best = *std::min_element(measured.begin(), measured.end());
  return best > 0 ? bestOfTop / best - 1 : 0;
}

}  // namespace gp
