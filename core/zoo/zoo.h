// The papers' benchmark workloads, generated with real shapes and FLOPs (forward graphs;
// the model loader derives the training step from them, see graph/training.h).
#pragma once
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gp {

struct ZooParams {
  int batch = 0;   // 0: the model's paper default
  int seqLen = 0;  // 0: the model's paper default (ignored by CNNs)
};

struct ZooEntry {
  std::string name;         // "gnmt", "resnet50", ...
  std::string description;  // one line, with the defaults
  int defaultBatch;
  int defaultSeqLen;  // 0 for models without a sequence
};

const std::vector<ZooEntry>& zooModels();
// Throws gp::Error("zoo:NAME", ...) for an unknown name or bad parameters.
Graph makeZooModel(const std::string& name, const ZooParams& params = {});

}  // namespace gp
