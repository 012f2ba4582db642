// The bounds on hostile input (base/input_limits.h, io/torch_archive.h): files claiming ten
// million ops, 50,000-deep nesting, a text over the size limit or a zip bomb are refused with one
// line naming the file and the limit, before their memory is spent; GRAPHPLACE_MAX_OPS moves the
// limits.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/input_limits.h"
#include "cluster/cluster.h"
#include "io/model_loader.h"
#include "io/torch_archive.h"
#include "onnx_test_model.h"
#include "scoped_env.h"
#include "zip_bomb.h"

using namespace gp;

namespace {

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The error loadModel gives, checked to be one line starting with the file's name.
std::string loadError(const std::string& path) {
  try {
    loadModel(path);
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
    return m;
  }
  return "no error";
}

std::string varint(uint64_t v) {
  std::string out;
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  out.push_back(static_cast<char>(v));
  return out;
}

// An ONNX ModelProto on the wire whose graph holds `nodes` Relu nodes.
std::string onnxWithNodes(int64_t nodes) {
  const std::string node = "\x22\x04Relu";                        // NodeProto.op_type = "Relu"
  const std::string entry = "\x0a" + varint(node.size()) + node;  // GraphProto.node
  std::string graph;
  graph.reserve(static_cast<size_t>(nodes) * entry.size());
  for (int64_t i = 0; i < nodes; ++i) graph += entry;
  return "\x08\x08" + std::string("\x3a") + varint(graph.size()) + graph;  // ir_version 8, ModelProto.graph
}

std::string jsonGraph(int ops) {
  std::string text = R"({"format": "graphplace-graph", "tensors": [], "ops": [)";
  for (int i = 0; i < ops; ++i) text += (i ? "," : "") + std::string(R"({"name": "op)") + std::to_string(i) + R"(", "type": "X"})";
  return text + "]}";
}

}  // namespace

TEST(InputLimits, TheOpLimitComesFromTheEnvironment) {
  EXPECT_EQ(maxModelOps(), kDefaultMaxOps);
  {
    gptest::ScopedEnv env(kMaxOpsVariable, "1000");
    EXPECT_EQ(maxModelOps(), 1000);
    EXPECT_EQ(maxTextFileBytes(), 512000);
    EXPECT_EQ(maxJsonValues(), 64000);
  }
  for (const char* bad : {"", "0", "-5", "12abc", "99999999999999999999"}) {
    gptest::ScopedEnv env(kMaxOpsVariable, bad);
    EXPECT_EQ(maxModelOps(), kDefaultMaxOps) << bad;
  }
}

TEST(InputLimits, TheTorchScriptBoundsComeFromTheEnvironment) {
  EXPECT_EQ(torchScriptSeconds(), kDefaultTorchScriptSeconds);
  const int64_t memory = torchScriptMemoryBytes();
  EXPECT_GT(memory, int64_t{256} << 20);
  {
    gptest::ScopedEnv seconds(kTorchScriptSecondsVariable, "7");
    gptest::ScopedEnv bytes(kTorchScriptMemoryVariable, "300");
    EXPECT_EQ(torchScriptSeconds(), 7);
    EXPECT_EQ(torchScriptMemoryBytes(), int64_t{300} << 20);
  }
  for (const char* bad : {"", "0", "-5", "soon", "99999999999999999999"}) {
    gptest::ScopedEnv seconds(kTorchScriptSecondsVariable, bad);
    gptest::ScopedEnv bytes(kTorchScriptMemoryVariable, bad);
    EXPECT_EQ(torchScriptSeconds(), kDefaultTorchScriptSeconds) << bad;
    EXPECT_EQ(torchScriptMemoryBytes(), memory) << bad;
  }
}

TEST(InputLimits, AnOnnxModelOfTenMillionNodesIsRefusedBeforeItIsParsed) {
  onnxtest::TempDir dir;
  const std::string path = dir.file("ten_million.onnx");
  writeFile(path, onnxWithNodes(10'000'000));
  const std::string m = loadError(path);
  EXPECT_NE(m.find("the model has 10000000 nodes, over the limit of 2000000 (set GRAPHPLACE_MAX_OPS"), std::string::npos)
      << m;
}

TEST(InputLimits, RaisingTheLimitLetsALargerModelIn) {
  onnxtest::TempDir dir;
  const std::string path = dir.file("relus.onnx");
  writeFile(path, onnxWithNodes(50));
  {
    gptest::ScopedEnv env(kMaxOpsVariable, "49");
    EXPECT_NE(loadError(path).find("50 nodes, over the limit of 49"), std::string::npos);
  }
  // With the limit out of the way the importer gets to the model itself (Relu without inputs).
  gptest::ScopedEnv env(kMaxOpsVariable, "50");
  EXPECT_EQ(loadError(path).find("over the limit"), std::string::npos);
}

TEST(InputLimits, JsonGraphsDotFilesAndTextSizesAreBounded) {
  onnxtest::TempDir dir;
  gptest::ScopedEnv env(kMaxOpsVariable, "100");
  const std::string json = dir.file("ops.json");
  writeFile(json, jsonGraph(101));
  EXPECT_NE(loadError(json).find("the model has 101 ops, over the limit of 100"), std::string::npos);

  std::string dotText = "digraph g {\n";
  for (int i = 0; i < 101; ++i) dotText += "  n" + std::to_string(i) + " [op=Relu];\n";
  const std::string dot = dir.file("nodes.dot");
  writeFile(dot, dotText + "}\n");
  EXPECT_NE(loadError(dot).find("more than 100 nodes, over the limit"), std::string::npos) << loadError(dot);

  // Edges between few nodes are bounded too: four per op.
  std::string edges = "digraph g {\n";
  for (int i = 0; i < 401; ++i) edges += "  a -> b;\n";
  writeFile(dot, edges + "}\n");
  EXPECT_NE(loadError(dot).find("more than 400 edge operators"), std::string::npos);

  // Attributes and ports are not nodes: 60 nodes with long attribute lists pass the bound.
  std::string attrs = "digraph g {\n";
  for (int i = 0; i < 60; ++i) attrs += "  n" + std::to_string(i) + " [op=Relu flops=1 label=\"x\"];\n";
  writeFile(dot, attrs + "}\n");
  EXPECT_EQ(loadError(dot), "no error");

  // 100 ops allow 51,200 bytes of text.
  const std::string big = dir.file("big.json");
  writeFile(big, jsonGraph(1) + std::string(60000, ' '));
  EXPECT_NE(loadError(big).find("bytes, over the limit of 51200 bytes for a graphplace JSON file"), std::string::npos)
      << loadError(big);
}

TEST(InputLimits, FiftyThousandDeepNestingIsRefusedInOneLine) {
  const std::string deep = std::string(50000, '[') + std::string(50000, ']');
  for (auto parse : {+[](const std::string& t) { parseClusterJson(t, "deep.json"); }}) {
    try {
      parse(deep);
      FAIL();
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), "deep.json: JSON nested more than 512 levels deep, over the limit");
    }
  }
  onnxtest::TempDir dir;
  const std::string dot = dir.file("deep.dot");
  writeFile(dot, "digraph g {" + std::string(50000, '{') + " a -> b " + std::string(50000, '}') + "}");
  EXPECT_NE(loadError(dot), "no error");
  const std::string json = dir.file("deep.json");
  writeFile(json, R"({"format": "graphplace-graph", "ops": )" + deep + "}");
  EXPECT_NE(loadError(json).find("nested more than 512 levels"), std::string::npos);
}

TEST(InputLimits, AZipBombInATorchArchiveIsRefused) {
  onnxtest::TempDir dir;
  const std::string path = dir.file("bomb.pt");
  ASSERT_TRUE(gptest::writeZipBomb(path));
  try {
    checkTorchArchive(path);
    FAIL();
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ": record bomb/data/0 expands ", 0), 0u) << m;
    EXPECT_NE(m.find("bytes to 67108864, over 100 times (a zip bomb?)"), std::string::npos) << m;
  }
  // PyTorch's own archives pass.
  EXPECT_NO_THROW(checkTorchArchive(GP_TEST_DATA_DIR "/torchscript/mlp.pt"));
  EXPECT_NO_THROW(checkTorchArchive(GP_TEST_DATA_DIR "/malformed/not_torchscript.pt"));
}
