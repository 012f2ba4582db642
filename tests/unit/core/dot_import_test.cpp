// DOT import via cgraph: node attributes op by op, clusters, a large generated graph, and
// malformed inputs (each a one-line gp::Error naming the file, nothing on stderr).
#include "io/dot_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "graph/graph.h"
#include "test_paths.h"

namespace {

using gp::Graph;
using gp::OpId;

std::vector<std::string> producersOf(const Graph& g, const std::string& op) {
  std::vector<std::string> names;
  OpId id = g.findOp(op);
  EXPECT_NE(id, gp::kNone) << "no op " << op;
  if (id == gp::kNone) return names;
  for (OpId p : g.fanIn(id)) names.push_back(g.opName(p));
  std::sort(names.begin(), names.end());
  return names;
}

int64_t outputBytes(const Graph& g, const std::string& op) {
  OpId id = g.findOp(op);
  EXPECT_NE(id, gp::kNone) << "no op " << op;
  return id == gp::kNone ? -1 : g.tensorBytes(g.outputs(id)[0]);
}

// The gp::Error message of importing `path` (or of a string, when `text` is given), and
// whatever went to stderr meanwhile.
std::pair<std::string, std::string> errorOf(const std::string& path, const std::string* text = nullptr) {
  testing::internal::CaptureStderr();
  std::string message = "no error";
  try {
    if (text)
      gp::importDotString(*text, path);
    else
      gp::importDot(path);
  } catch (const gp::Error& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("non-gp exception: ") + e.what();
  }
  return {message, testing::internal::GetCapturedStderr()};
}

TEST(DotImport, SmallGraphAttributesOpByOp) {
  Graph g = gp::importDot(gptest::dataPath("dot/small.dot"));
  EXPECT_EQ(g.name(), "small");
  ASSERT_EQ(g.numOps(), 6);
  EXPECT_EQ(g.numEdges(), 6);  // relu1 -> fc twice counts once

  struct Expect {
    std::string name, type;
    double flops;
    int64_t bytes;
    std::string device;
    std::vector<std::string> producers;
  };
  const std::vector<Expect> expected = {
      {"input", "Input", 0, 602112, "", {}},
      {"conv1", "Conv", 2.36e8, 3211264, "gpu:0", {"input"}},
      {"relu1", "Relu", 802816, 3211264, "", {"conv1"}},
      {"pool", "MaxPool", 1.8e6, 802816, "gpu:1", {"relu1"}},
      {"fc", "Gemm", 1025000, 4000, "", {"pool", "relu1"}},
      {"misc", "Op", 0, 0, "", {"input"}},  // label is not a type
  };
  for (const Expect& e : expected) {
    SCOPED_TRACE(e.name);
    OpId op = g.findOp(e.name);
    ASSERT_NE(op, gp::kNone);
    EXPECT_EQ(g.opType(op), e.type);
    EXPECT_DOUBLE_EQ(g.flops(op), e.flops);
    EXPECT_EQ(outputBytes(g, e.name), e.bytes);
    EXPECT_EQ(g.requestedDevice(op), e.device);
    EXPECT_EQ(producersOf(g, e.name), e.producers);
    ASSERT_EQ(g.outputs(op).size(), 1u);
    EXPECT_EQ(g.tensorName(g.outputs(op)[0]), e.name + ":0");
  }
  // fc reads both of its producers' outputs: bytes read is their sum.
  EXPECT_EQ(g.bytesRead(g.findOp("fc")), 3211264 + 802816);
  EXPECT_DOUBLE_EQ(g.totalFlops(), 2.36e8 + 802816 + 1.8e6 + 1025000);
}

TEST(DotImport, ClustersAreFlattenedAndKeepNodeNames) {
  Graph g = gp::importDot(gptest::dataPath("dot/clusters.dot"));
  EXPECT_EQ(g.numOps(), 7);
  EXPECT_EQ(g.numEdges(), 7);
  EXPECT_EQ(g.opType(g.findOp("enc1")), "MatMul");
  EXPECT_DOUBLE_EQ(g.flops(g.findOp("enc1")), 1000);
  EXPECT_DOUBLE_EQ(g.flops(g.findOp("dec0")), 2000);
  EXPECT_EQ(g.opType(g.findOp("attn")), "Softmax");  // innermost cluster's defaults win
  EXPECT_EQ(g.requestedDevice(g.findOp("loss")), "gpu:3");
  EXPECT_EQ(producersOf(g, "attn"), (std::vector<std::string>{"dec0", "enc2"}));
  EXPECT_EQ(producersOf(g, "dec1"), (std::vector<std::string>{"attn", "dec0"}));
  EXPECT_EQ(g.maxScopeDepth(), 0);  // no cluster prefixes in names
}

TEST(DotImport, LargeGeneratedGraph) {
  // 40 layers x 50 nodes; node (l, i) reads (l-1, i), (l-1, (i*7+3) % 50) and, written twice,
  // (l-1, (i+1) % 50).
  const int layers = 40, width = 50;
  std::string text = "digraph generated {\n";
  std::set<std::pair<std::string, std::string>> edges;
  double flops = 0;
  auto name = [](int l, int i) { return "n" + std::to_string(l) + "_" + std::to_string(i); };
  for (int l = 0; l < layers; ++l) {
    for (int i = 0; i < width; ++i) {
      const int f = (l * width + i) % 97;
      text += "  " + name(l, i) + " [op=L" + std::to_string(l % 3) + ", flops=\"" + std::to_string(f) +
              "e3\"];\n";
      flops += f * 1e3;
      if (l == 0) continue;
      for (int j : {i, (i * 7 + 3) % width, (i + 1) % width, (i + 1) % width}) {
        text += "  " + name(l - 1, j) + " -> " + name(l, i) + ";\n";
        edges.emplace(name(l - 1, j), name(l, i));
      }
    }
  }
  text += "}\n";
  Graph g = gp::importDotString(text, "generated.dot");
  EXPECT_EQ(g.numOps(), layers * width);
  EXPECT_EQ(g.numEdges(), static_cast<int64_t>(edges.size()));
  EXPECT_NEAR(g.totalFlops(), flops, 1e-6 * flops);
  EXPECT_EQ(g.opType(g.findOp("n4_0")), "L1");
  EXPECT_EQ(producersOf(g, "n1_0"), (std::vector<std::string>{"n0_0", "n0_1", "n0_3"}));
  // Producers come before consumers in topological order.
  std::vector<int> position(g.numOps());
  for (size_t k = 0; k < g.topoOrder().size(); ++k) position[g.topoOrder()[k]] = static_cast<int>(k);
  for (OpId op = 0; op < g.numOps(); ++op)
    for (OpId p : g.fanIn(op)) EXPECT_LT(position[p], position[op]);
}

TEST(DotImport, NumbersAcceptENotationAndSpaces) {
  Graph g = gp::importDotString(
      "digraph { a [flops=\"2E6\", bytes=\"1e3\"]; b [flops=\" 7 \", bytes=\"+16\"]; c [flops=0.5]; }",
      "x.dot");
  EXPECT_DOUBLE_EQ(g.flops(g.findOp("a")), 2e6);
  EXPECT_EQ(outputBytes(g, "a"), 1000);
  EXPECT_DOUBLE_EQ(g.flops(g.findOp("b")), 7);
  EXPECT_EQ(outputBytes(g, "b"), 16);
  EXPECT_DOUBLE_EQ(g.flops(g.findOp("c")), 0.5);
}

TEST(DotImport, MalformedFilesGiveOneLineErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"syntax_error.dot", "syntax error near line 3: cgraph says \"syntax error in line 3 near '->'\""},
      {"cycle.dot", "graph has a cycle"},
      {"undirected.dot", "undirected graph; graphplace needs a digraph"},
      {"bad_flops.dot", "node 'a': flops \"12 GFLOP\" is not a non-negative number"},
      {"negative_flops.dot", "node 'a': flops \"-5\" is not a non-negative number"},
      {"bad_bytes.dot", "node 'a': bytes \"lots\" is not a non-negative whole number"},
      {"self_loop.dot", "self loop on node 'b'"},
      {"no_nodes.dot", "no nodes"},
      {"empty.dot", "empty file: no DOT graph in it"},
      {"does_not_exist.dot", "no such file"},
  };
  for (const auto& [file, problem] : cases) {
    const std::string path = gptest::dataPath("malformed/" + file);
    auto [message, stderrText] = errorOf(path);
    EXPECT_EQ(message.rfind(path + ": " + problem, 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(stderrText, "") << file;
  }
}

TEST(DotImport, SyntaxErrorLinesAreRightAcrossParses) {
  const std::string bad3 = "digraph {\n a;\n b -> ;\n}\n", good = "digraph { a -> b }",
                    bad5 = "digraph {\n\n\n\n  x [op=Conv flops=\"1.5e9\"]; ]\n}\n",
                    ambiguous = "digraph {\n a [flops=1.5e9];\n}";
  EXPECT_EQ(errorOf("one.dot", &bad3).first.rfind("one.dot: syntax error near line 3: ", 0), 0u);
  EXPECT_EQ(gp::importDotString(good, "good.dot").numOps(), 2);
  auto [message, stderrText] = errorOf("two.dot", &bad5);
  EXPECT_EQ(message.rfind("two.dot: syntax error near line 5: ", 0), 0u) << message;
  EXPECT_EQ(stderrText, "");
  // An unquoted 1.5e9 is not a DOT number: cgraph's warning about it is part of the message.
  auto [m2, e2] = errorOf("three.dot", &ambiguous);
  EXPECT_NE(m2.find("near line 2"), std::string::npos) << m2;
  EXPECT_NE(m2.find("badly delimited number"), std::string::npos) << m2;
  EXPECT_EQ(e2, "");
  EXPECT_EQ(gp::importDotString(good, "good.dot").numOps(), 2);
}

TEST(DotImport, NothingCarriesOverToTheNextParse) {
  // cgraph's lexer keeps unread input between parses: a second graph in a file, or the rest
  // of a file whose nesting exhausted the parser. None of it may reach the next import.
  const std::string twoGraphs = "digraph first { a -> b } digraph second { c }";
  const std::string undirected = "graph { x -- y }";
  const std::string deep = "digraph {" + std::string(20000, '{') + "a" + std::string(20000, '}') + "}";
  Graph g = gp::importDotString(twoGraphs, "two.dot");  // the first graph is used
  EXPECT_EQ(g.name(), "first");
  EXPECT_EQ(g.numOps(), 2);
  EXPECT_EQ(errorOf("u.dot", &undirected).first, "u.dot: undirected graph; graphplace needs a digraph");
  auto [message, stderrText] = errorOf("deep.dot", &deep);
  EXPECT_EQ(message.rfind("deep.dot: cannot parse DOT near line 1: cgraph says \"memory exhausted", 0), 0u)
      << message;
  EXPECT_EQ(stderrText, "");
  EXPECT_EQ(errorOf("u.dot", &undirected).first, "u.dot: undirected graph; graphplace needs a digraph");
  EXPECT_EQ(gp::importDotString("digraph { p -> q -> r }", "ok.dot").numOps(), 3);
}

}  // namespace
