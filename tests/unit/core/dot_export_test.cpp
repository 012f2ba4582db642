// DOT export: a placed graph read back by our DOT importer gives the same ops, types, FLOPs,
// output bytes, edges and (as requested devices) the plan's devices; awkward names survive;
// Graphviz itself renders the file.
#include "io/dot_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/graph_builder.h"
#include "base/device_palette.h"
#include "io/dot_import.h"
#include "onnxio/onnx_import.h"
#include "test_clusters.h"
#include "test_graphs.h"
#include "test_paths.h"

namespace {

using gp::Graph;
using gp::OpId;

gp::Plan roundRobin(const Graph& g, int devices) {
  gp::Plan p;
  for (OpId op = 0; op < g.numOps(); ++op) p.device.push_back((op * 7 + op / 3) % devices);
  return p;
}

std::set<std::string> producerNames(const Graph& g, OpId op) {
  std::set<std::string> names;
  for (OpId p : g.fanIn(op)) names.insert(g.opName(p));
  return names;
}

// Everything the importer can carry, op by op (matched by name).
void expectRoundTrip(const Graph& g, const gp::Plan& plan, const gp::Cluster& c) {
  const std::string dot = gp::graphToDot(g, plan, c);
  const Graph back = gp::importDotString(dot, "export.dot");
  EXPECT_EQ(back.name(), g.name());
  ASSERT_EQ(back.numOps(), g.numOps());
  EXPECT_EQ(back.numEdges(), g.numEdges());
  for (OpId op = 0; op < g.numOps(); ++op) {
    SCOPED_TRACE(g.opName(op));
    const OpId b = back.findOp(g.opName(op));
    ASSERT_NE(b, gp::kNone);
    EXPECT_EQ(b, op);  // same order
    EXPECT_EQ(back.opType(b), g.opType(op));
    EXPECT_EQ(back.flops(b), g.flops(op));  // exact: shortest round-trip decimal
    EXPECT_EQ(back.bytesWritten(b), g.bytesWritten(op));
    EXPECT_EQ(back.requestedDevice(b), plan.device.empty() ? "" : c.device(plan.device[op]).name);
    EXPECT_EQ(producerNames(back, b), producerNames(g, op));
  }
}

TEST(DotExport, OnnxFixturesRoundTripThroughTheImporter) {
  const gp::Cluster c = gptest::toyCluster(1, 4);
  for (const char* name : {"resnet18", "mobilenet_v2", "lstm", "transformer_encoder"}) {
    SCOPED_TRACE(name);
    const Graph g = gp::importOnnx(gptest::dataPath(std::string("onnx/") + name + ".onnx"));
    expectRoundTrip(g, roundRobin(g, 4), c);
  }
}

TEST(DotExport, NodeAndEdgeAttributes) {
  const Graph g = gptest::smallMlp();
  const gp::Cluster c = gptest::toyCluster(1, 2);
  gp::Plan plan{{0, 1, 1, 0}, {4, 3, 2, 1}, {-1, 5, 5, -1}};
  const std::string dot = gp::graphToDot(g, plan, c);
  // fc1/Relu: short name + type label, device 1's colour, 32*128 floats out, fused in group 5
  EXPECT_NE(dot.find("\"fc1/Relu\" [label=\"Relu\", op=\"Relu\", flops=\"4096\", bytes=\"16384\", "
                     "device=\"gpu1\", device_index=\"1\", priority=\"3\", fusion_group=\"5\", fillcolor=\"" +
                     gp::deviceColorHex(1) + "\", fontcolor="),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"fc1/MatMul\" [label=\"MatMul\", op=\"MatMul\", flops=\"524288\", bytes=\"16384\", "
                     "device=\"gpu0\", device_index=\"0\", priority=\"4\", fillcolor=\"" +
                     gp::deviceColorHex(0) + "\""),
            std::string::npos)
      << dot;
  // the tensor h (32x128 floats) on the edge
  EXPECT_NE(dot.find("\"fc1/MatMul\" -> \"fc1/Relu\" [bytes=\"16384\", label=\"16 KiB\"];"), std::string::npos) << dot;
  // legend: both devices with their colours
  EXPECT_NE(dot.find("<TD BGCOLOR=\"" + gp::deviceColorHex(1) + "\">"), std::string::npos);
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '\n'), 4 + g.numOps() + 2 + 1);  // header, ops, 2 edges, "}"
  expectRoundTrip(g, plan, c);
}

TEST(DotExport, UnplacedGraphHasNoDevices) {
  const Graph g = gptest::smallMlp();
  const gp::Cluster c = gptest::toyCluster(1, 2);
  const std::string dot = gp::graphToDot(g, gp::Plan{}, c);
  EXPECT_EQ(dot.find("device="), std::string::npos);
  expectRoundTrip(g, gp::Plan{}, c);
  gp::Plan bad{{0, 1, 2, 0}, {}, {}};  // device 2 of 2
  EXPECT_THROW(gp::graphToDot(g, bad, c), std::invalid_argument);
}

Graph namedChain(const std::vector<std::string>& names, const std::string& graphName) {
  gp::GraphBuilder b("names");
  gp::TensorId x = b.addGraphInput({"x", {4}});
  for (const auto& name : names)
    x = b.output(b.addOp({.name = name, .type = "Ty\"pe\\", .inputs = {x}, .outputs = {{"", {4}}}, .flops = 1}));
  return std::move(b).build(graphName);
}

