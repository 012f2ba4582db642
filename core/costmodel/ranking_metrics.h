// How well predicted runtimes rank measured ones, as TpuGraphs scores its cost models
// (Phothilimthana et al. 2023): Kendall's tau-b, ordered-pair accuracy and top-K slowdown.
// Each takes the measured runtimes and the predictions of the same configurations, in the same
// order (predictions may be on any scale: only their order counts). Throws std::invalid_argument
// when the lengths differ.
#pragma once
#include <span>

namespace gp {

// Kendall's tau-b (scipy.stats.kendalltau's default): (concordant - discordant) /
// sqrt((pairs - ties in x) * (pairs - ties in y)), ties counted per variable (a pair tied in
// both counts in both). 0 when either side is constant or there are fewer than two values.
double kendallTau(std::span<const double> measured, std::span<const double> predicted);

// Ordered-pair accuracy: of the pairs whose measured runtimes differ, the share the prediction
// orders the same way (a predicted tie counts as wrong). 1 when no measured pair differs.
double orderedPairAccuracy(std::span<const double> measured, std::span<const double> predicted);

// Top-K slowdown: the best measured runtime among the K configurations predicted fastest,
// over the best measured runtime of all, minus 1 (0 = the prediction's top K hold the best).
// Ties in the prediction are broken by position. K is clamped to [1, n]; 0 for empty input.
double topKSlowdown(std::span<const double> measured, std::span<const double> predicted, int k);

}  // namespace gp
