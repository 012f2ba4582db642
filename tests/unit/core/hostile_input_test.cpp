// Inputs crafted to exhaust memory, overflow sums or break the one-line error contract.
#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "error_text.h"
#include "graph/graph_stats.h"
#include "graph/training.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "test_paths.h"

using namespace gp;

namespace {
std::string graphWithOps(const std::string& ops, const std::string& tensors = "") {
  return R"({"format": "graphplace-graph", "tensors": [)" + tensors + R"(], "ops": [)" + ops + "]}";
}
std::string errorOf(const std::string& json) {
  return gptest::errorOf([&] { deriveTrainingGraph(parseGraphJson(json, "h.json")); });
}
}  // namespace

TEST(HostileInput, DeepScopesAreRefusedNotRecursed) {
  std::string name;
  for (int i = 0; i < 20000; ++i) name += "a/";
  name += "Op";
  std::string msg = errorOf(graphWithOps(R"({"name": ")" + name + R"(", "type": "X"})"));
  EXPECT_NE(msg.find("nested deeper than 256 levels"), std::string::npos) << msg.substr(0, 200);
  EXPECT_LT(msg.size(), 300u);
}

TEST(HostileInput, HugeByteCountsAreRefusedNotOverflowed) {
  std::string msg = errorOf(graphWithOps(R"({"name": "a", "type": "X", "inputs": ["x", "y"]})",
                                         R"({"name": "x", "kind": "input", "bytes": 9000000000000000000},
                                            {"name": "y", "kind": "input", "bytes": 9000000000000000000})"));
  EXPECT_NE(msg.find("tensor 'x' is too large"), std::string::npos) << msg;
  EXPECT_NE(errorOf(graphWithOps(R"({"name": "a", "type": "X", "flops": 1e400})")).find("h.json: not valid JSON"),
            std::string::npos);
}

TEST(HostileInput, ControlCharactersInNamesStayOnOneLine) {
  std::string msg = errorOf(graphWithOps(R"({"name": "a\nb", "type": "X"}, {"name": "a\nb", "type": "X"})"));
  EXPECT_NE(msg.find("duplicate op name 'a\\x0ab'"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

TEST(HostileInput, WideOpsTrainInLinearSize) {
  // One Concat over 20k parameters: gradient ops must not each read the other 19,999 inputs.
  std::string tensors, inputs;
  for (int i = 0; i < 20000; ++i) {
    if (i > 0) {
      tensors += ',';
      inputs += ',';
    }
    std::string name = "p";
    name += std::to_string(i);
    tensors += R"({"name": ")";
    tensors += name;
    tensors += R"(", "kind": "param", "shape": [1]})";
    inputs += '"';
    inputs += name;
    inputs += '"';
  }
  Graph f = parseGraphJson(
      graphWithOps(R"({"name": "cat", "type": "Concat", "inputs": [)" + inputs + R"(], "outputs": ["y"]})", tensors),
      "wide.json");
  Graph t = deriveTrainingGraph(f);
  int64_t inputsTotal = 0;
  for (OpId op = 0; op < t.numOps(); ++op) inputsTotal += static_cast<int64_t>(t.inputs(op).size());
  EXPECT_LT(inputsTotal, 200000);
  EXPECT_EQ(computeStats(t).updateOps, 20000);
}

TEST(HostileInput, TrainingNamesNeverCollideWithTheModels) {
  // The model already has tensors called like the ones training would generate.
  Graph f = parseGraphJson(graphWithOps(R"({"name": "a", "type": "Mul", "inputs": ["w"], "outputs": ["gradients/a_grad:0"]},
      {"name": "b", "type": "Mul", "inputs": ["gradients/a_grad:0"], "outputs": ["loss/Loss:0"]})",
                                        R"({"name": "w", "kind": "param", "shape": [2]})"),
                           "coll.json");
  Graph t = deriveTrainingGraph(f);
  EXPECT_GT(computeStats(t).backwardOps, 0);
}

TEST(HostileInput, EinsumWithTwoEllipsesIsNotReadOutOfBounds) {
  Graph g = loadModel(gptest::dataPath("malformed/einsum_two_ellipses.onnx"), {});
  EXPECT_EQ(g.numOps(), 1);
}

TEST(HostileInput, TrainingErrorsNameTheFile) {
  try {
    loadModel(gptest::dataPath("malformed/einsum_two_ellipses.onnx"), {.mode = GraphMode::Training});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(gptest::dataPath("malformed/einsum_two_ellipses.onnx") + ": ", 0), 0u)
        << e.what();
  }
}
