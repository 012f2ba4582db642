// A kernel dataset made from one graph (dataset_maker.h), read back per op of that graph: which
// measured kernel stands for an op (the single-op kernel graph whose signature is the op's —
// ops with one signature run one kernel), and how far a model's prediction for that kernel is
// from the measurement at the canonical configuration (the most threads, layout 0, one tile).
//
//   const auto err = opPredictionErrors(cost, made.kernels, predictCostsWith(path, made.kernels));
//   // err[op] = |ln(predicted / measured)|, NaN where the op's signature was not measured
#pragma once
#include <cstdint>
#include <vector>

#include "costmodel/cost_dataset.h"

namespace gp {

class CostModel;

// The configuration of g with the most threads, layout 0 and one tile; -1 when g has none.
int64_t canonicalConfig(const CostGraph& g, int32_t configWidth);

// Per op of cost.graph(): the index of the single-op kernel graph of `kernels` whose signature
// is the op's, -1 where none is (metadata ops, signatures left out by a kernel limit, fused
// groups, a dataset of another graph).
std::vector<int32_t> kernelGraphOfOps(const CostModel& cost, const CostDataset& kernels);

// Per op: |ln(predicted / measured)| of its kernel at the canonical configuration; NaN where
// the op has no measured kernel or the prediction is not a positive number. `predicted` is
// [graph][configuration] as predictCostsWith returns it; a shape that disagrees with `kernels`
// throws gp::Error.
std::vector<double> opPredictionErrors(const CostModel& cost, const CostDataset& kernels,
                                       const std::vector<std::vector<double>>& predicted);

}  // namespace gp
