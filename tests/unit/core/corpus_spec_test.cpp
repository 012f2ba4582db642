// Pre-training corpus files: families expand into graphs, held-out families stay out of training,
// and every mistake is a one-line error naming the file and the field.
#include "optimize/corpus_spec.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/error.h"

using namespace gp;

namespace {

const std::string kPath = "/corpora/small.json";

std::string errorOf(const std::string& text) {
  try {
    parseCorpusSpec(text, kPath);
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), kPath);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.problem();
  }
  return "no error";
}

std::string spec(const std::string& families, const std::string& extra = "") {
  return R"({"format": "graphplace-corpus", "version": 1, "clusters": ["4xP100-PCIe"], "families": )" + families +
         extra + "}";
}

}  // namespace

TEST(CorpusSpec, FamiliesExpandIntoEveryCombination) {
  const CorpusSpec s = parseCorpusSpec(
      spec(R"({"lstm": [{"model": "zoo:rnnlm", "layers": [1, 2], "hidden": [256, 512, 1024]}],
               "random": [{"model": "zoo:random_dag", "graph_seed": {"from": 3, "to": 5}, "batch": 8}],
               "cnn": ["zoo:resnet50", {"model": "models/r18.onnx", "mode": "training", "input_shape": [32, 3, 224, 224],
                                        "dims": {"batch": 32}}]})",
           R"(, "held_out": ["cnn"], "eval_clusters": ["8xV100-DGX1", "random:4:8"])"),
      kPath);
  ASSERT_EQ(s.train.size(), 6u + 3u);
  ASSERT_EQ(s.heldOut.size(), 2u);
  // the last option varies fastest
  EXPECT_EQ(s.train[0].load.zoo.layers, 1);
  EXPECT_EQ(s.train[0].load.zoo.hidden, 256);
  EXPECT_EQ(s.train[1].load.zoo.hidden, 512);
  EXPECT_EQ(s.train[3].load.zoo.layers, 2);
  EXPECT_EQ(s.train[3].load.zoo.hidden, 256);
  EXPECT_EQ(s.train[5].label, "zoo:rnnlm layers=2 hidden=1024");
  EXPECT_EQ(s.train[5].family, "lstm");
  EXPECT_EQ(s.train[6].model, "zoo:random_dag");
  EXPECT_EQ(s.train[6].load.zoo.seed, 3u);
  EXPECT_EQ(s.train[8].load.zoo.seed, 5u);
  EXPECT_EQ(s.train[8].load.zoo.batch, 8);
  // held out: files are relative to the corpus file
  EXPECT_EQ(s.heldOut[0].model, "zoo:resnet50");
  EXPECT_EQ(s.heldOut[1].model, "/corpora/models/r18.onnx");
  EXPECT_EQ(s.heldOut[1].load.mode, GraphMode::Training);
  EXPECT_EQ(s.heldOut[1].load.import.inputShape, (std::vector<int64_t>{32, 3, 224, 224}));
  EXPECT_EQ(s.heldOut[1].load.import.dims.at("batch"), 32);
  EXPECT_EQ(s.heldOutFamilies, std::vector<std::string>{"cnn"});
  EXPECT_EQ(s.clusters, std::vector<std::string>{"4xP100-PCIe"});
  EXPECT_EQ(s.evalClusters, (std::vector<std::string>{"8xV100-DGX1", "random:4:8"}));
}

TEST(CorpusSpec, EvalClustersDefaultToTheTrainingClusters) {
  const CorpusSpec s = parseCorpusSpec(spec(R"({"a": ["zoo:rnnlm"]})"), kPath);
  EXPECT_EQ(s.evalClusters, s.clusters);
  EXPECT_TRUE(s.heldOut.empty());
  EXPECT_EQ(s.clustersOf(3), std::vector<size_t>{0});
}

