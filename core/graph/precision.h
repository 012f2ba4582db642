// Precision: the arithmetic a model is run with, applied to a loaded graph.
//
//   Graph g16 = withPrecision(g, Precision::FP16);   // mixed precision: activations in f16
//
// fp32: as stored, f32 math. tf32: f32 storage, matrix products and convolutions at the
// device's TF32 tensor-core rate (devices without one run them at f32). fp16 / bf16 / fp8:
// automatic mixed precision as frameworks do it: every f32 activation and gradient becomes the
// 16- or 8-bit type (half the bytes to move and keep; ops, gradient GEMMs included, run at that
// type's rate, which a device without such units lists as its f32 rate), while parameters,
// their master copies and the optimizer's state stay f32 (an update reads its gradient in the
// narrow type, the rest of its traffic unchanged).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.h"

namespace gp {

enum class Precision : uint8_t { FP32, TF32, FP16, BF16, FP8 };

std::string_view precisionName(Precision p);  // "fp32", "tf32", "fp16", "bf16", "fp8"
// Throws gp::Error(source, ...) naming the choices for an unknown name.
Precision parsePrecision(std::string_view name, const std::string& source = "precision");
std::vector<std::string> precisionNames();

Graph withPrecision(const Graph& g, Precision p);

}  // namespace gp
