// What the TorchScript importer learns from running a module, in torch-free terms: FLOPs of one
// aten call from the values its arguments and results had, and the tensor a result becomes.
// The importer converts each IValue to an ArgValue first.
//
// Conventions (a multiply-add counts as 2, as everywhere in graphplace):
//   convolutions, linear, matmul/mm/bmm/addmm/baddbmm, RNN layers and cells: from shapes;
//   batch_norm 2 per element (inference: scale + shift); layer/group/instance norm 5 per
//   element (mean, variance, normalise, scale, shift); softmax / log_softmax 5 per element;
//   elementwise ops and activations 1 per output element; pooling: output elements times
//   kernel elements (adaptive pooling and reductions: one per input element);
//   embedding, indexing and view/copy ops (view, reshape, flatten, transpose, permute, cat,
//   ...): 0 FLOPs (their bytes are still counted by the graph). Anything else: 0.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graph/dtype.h"
#include "graph/graph_builder.h"

namespace gp::ts {

// What one argument or result of an aten call held at run time.
struct ArgValue {
  enum class Kind : uint8_t { None, Tensor, TensorList, Int, IntList, Double, Bool, Other };
  Kind kind = Kind::None;
  std::vector<std::vector<int64_t>> shapes;  // Tensor: one shape; TensorList: one per element
  std::vector<DType> dtypes;                 // parallel to shapes
  std::vector<int64_t> ints;                 // Int / Bool: one value; IntList: the values
  double number = 0;                         // Double

  bool isTensor() const { return kind == Kind::Tensor && !shapes.empty(); }
  std::span<const int64_t> shape() const {
    return shapes.empty() ? std::span<const int64_t>{} : std::span<const int64_t>(shapes.front());
  }
};

// FLOPs of one execution of aten op `op` (unqualified: "conv2d", "add_", ...). Missing or
// non-tensor arguments where a tensor is expected give 0.
double atenFlops(std::string_view op, std::span<const ArgValue> args, std::span<const ArgValue> results);

// The graph tensor for an aten result: a tensor's shape and dtype; an int / bool / float as a
// scalar (i64 / bool / f64); an int list as a 1-d i64 tensor; a tensor list as its total bytes
// with no single shape; anything else (or a result never computed: kind None) unknown, 0 bytes.
TensorDesc resultTensor(const ArgValue& value);

}  // namespace gp::ts
