#include <gtest/gtest.h>

#include <filesystem>

#include "base/error.h"
#include "error_text.h"
#include "graph/training.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "test_graphs.h"
#include "test_paths.h"

using namespace gp;

TEST(JsonIo, RoundTripIsExact) {
  Graph g = gptest::smallMlp();
  Graph back = parseGraphJson(graphToJson(g), "mem.json");
  gptest::expectSameGraph(g, back);
  EXPECT_EQ(graphToJson(back), graphToJson(g));
}

TEST(JsonIo, TrainingGraphRoundTripsThroughAFile) {
  Graph g = deriveTrainingGraph(gptest::smallMlp());
  auto path = std::filesystem::temp_directory_path() / "gp_json_io_test.json";
  writeGraphJson(g, path.string());
  Graph back = readGraphJson(path.string());
  std::filesystem::remove(path);
  gptest::expectSameGraph(g, back);
}

TEST(JsonIo, MinimalHandWrittenGraph) {
  Graph g = parseGraphJson(R"({"format": "graphplace-graph", "ops": [
      {"name": "a", "type": "Const", "outputs": ["t"], "flops": 5},
      {"name": "b", "type": "Relu", "inputs": ["t"], "outputs": ["u"]}]})", "hand.json");
  EXPECT_EQ(g.numOps(), 2);
  EXPECT_EQ(g.numEdges(), 1);
  EXPECT_EQ(g.flops(0), 5);
  EXPECT_FALSE(g.hasShape(g.findTensor("t")));
}

namespace {
std::string errorOf(const std::string& text) {
  return gptest::errorOf([&] { parseGraphJson(text, "bad.json"); });
}
}  // namespace

TEST(JsonIo, BadInputGivesOneClearLine) {
  struct Case {
    const char* text;
    const char* expect;
  } cases[] = {
      {"", "not valid JSON"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [", "not valid JSON"},
      {"[1,2]", "not a graphplace graph"},
      {"{\"format\": \"other\"}", "not a graphplace graph"},
      {"{\"format\": \"graphplace-graph\", \"version\": 7, \"ops\": []}", "unsupported version 7"},
      {"{\"format\": \"graphplace-graph\"}", "missing field 'ops'"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [{\"type\": \"X\"}]}", "missing field 'name'"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [{\"name\": \"a\", \"type\": \"X\", \"flops\": \"many\"}]}",
       "op #0 ('a'): field 'flops' must be a number"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [{\"name\": \"a\", \"type\": \"X\", \"flops\": -1}]}",
       "non-negative"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [{\"name\": \"a\", \"type\": \"X\", \"inputs\": [\"z\"]}]}",
       "reads tensor 'z', which nothing produces"},
      {"{\"format\": \"graphplace-graph\", \"ops\": [{\"name\": \"a\", \"type\": \"X\", \"inputs\": [\"u\"], "
       "\"outputs\": [\"t\"]}, {\"name\": \"b\", \"type\": \"X\", \"inputs\": [\"t\"], \"outputs\": [\"u\"]}]}",
       "cycle"},
      {"{\"format\": \"graphplace-graph\", \"tensors\": [{\"name\": \"t\", \"dtype\": \"f128\"}], \"ops\": []}",
       "unknown dtype 'f128'"},
      {"{\"format\": \"graphplace-graph\", \"tensors\": [{\"name\": \"t\", \"shape\": [2, -3]}], \"ops\": []}",
       "non-negative integers"},
  };
  for (const auto& c : cases) {
    std::string msg = errorOf(c.text);
    EXPECT_EQ(msg.rfind("bad.json: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "input: " << c.text << "\nmessage: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(JsonIo, MissingFileNamesThePath) {
  try {
    readGraphJson("/nonexistent/graph.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/graph.json: ", 0), 0u);
  }
}

// Every importer's result survives our JSON exactly (zoo, ONNX, DOT).
TEST(JsonIo, ImportedGraphsRoundTrip) {
  const std::vector<std::pair<std::string, Graph>> graphs = [] {
    std::vector<std::pair<std::string, Graph>> v;
    v.emplace_back("zoo:resnet50 training", loadModel("zoo:resnet50", {}));
    v.emplace_back("onnx resnet18", loadModel(gptest::dataPath("onnx/resnet18.onnx"), {}));
    v.emplace_back("onnx seq2seq training",
                   loadModel(gptest::dataPath("onnx/seq2seq_unrolled.onnx"), {.mode = GraphMode::Training}));
    v.emplace_back("dot clusters", loadModel(gptest::dataPath("dot/clusters.dot"), {}));
    return v;
  }();
  for (const auto& [what, g] : graphs) {
    SCOPED_TRACE(what);
    gptest::expectSameGraph(g, parseGraphJson(graphToJson(g), what));
  }
}
