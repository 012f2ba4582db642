// Which models open in the Parallel Plan view (LLM-first) instead of the op graph: a Hugging
// Face config, a zoo LLM (`zoo list` marks it "llm"), or an imported forward graph made of
// repeated layers (detectLayerStack finds them) whose training state — weights, gradients and
// Adam's two moments, 16 bytes a parameter in fp32 — does not fit one device of the cluster. Such
// a model is planned with data, tensor and pipeline parallelism; a single-device placement of it
// is never the first thing shown.
#pragma once
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "io/model_loader.h"

namespace gp {

// From the spec alone: "hf:…", a config.json, or a zoo LLM.
bool isLlmSpec(const std::string& spec);
// The whole rule, once the graph is loaded (call off the UI thread: it may detect the layers).
bool opensAsParallelPlan(const std::string& spec, const Graph& g, GraphMode mode, const Cluster& c);

}  // namespace gp
