// A pre-training corpus: model families, the graphs of each, and the clusters they are placed on
// (graphplace-cli pretrain --corpus FILE.json; format in docs/formats.md, "Corpus JSON").
//
//   {"format": "graphplace-corpus", "version": 1,
//    "families": {
//      "lstm_lm": [{"model": "zoo:rnnlm", "layers": [1, 2, 3], "hidden": [512, 1024]}],
//      "resnet":  [{"model": "models/resnet18.onnx", "mode": "training", "input_shape": [32, 3, 224, 224]}],
//      "random":  [{"model": "zoo:random_dag", "graph_seed": {"from": 1, "to": 20}}]},
//    "held_out": ["resnet"],
//    "clusters": ["4xP100-PCIe", "random:1", "random:2:8"],
//    "eval_clusters": ["4xP100-PCIe", "8xV100-DGX1"],
//    "clusters_per_graph": 2}
//
// An entry is a model spec string or an object; an integer option given as a list, or as
// {"from": A, "to": B}, expands into one graph per value (several such options: every
// combination). Each training graph is placed on every cluster, or with "clusters_per_graph" N
// on N of them, taken in turn (graph g on clusters gN, gN + 1, ... modulo their count). File paths are relative to the corpus file. Families named in "held_out" are
// never trained on: their graphs are placed on "eval_clusters" (default: "clusters") and
// evaluated zero-shot. Torch-free: the spec is read and checked before any training starts.
#pragma once
#include <string>
#include <vector>

#include "io/model_loader.h"

namespace gp {

struct CorpusGraph {
  std::string family;
  std::string model;  // loadModel spec (file paths made absolute)
  LoadOptions load;
  std::string label;  // "zoo:rnnlm layers=2 hidden=512", for reports
};

struct CorpusSpec {
  std::vector<CorpusGraph> train, heldOut;
  std::vector<std::string> clusters, evalClusters;  // loadCluster specs
  std::vector<std::string> heldOutFamilies;
  int clustersPerGraph = 0;  // 0: every cluster

  // The clusters (indices into `clusters`) training graph `g` is placed on.
  std::vector<size_t> clustersOf(size_t g) const;
};

// Throws gp::Error(path, "one line naming the field and the problem") for anything wrong:
// not JSON, another format or version, an unknown key or family, a bad value, an empty family,
// every family held out, or more than kMaxCorpusGraphs graphs after expansion.
CorpusSpec parseCorpusSpec(const std::string& text, const std::string& path);
CorpusSpec loadCorpusSpec(const std::string& path);

inline constexpr int kMaxCorpusGraphs = 10000;

}  // namespace gp
