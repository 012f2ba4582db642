#include "graph/spatial_grid.h"

#include <algorithm>
#include <cmath>

namespace gp {

int SpatialGrid::col(double x) const {
  return std::clamp(static_cast<int>(std::floor((x - bounds_.left()) / cell_)), 0, cols_ - 1);
}
int SpatialGrid::row(double y) const {
  return std::clamp(static_cast<int>(std::floor((y - bounds_.top()) / cell_)), 0, rows_ - 1);
}

void SpatialGrid::build(const std::vector<QRectF>& rects, const QRectF& bounds, double cellSize) {
  bounds_ = bounds;
  cell_ = std::max(1.0, cellSize);
  // keep the grid to a few million cells whatever the aspect ratio
  while ((bounds.width() / cell_ + 1) * (bounds.height() / cell_ + 1) > 4e6) cell_ *= 2;
  cols_ = std::max(1, static_cast<int>(std::ceil(bounds.width() / cell_)) + 1);
  rows_ = std::max(1, static_cast<int>(std::ceil(bounds.height() / cell_)) + 1);
  off_.assign(static_cast<size_t>(cols_) * rows_ + 1, 0);
  auto forCells = [&](const QRectF& r, auto&& f) {
    const int c0 = col(r.left()), c1 = col(r.right()), r0 = row(r.top()), r1 = row(r.bottom());
    for (int y = r0; y <= r1; ++y)
      for (int x = c0; x <= c1; ++x) f(y * cols_ + x);
  };
  for (const QRectF& r : rects) forCells(r, [&](int cell) { ++off_[cell + 1]; });
  for (size_t i = 1; i < off_.size(); ++i) off_[i] += off_[i - 1];
  idx_.resize(off_.back());
  std::vector<int32_t> fill(off_.begin(), off_.end() - 1);
  for (int32_t i = 0; i < static_cast<int32_t>(rects.size()); ++i)
    forCells(rects[i], [&](int cell) { idx_[fill[cell]++] = i; });
}

}  // namespace gp