TEST(DotExport, AwkwardNamesSurvive) {
  const std::vector<std::string> names = {"quote\"inside",
                                          "back\\slash",
                                          "two\\\\",
                                          "new\nline",
                                          "trailing\\",
                                          "odd\\\"quote",
                                          "even\\\\\"quote",
                                          "slash-nl\\\nx",
                                          "<b>html</b>",
                                          "node",
                                          "-> { } ; = [ ]",
                                          "层/卷积/Conv",
                                          "tab\tand\rcr",
                                          "a/b/",
                                          " spaced ",
                                          "ends>with<brackets",
                                          "\"",
                                          "\\\\\\",
                                          "+",
                                          "100%"};
  const Graph g = namedChain(names, "graph \"with\" \\ name");
  const gp::Cluster c = gptest::toyCluster(1, 2);
  const gp::Plan plan = roundRobin(g, 2);
  const std::string dot = gp::graphToDot(g, plan, c);
  // the label shows the name and type with backslashes doubled and newlines as \n
  EXPECT_NE(dot.find("label=\"back\\\\slash\\nTy\\\"pe\\\\\", op="), std::string::npos) << dot;
  EXPECT_NE(dot.find("<trailing\\> [label="), std::string::npos) << dot;  // HTML-string id
  const Graph back = gp::importDotString(dot, "names.dot");
  EXPECT_EQ(back.name(), g.name());
  ASSERT_EQ(back.numOps(), g.numOps());
  for (OpId op = 0; op < g.numOps(); ++op) {
    EXPECT_EQ(back.opName(op), names[op]);
    EXPECT_EQ(back.opType(op), "Ty\"pe\\");
    if (op > 0) {
      EXPECT_EQ(producerNames(back, op), (std::set<std::string>{names[op - 1]}));
    }
  }

  // cgraph takes ids starting with '%' for its anonymous ones: such an op comes back renamed
  // "%<number>", with its edges
  const Graph pct = namedChain({"a", "%b", "c"}, "pct");
  const Graph pctBack = gp::importDotString(gp::graphToDot(pct, roundRobin(pct, 2), c), "pct.dot");
  ASSERT_EQ(pctBack.numOps(), 3);
  EXPECT_EQ(pctBack.opName(1).front(), '%');
  EXPECT_EQ(pctBack.numEdges(), 2);
  EXPECT_EQ(pctBack.requestedDevice(1), "gpu1");

  // an odd backslash run before the end and unbalanced angle brackets: not writable
  const Graph bad = namedChain({"ok", "<odd\\"}, "bad");
  EXPECT_THROW(gp::graphToDot(bad, roundRobin(bad, 2), c), std::invalid_argument);
}

TEST(DotExport, DeviceNamesNeedingEscapesRoundTrip) {
  const std::string json = R"({"name": "odd \"cluster\"", "device_kinds": {"T": {"peak_TFLOPS": {"f32": 1},
      "memory_bandwidth_GBps": 100, "memory_GiB": 1,
      "launch_overhead_us": 0}}, "devices": [{"name": "gpu \"0\"", "kind": "T"},
      {"name": "<gpu1>\\", "kind": "T"}], "switches": [{"name": "sw", "kind": "switch"}],
      "links": [{"between": ["sw", "gpu \"0\""], "kind": "x", "bandwidth_GBps": 1, "latency_us": 1},
                {"between": ["sw", "<gpu1>\\"], "kind": "x", "bandwidth_GBps": 1, "latency_us": 1}]})";
  const gp::Cluster c = gp::parseClusterJson(json, "odd.json");
  const Graph g = gptest::smallMlp();
  expectRoundTrip(g, roundRobin(g, 2), c);
}

// Graphviz renders the export (HTML legend, labels, colours, HTML-string ids) without a warning.
std::string renderErrors(const std::string& dot, const std::string& png) {
  const std::string base =
      (std::filesystem::temp_directory_path() / ("gp_dot_export_" + std::to_string(getpid()))).string();
  std::ofstream(base + ".dot") << dot;
  const int rc = std::system(("dot -Tsvg " + base + ".dot -o " + base + ".svg 2>" + base + ".err").c_str());
  std::ifstream err(base + ".err");
  std::string messages{std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>()};
  if (rc != 0) messages += "dot exited with " + std::to_string(rc);
  if (std::filesystem::file_size(base + ".svg") < 1000) messages += "tiny svg";
  if (const char* dir = std::getenv("GP_SCREENSHOT_DIR")) {
    EXPECT_EQ(std::system(("dot -Tpng " + base + ".dot -o " + std::string(dir) + "/" + png).c_str()), 0);
  }
  for (const char* ext : {".dot", ".svg", ".err"}) std::filesystem::remove(base + ext);
  return messages;
}

TEST(DotExport, GraphvizRendersIt) {
  if (std::system("dot -V >/dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz dot not installed";
  const gp::Cluster c = gptest::toyCluster(1, 4);
  const Graph g = gp::importOnnx(gptest::dataPath("onnx/mlp.onnx"));
  EXPECT_EQ(renderErrors(gp::graphToDot(g, roundRobin(g, 4), c), "dot_export_mlp.png"), "");
  const Graph names = namedChain({"a\"b", "trailing\\", "<b>x</b>", "new\nline", "x\\\"y"}, "names & <more>");
  EXPECT_EQ(renderErrors(gp::graphToDot(names, roundRobin(names, 4), c), "dot_export_names.png"), "");
}

}  // namespace
