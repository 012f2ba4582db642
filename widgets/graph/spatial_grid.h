// SpatialGrid: a uniform grid over scene rectangles for culling and hit-testing in the graph
// view. Each cell lists the indices of the rectangles that overlap it (CSR arrays).
#pragma once
#include <QRectF>
#include <cstdint>
#include <span>
#include <vector>

namespace gp {

class SpatialGrid {
 public:
  // Indexes `rects` (an item's index is its position in the vector) over `bounds`.
  void build(const std::vector<QRectF>& rects, const QRectF& bounds, double cellSize);

  // Calls f(index) for every rectangle overlapping `r` (an index may come several times when
  // it spans cells; callers dedupe with a stamp array). No allocation.
  template <class F>
  void forEachCandidate(const QRectF& r, F&& f) const {
    if (cols_ == 0 || !r.intersects(bounds_)) return;
    const int c0 = col(r.left()), c1 = col(r.right()), r0 = row(r.top()), r1 = row(r.bottom());
    for (int y = r0; y <= r1; ++y)
      for (int x = c0; x <= c1; ++x) {
        const int cell = y * cols_ + x;
        for (int32_t i = off_[cell]; i < off_[cell + 1]; ++i) f(idx_[i]);
      }
  }
  bool empty() const { return cols_ == 0; }

 private:
  int col(double x) const;
  int row(double y) const;
  QRectF bounds_;
  double cell_ = 1;
  int cols_ = 0, rows_ = 0;
  std::vector<int32_t> off_, idx_;
};

}  // namespace gp
