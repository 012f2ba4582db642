// Cost-model datasets: the file round-trips, inconsistent files get one line naming the file
// and the problem, families split whole, and the model family rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "costmodel/cost_dataset.h"
#include "costmodel/dataset_maker.h"

using namespace gp;

namespace {

CostDataset tiny(CostTask task) {
  CostDataset d;
  d.task = task;
  d.collection = "graphplace";
  d.deviceKind = "cpu:test";
  d.nodeWidth = 2;
  d.configWidth = 3;
  d.opcodes = {"MatMul", "Relu"};
  d.repeats = 5;
  d.noise = "median of 5";
  for (int i = 0; i < 2; ++i) {
    CostGraph g;
    g.name = "m" + std::to_string(i);
    g.family = i == 0 ? "resnet" : "gnmt";
    g.opcode = {0, 1};
    g.nodeFeatures = {0.5f, 1.0f, -1.0f, 2.5f};
    g.edges = {{0, 1}};
    if (task == CostTask::Plan) g.configNodes = {0};
    g.configFeatures = {1, 0, 0, 0, 1, 0};  // 2 configs x 1 row x 3
    g.runtime = {1e-3, 2e-3};
    g.spread = {0.1, 0.2};
    g.threads = {1, 2};
    g.nodeFlops = {100, 0};
    g.nodeBytes = {10, 20};
    g.nodeClass = {0, 2};
    g.nodeSignature = {"MatMul|[2,2]|f32|", "Relu|[2,2]|f32|"};
    if (task == CostTask::Plan) g.conversionBytes = {0, 64};
    d.graphs.push_back(g);
  }
  return d;
}

std::string errorOf(const std::string& text) {
  try {
    CostDataset::parse(text, "bad.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CostDataset, RoundTripsEveryField) {
  for (CostTask task : {CostTask::Kernel, CostTask::Plan}) {
    const CostDataset d = tiny(task);
    const auto path = std::filesystem::temp_directory_path() / ("gp_cost_dataset_" + std::string(costTaskName(task)) + ".json");
    d.save(path.string());
    const CostDataset r = CostDataset::load(path.string());
    EXPECT_EQ(r.task, task);
    EXPECT_EQ(r.collection, d.collection);
    EXPECT_EQ(r.deviceKind, d.deviceKind);
    EXPECT_EQ(r.opcodes, d.opcodes);
    EXPECT_EQ(r.repeats, 5);
    EXPECT_EQ(r.noise, d.noise);
    ASSERT_EQ(r.graphs.size(), 2u);
    const CostGraph &a = d.graphs[1], &b = r.graphs[1];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.family, a.family);
    EXPECT_EQ(b.opcode, a.opcode);
    EXPECT_EQ(b.nodeFeatures, a.nodeFeatures);
    EXPECT_EQ(b.edges, a.edges);
    EXPECT_EQ(b.configNodes, a.configNodes);
    EXPECT_EQ(b.configFeatures, a.configFeatures);
    EXPECT_EQ(b.runtime, a.runtime);
    EXPECT_EQ(b.spread, a.spread);
    EXPECT_EQ(b.threads, a.threads);
    EXPECT_EQ(b.nodeFlops, a.nodeFlops);
    EXPECT_EQ(b.nodeBytes, a.nodeBytes);
    EXPECT_EQ(b.nodeClass, a.nodeClass);
    EXPECT_EQ(b.nodeSignature, a.nodeSignature);
    EXPECT_EQ(b.conversionBytes, a.conversionBytes);
    std::filesystem::remove(path);
  }
}

TEST(CostDataset, InconsistentFilesGetOneLine) {
  auto mutate = [](auto change) {
    CostDataset d = tiny(CostTask::Plan);
    change(d);
    return errorOf(d.toJson());
  };
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[1].nodeFeatures.pop_back(); }),
            "bad.json: graph 1 (m1): 3 node features, expected 2 nodes x width 2");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].configFeatures.push_back(1); }),
            "bad.json: graph 0 (m0): 7 config features, expected 2 configs x 1 rows x width 3");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].opcode[1] = 7; }),
            "bad.json: graph 0 (m0): opcode 7 outside the vocabulary of 2");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].edges.push_back({0, 9}); }),
            "bad.json: graph 0 (m0): edge (0, 9) outside the 2 nodes");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].runtime[0] = -1; }),
            "bad.json: graph 0 (m0): a runtime is not finite and positive");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].configNodes = {5}; }),
            "bad.json: graph 0 (m0): configurable node 5 outside the graph");
  EXPECT_EQ(mutate([](CostDataset& d) { d.graphs[0].threads = {1}; }), "bad.json: graph 0 (m0): 1 thread counts, expected 2");
  EXPECT_EQ(mutate([](CostDataset& d) { d.nodeWidth = 0; }), "bad.json: node feature width out of range (1..4096)");
  EXPECT_EQ(errorOf("{\"format\": \"graphplace-costmodel-dataset\", \"version\": 2}"),
            "bad.json: unsupported dataset version (this build reads version 1)");
  EXPECT_EQ(errorOf("[]"), "bad.json: not a cost-model dataset (\"format\": \"graphplace-costmodel-dataset\" missing)");
  EXPECT_EQ(errorOf("{\"format\": 2}"), "bad.json: not a cost-model dataset (\"format\": \"graphplace-costmodel-dataset\" missing)");
  EXPECT_EQ(errorOf("{\"format\": \"graphplace-costmodel-dataset\", \"version\": 1e300}"),
            "bad.json: unsupported dataset version (this build reads version 1)");
  std::string wide = tiny(CostTask::Kernel).toJson();
  wide.replace(wide.find("\"node_width\":2"), 14, "\"node_width\":1e300");
  EXPECT_EQ(errorOf(wide), "bad.json: \"node_width\" must be a 32-bit integer");
  std::string graph = tiny(CostTask::Kernel).toJson();
  graph.replace(graph.find("\"opcode\":[0"), 11, "\"opcode\":[2e300");
  EXPECT_EQ(errorOf(graph), "bad.json: graph 0: \"opcode\" holds a value of the wrong type or range");
  graph = tiny(CostTask::Kernel).toJson();
  graph.replace(graph.find("\"name\":\"m0\""), 11, "\"name\":7");
  EXPECT_EQ(errorOf(graph), "bad.json: graph 0: \"name\" is not a string");
  EXPECT_NE(errorOf("{\"format\": \"graphplace-costmodel-dataset\""), "");
  std::string text = tiny(CostTask::Kernel).toJson();
  text.replace(text.find("\"task\":\"kernel\""), 15, "\"task\":\"tiles\"");
  EXPECT_EQ(errorOf(text), "bad.json: task \"tiles\" is neither \"kernel\" nor \"plan\"");
  EXPECT_THROW(CostDataset::load("/nonexistent/d.json"), Error);
}

