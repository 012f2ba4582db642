// How much of a device's large-GEMM rate a matrix product of a given shape reaches: tile and
// wave quantization (NVIDIA's Deep Learning Performance Guide, "Matrix Multiplication
// Background": the output is cut into tiles, one thread block each, run in waves of one block
// per SM).
//
// For an m x n output with reduction k (batch of them), a tile of tm x tn and split-K s:
//   tiles  = batch x ceil(m / tm) x ceil(n / tn) x s
//   waves  = ceil(tiles / SMs)                             (wave quantization; 1 SM count unknown: none)
//   useful = (batch m n) / (waves x SMs x tm x tn)         (tile + wave quantization together)
//   depth  = k / (s x 64 x ceil(k / (s x 64)))             (the reduction in steps of 64)
//          x steps / (steps + 2), steps = ceil(k / (s x 64))  (each block's prologue and epilogue)
//   share  = tileShare(tm, tn) x useful x depth x (s > 1 ? kSplitKShare : 1)
// normalised so that a large, evenly tiled product reaches 1 (the device's MatMul efficiency is
// that of large products). The library is taken to pick the best of kGemmTiles and split-K 1, 2,
// 4 (each slice at least 256 deep), as cuBLAS's heuristics choose among such kernels; a tile's
// share is the data reuse of its size (a 256 x 128 tile loads (256 + 128) / (256 x 128) of an
// element per product, a 64 x 64 tile twice that per FLOP).
//
//   gemmShapeShare({8192, 3072, 8192}, 132)   // 0.95: a large product (768 tiles in 6 waves, K 8192)
//   gemmShapeShare({35, 8457, 2048}, 80)      // 0.34: 35 rows fill part of a 64-row tile
#pragma once
#include <array>
#include <map>
#include <tuple>

namespace gp {

struct GemmShape {
  double m = 0, n = 0, k = 0;  // output rows and columns, reduction
  double batch = 1;            // independent products of that shape in one kernel
};

struct GemmTile {
  int rows = 0, cols = 0;
  double share = 1;  // of the largest tile's rate, per useful FLOP
};

inline constexpr std::array<GemmTile, 8> kGemmTiles = {{{256, 128, 1.0},
                                                        {128, 256, 1.0},
                                                        {128, 128, 0.92},
                                                        {256, 64, 0.88},
                                                        {64, 256, 0.88},
                                                        {128, 64, 0.80},
                                                        {64, 128, 0.80},
                                                        {64, 64, 0.62}}};
inline constexpr double kSplitKShare = 0.9;  // a split-K kernel's extra reduction of its slices' partial sums

// The share in (0, 1] of the large-product rate; 1 for a shape it cannot judge (a dimension
// below 1). smCount <= 0: tile quantization only.
double gemmShapeShare(const GemmShape& s, int smCount);

// gemmShapeShare, remembered: a model's identical layers ask for the same shapes.
class GemmShares {
 public:
  double operator()(const GemmShape& s, int smCount);

 private:
  std::map<std::tuple<double, double, double, double, int>, double> known_;
};

}  // namespace gp
