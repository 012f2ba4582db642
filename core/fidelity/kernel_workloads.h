// One-kernel graphs for the kernel-level rows of the published corpus (DeepBench style): the
// op a framework would run for the kernel, with real shapes and FLOPs, in inference mode.
//
//   Graph g = kernelGraph("gemm", {{"m", 1760}, {"n", 128}, {"k", 1760}});   // one MatMul
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "graph/graph.h"

namespace gp {

// gemm: C[m,n] = A[m,k] B[k,n] (both graph inputs, as a GEMM benchmark passes them), op MatMul.
// conv: NHWC input [n,h,w,c], k filters of r x s, stride, pad (the output size of "same"
// padding when pad > 0, of "valid" when pad is 0), op Conv2D.
// Throws gp::Error for an unknown kernel or a missing dimension.
Graph kernelGraph(const std::string& kernel, const std::map<std::string, int64_t>& dims);

}  // namespace gp
