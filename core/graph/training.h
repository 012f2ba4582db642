// Derive a training step (forward + backward + parameter update) from a forward graph.
#pragma once
#include "graph/graph.h"

namespace gp {

// For each forward op with a differentiable input, gradient op(s) with about twice its FLOPs
// (one per input that needs a gradient), wired in reverse; a tensor read by several ops gets
// an AddN accumulating its gradients; each parameter's gradient feeds an update op
// colocated with the op that owns the parameter. Throws gp::Error if `forward` already
// contains backward ops.
Graph deriveTrainingGraph(const Graph& forward);

}  // namespace gp
