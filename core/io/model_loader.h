// Opening a model: a file path (by extension: .onnx, .pt/.pth/.torchscript, .dot/.gv, .json),
// "zoo:NAME" or "hf:PATH/config.json" (a Hugging Face config, io/hf_config.h), in inference or
// training mode (generated models, zoo and hf, are training steps by default).
#pragma once
#include <functional>
#include <string>

#include "graph/graph.h"
#include "graph/precision.h"
#include "graph/import_options.h"
#include "zoo/zoo.h"

namespace gp {

enum class GraphMode { Default, Inference, Training };

struct LoadOptions {
  GraphMode mode = GraphMode::Default;  // Default: training for zoo models, inference for files
  ImportOptions import;
  ZooParams zoo;
  // The arithmetic the model runs with (graph/precision.h), applied after the training step is
  // derived.
  Precision precision{};
  // Called with a one-line warning when the model opens but something is only estimated
  // (see estimatedCostWarning); may be empty.
  std::function<void(const std::string&)> warn;
};

// "N ops have shapes the importer could not learn; their cost is estimated: 'a' (MatMul), ..."
// naming at most `maxNames` of them, or "" when no op's cost is estimated.
std::string estimatedCostWarning(const Graph& g, int maxNames = 5);

// Throws gp::Error("FILE", problem) for anything wrong with the model.
Graph loadModel(const std::string& spec, const LoadOptions& options = {});

// A stable identity of what loadModel(spec, options) reads: the SHA-256 of the file's bytes, or
// for zoo models of the spec and the options that shape the graph (batch, sequence length,
// mode, and layers / hidden / seed when any is set), for hf models of the config's bytes and
// those options; a precision other than fp32 is hashed in.
// Placement files record it.
std::string modelSha256(const std::string& spec, const LoadOptions& options = {});

// An importer registered for an extension takes precedence over the built-in ones (TorchScript
// files otherwise go to the on-demand LibTorch plugin, io/torchscript_plugin.h).
using ImporterFn = std::function<Graph(const std::string& path, const ImportOptions&)>;
void registerImporter(const std::string& extension, ImporterFn importer);

}  // namespace gp