TEST(CostDataset, SplitsWholeFamilies) {
  CostDataset train, test;
  splitByFamily(tiny(CostTask::Kernel), {"gnmt"}, train, test);
  ASSERT_EQ(train.graphs.size(), 1u);
  ASSERT_EQ(test.graphs.size(), 1u);
  EXPECT_EQ(train.graphs[0].family, "resnet");
  EXPECT_EQ(test.graphs[0].family, "gnmt");
  EXPECT_EQ(test.opcodes, train.opcodes);
  EXPECT_EQ(test.nodeWidth, 2);
}

TEST(CostDataset, ModelFamilies) {
  EXPECT_EQ(modelFamily("zoo:resnet50"), "resnet");
  EXPECT_EQ(modelFamily("zoo:gpt_1_3b"), "gpt");
  EXPECT_EQ(modelFamily("models/t5_small.onnx"), "t5");
  EXPECT_EQ(modelFamily("zoo:inception_v3"), "inception");
  EXPECT_EQ(modelFamily("zoo:gnmt"), "gnmt");
  EXPECT_EQ(modelFamily("/x/VGG16.pt"), "vgg");
}

TEST(CostDataset, MergesVocabulariesAndRefusesOtherWidths) {
  CostDataset a = tiny(CostTask::Kernel), b = tiny(CostTask::Kernel);
  b.opcodes = {"Relu", "Conv2D"};  // graph opcodes {0, 1} now mean Relu, Conv2D
  b.deviceKind = "cpu:other";
  const CostDataset m = mergeDatasets({a, b}, {"a.json", "b.json"});
  EXPECT_EQ(m.opcodes, (std::vector<std::string>{"MatMul", "Relu", "Conv2D"}));
  ASSERT_EQ(m.graphs.size(), 4u);
  EXPECT_EQ(m.graphs[0].opcode, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(m.graphs[2].opcode, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(m.deviceKind, "cpu:test + cpu:other");
  m.validate("merged");
  CostDataset wide = tiny(CostTask::Kernel);
  wide.nodeWidth = 3;
  try {
    mergeDatasets({a, wide}, {"a.json", "wide.json"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "wide.json: feature widths 3/3 differ from the first dataset's 2/3");
  }
  EXPECT_THROW(mergeDatasets({a, tiny(CostTask::Plan)}, {"a.json", "p.json"}), Error);
}