TEST(CorpusSpec, ClustersPerGraphTakesTheClustersInTurn) {
  CorpusSpec s = parseCorpusSpec(
      R"({"format": "graphplace-corpus", "version": 1, "families": {"a": ["zoo:rnnlm"]},
          "clusters": ["a", "b", "c"], "clusters_per_graph": 2})",
      kPath);
  EXPECT_EQ(s.clustersOf(0), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(s.clustersOf(1), (std::vector<size_t>{2, 0}));
  EXPECT_EQ(s.clustersOf(2), (std::vector<size_t>{1, 2}));
  s.clustersPerGraph = 0;
  EXPECT_EQ(s.clustersOf(1), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(errorOf(spec(R"({"a": ["zoo:rnnlm"]})", R"(, "clusters_per_graph": 2)")),
            "clusters_per_graph: must be between 1 and the 1 clusters");
}

TEST(CorpusSpec, BadSpecsAreOneLineErrors) {
  EXPECT_NE(errorOf("{").find("not valid JSON"), std::string::npos);
  EXPECT_EQ(errorOf("[]"), "expected a JSON object");
  EXPECT_EQ(errorOf(R"({"format": "x", "version": 1})"), "format: expected \"graphplace-corpus\"");
  EXPECT_EQ(errorOf(R"({"format": 2, "version": 1})"), "format: expected \"graphplace-corpus\"");
  EXPECT_EQ(errorOf(R"({"version": 1})"), "format: expected \"graphplace-corpus\"");
  EXPECT_EQ(errorOf(R"({"format": "graphplace-corpus", "version": 2})"), "version: expected 1");
  EXPECT_NE(errorOf(spec(R"({"a": ["zoo:rnnlm"]})", R"(, "colour": 1)")).find("colour: unknown key"),
            std::string::npos);
  EXPECT_EQ(errorOf(spec("{}")), "families: expected an object of family name -> list of models");
  EXPECT_EQ(errorOf(spec(R"({"a": []})")), "families.a: expected a non-empty list of models");
  EXPECT_EQ(errorOf(spec(R"({"a": [7]})")), "families.a[0]: expected a model spec string or an object");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"batch": 2}]})")), "families.a[0]: needs \"model\": a file or zoo:NAME");
  EXPECT_NE(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "depth": 2}]})")).find("families.a[0].depth: unknown key"),
            std::string::npos);
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "layers": -1}]})")),
            "families.a[0].layers: out of range (0 .. 2147483647)");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "layers": []}]})")), "families.a[0].layers: empty list");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "layers": {"from": 4, "to": 2}}]})")),
            "families.a[0].layers: range from 4 to 2 is empty");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "layers": {"from": 1}}]})")),
            "families.a[0].layers: a range needs from and to");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "hidden": "big"}]})")),
            "families.a[0].hidden: expected an integer, got string");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "zoo:rnnlm", "mode": "train"}]})")),
            "families.a[0].mode: expected \"training\" or \"inference\"");
  EXPECT_EQ(errorOf(spec(R"({"a": [{"model": "x.onnx", "input_shape": [1, 0]}]})")),
            "families.a[0].input_shape: a dimension of 0");
  EXPECT_EQ(errorOf(spec(R"({"a": ["zoo:rnnlm"]})", R"(, "held_out": ["b"])")), "held_out: no family 'b'");
  EXPECT_EQ(errorOf(spec(R"({"a": ["zoo:rnnlm"]})", R"(, "held_out": ["a"])")),
            "held_out: every family is held out: nothing left to train on");
  EXPECT_EQ(errorOf(R"({"format": "graphplace-corpus", "version": 1, "families": {"a": ["zoo:rnnlm"]}})"),
            "clusters: missing: the clusters to train on");
  EXPECT_EQ(errorOf(spec(R"({"a": ["zoo:rnnlm"]})", R"(, "eval_clusters": [""])")),
            "eval_clusters[0]: expected a non-empty string");
  // a combination explosion is refused before anything is loaded
  EXPECT_NE(errorOf(spec(R"({"a": [{"model": "zoo:random_dag", "graph_seed": {"from": 1, "to": 9000},
                                    "batch": [1, 2]}]})"))
                .find("more than 10000 graphs"),
            std::string::npos);
}

TEST(CorpusSpec, AMissingFileNamesIt) {
  const std::string missing = (std::filesystem::temp_directory_path() / "gp_no_such_corpus.json").string();
  try {
    loadCorpusSpec(missing);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), missing);
  }
}
