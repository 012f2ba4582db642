// The papers' benchmark workloads, generated with real shapes and FLOPs (forward graphs;
// the model loader derives the training step from them, see graph/training.h), at their
// published sizes or scaled (layers, hidden), random layered networks (random_dag), and
// LLM-scale transformers (GPT decoders, T5, a mixture of experts) for parallel planning.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gp {

// Every value 0 means the model's paper default. A model that does not take a parameter
// rejects a non-zero value of it (except seqLen, which models without a sequence ignore).
struct ZooParams {
  int batch = 0;
  int seqLen = 0;
  int layers = 0;     // depth: LSTM layers, encoder layers, cells per stack, ResNet depth, ...
  int hidden = 0;     // width: units, hidden size, channels, filters, parallel branches
  uint64_t seed = 0;  // random_dag's RNG seed
};

struct ZooEntry {
  std::string name;         // "gnmt", "resnet50", ...
  std::string description;  // one line, with the defaults
  int defaultBatch;
  int defaultSeqLen;      // 0 for models without a sequence
  int defaultLayers = 0;  // 0 for models without the parameter
  int defaultHidden = 0;
  bool synthetic = false;  // generated (random_dag), not one of the papers' workloads
  bool llm = false;        // LLM-scale: planned with parallelize, too big for single-graph placement tests
  std::string parameters;  // what ZooParams it takes: "batch, seq_len, layers, hidden"
};

const std::vector<ZooEntry>& zooModels();
// Throws gp::Error("zoo:NAME", ...) for an unknown name or bad parameters.
Graph makeZooModel(const std::string& name, const ZooParams& params = {});

}  // namespace gp
