#include "cost/gemm_tiles.h"

#include <algorithm>
#include <cmath>

namespace gp {

namespace {

constexpr double kDepthStep = 64;        // the reduction each main-loop step of a block covers
constexpr double kBlockOverheadSteps = 2;  // a block's prologue (first loads) and epilogue (the write)
constexpr double kMinSliceDepth = 256;   // split-K only where each slice keeps this much reduction

double depthShare(double k) {
  const double steps = std::ceil(k / kDepthStep);
  return k / (steps * kDepthStep) * steps / (steps + kBlockOverheadSteps);
}

}  // namespace

double gemmShapeShare(const GemmShape& s, int smCount) {
  if (!(s.m >= 1) || !(s.n >= 1) || !(s.k >= 1) || !(s.batch >= 1)) return 1;
  double best = 0;
  for (const GemmTile& t : kGemmTiles)
    for (const int split : {1, 2, 4}) {
      if (split > 1 && s.k / split < kMinSliceDepth) break;
      const double blocks = s.batch * std::ceil(s.m / t.rows) * std::ceil(s.n / t.cols) * split;
      const double slots = smCount > 0 ? std::ceil(blocks / smCount) * smCount : blocks;
      const double useful = s.batch * s.m * s.n / (slots / split * t.rows * t.cols);
      const double share = t.share * useful * depthShare(s.k / split) * (split > 1 ? kSplitKShare : 1.0);
      best = std::max(best, share);
    }
  // Normalised to a large, evenly tiled product of the best tile.
  const double large = kGemmTiles.front().share;
  return std::clamp(best / large, 1e-3, 1.0);
}

double GemmShares::operator()(const GemmShape& s, int smCount) {
  const auto key = std::make_tuple(s.m, s.n, s.k, s.batch, smCount);
  if (const auto it = known_.find(key); it != known_.end()) return it->second;
  return known_.emplace(key, gemmShapeShare(s, smCount)).first->second;
}

}  // namespace gp
