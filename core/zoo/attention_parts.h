// Parts the LLM-scale generators share (llm_models.cpp, llama_models.cpp): attention heads,
// scaled or unscaled dot-product attention with an additive mask or bias, RMS normalisation.
#pragma once
#include <cstdint>

#include "zoo/layers.h"

namespace gp::zoo {

// [tokens, heads * headDim] -> [batch, heads, seq, headDim] (reshape + transpose)
TensorId toHeads(Net& net, TensorId x, int64_t batch, int64_t headDim);

// softmax(q k^T [/ sqrt(head dim)] + adder) v for q [b, h, sq, d], k and v [b, h, sk, d];
// back to [b * sq, h * d].
TensorId attend(Net& net, TensorId q, TensorId k, TensorId v, TensorId adder, bool scaled);

// x * rsqrt(mean(x^2)) * weight over the last dimension: parameter "weight" [width] in the
// current scope, no mean subtraction, no bias (T5, Llama).
TensorId rmsNorm(Net& net, TensorId x);

}  // namespace gp::zoo
