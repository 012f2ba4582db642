// Annotated ONNX export: every fixture gets a placement line on every node, re-imports to the
// same ops, reads back to the plan, keeps all other content, passes onnx.checker, and non-ONNX
// or foreign inputs give one clear line.
#include "onnxio/onnx_export.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "error_text.h"
#include "graph/graph_builder.h"
#include "graph/training.h"
#include "onnxio/onnx_import.h"
#include "test_clusters.h"
#include "test_paths.h"

namespace {

namespace fs = std::filesystem;
using gp::Graph;
using gp::OpId;

class ExportDir {
 public:
  ExportDir() {
    static int counter = 0;
    path_ =
        fs::temp_directory_path() / ("gp_onnx_export_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~ExportDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ExportDir(const ExportDir&) = delete;
  ExportDir& operator=(const ExportDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Round robin over the devices, priorities counting down, ops 3k and 3k+1 fused in pairs.
gp::Plan testPlan(const Graph& g, int devices, bool extras) {
  gp::Plan p;
  for (OpId op = 0; op < g.numOps(); ++op) {
    p.device.push_back(op % devices);
    if (extras) {
      p.priority.push_back(g.numOps() - op);
      p.fusionGroup.push_back(op % 3 == 2 ? -1 : op / 3);
    }
  }
  return p;
}

gp::Measurement testMeasurement() {
  gp::Measurement m;
  m.stepTime = 0.0125;
  m.lowerBound = 0.01;
  return m;
}

// The model with everything the exporter adds taken out again.
onnx::ModelProto stripped(const std::string& bytes) {
  onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromString(bytes));
  for (auto& node : *m.mutable_graph()->mutable_node()) {
    std::string doc = node.doc_string();
    const auto at = doc.find("graphplace: ");
    if (at != std::string::npos) doc.erase(at == 0 ? 0 : at - 1);
    node.set_doc_string(doc);
  }
  auto* props = m.mutable_metadata_props();
  for (int i = props->size() - 1; i >= 0; --i) {
    const std::string& k = props->Get(i).key();
    if (k != "graphplace.weights" && k.rfind("graphplace.", 0) == 0) props->DeleteSubrange(i, 1);
  }
  return m;
}

// Deterministic bytes of `m`, an empty doc_string counting as none (the exporter sets the
// field on every node it annotates).
std::string canonical(onnx::ModelProto m) {
  for (auto& node : *m.mutable_graph()->mutable_node())
    if (node.doc_string().empty()) node.clear_doc_string();
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&coded);
  return out;
}

std::string metadata(const std::string& bytes, const std::string& key) {
  onnx::ModelProto m;
  m.ParseFromString(bytes);
  std::string value;
  int count = 0;
  for (const auto& e : m.metadata_props())
    if (e.key() == key) {
      value = e.value();
      ++count;
    }
  EXPECT_LE(count, 1) << "duplicate metadata key " << key;
  return value;
}

const std::vector<std::string> kFixtures = {
    "mlp",          "resnet18",        "mobilenet_v2", "squeezenet1_1", "lstm", "no_value_info", "transformer_encoder",
    "mlp_external", "seq2seq_unrolled"};

TEST(OnnxExport, EveryFixtureNodeIsAnnotatedAndReadsBack) {
  const gp::Cluster c = gptest::toyCluster(1, 4);
  const gp::Measurement m = testMeasurement();
  ExportDir dir;
  for (const auto& name : kFixtures) {
    SCOPED_TRACE(name);
    const std::string path = gptest::dataPath("onnx/" + name + ".onnx");
    const Graph g = gp::importOnnx(path);
    const gp::Plan plan = testPlan(g, c.numDevices(), name != "lstm");
    gp::OnnxExportStats stats;
    const std::string bytes = gp::annotatedOnnx(path, g, plan, c, &m, &stats);
    EXPECT_EQ(stats.nodes, g.numOps());
    EXPECT_EQ(stats.annotated, g.numOps());
    EXPECT_EQ(stats.opsWithoutNode, 0);

    // our importer reads the copy to the same ops
    const std::string out = dir.file(name + ".onnx");
    writeBytes(out, bytes);
    const Graph again = gp::importOnnx(out);
    ASSERT_EQ(again.numOps(), g.numOps());
    for (OpId op = 0; op < g.numOps(); ++op) ASSERT_EQ(again.opName(op), g.opName(op));
    EXPECT_EQ(again.numEdges(), g.numEdges());
    EXPECT_DOUBLE_EQ(again.totalFlops(), g.totalFlops());

    // the placement reads back, per op
    const gp::OnnxPlacement p = gp::readOnnxPlacement(bytes, g);
    EXPECT_EQ(p.formatVersion, "1");
    EXPECT_EQ(p.cluster, "test");
    EXPECT_EQ(p.annotatedNodes, g.numOps());
    for (OpId op = 0; op < g.numOps(); ++op) {
      ASSERT_EQ(p.device[op], c.device(plan.device[op]).name);
      ASSERT_EQ(p.deviceIndex[op], plan.device[op]);
    }
    EXPECT_EQ(gp::onnxPlacementDevices(bytes, g), p.device);
    if (name == "lstm") {
      EXPECT_TRUE(p.priority.empty());
      EXPECT_TRUE(p.fusionGroup.empty());
    } else {
      EXPECT_EQ(p.priority, plan.priority);
      EXPECT_EQ(p.fusionGroup, plan.fusionGroup);
    }
    EXPECT_EQ(metadata(bytes, "graphplace.step_time_ms"), "12.5");
    EXPECT_EQ(metadata(bytes, "graphplace.lower_bound_ms"), "10");
    EXPECT_EQ(metadata(bytes, "graphplace.feasible"), "true");

    // nothing else changed: the original equals the copy with our additions taken out
    onnx::ModelProto original;
    ASSERT_TRUE(original.ParseFromString(readBytes(path)));
    EXPECT_TRUE(canonical(stripped(bytes)) == canonical(original));  // no EXPECT_EQ: megabytes of diff
    EXPECT_EQ(metadata(bytes, "graphplace.weights"), name == "mlp_external" ? "" : "stripped");
  }
}

TEST(OnnxExport, NodeLineAndModelPlacementJson) {
  const gp::Cluster c = gptest::toyCluster(1, 2);
  const std::string path = gptest::dataPath("onnx/mlp.onnx");
  const Graph g = gp::importOnnx(path);
  gp::Plan plan = testPlan(g, 2, true);
  const std::string bytes = gp::annotatedOnnx(path, g, plan, c, nullptr);
  onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(bytes));
  // op 0 ("/fc1/Gemm"): gpu0, priority numOps, fused in group 0; op 2: not fused
  EXPECT_EQ(m.graph().node(0).doc_string(),
            "graphplace: {\"device\":\"gpu0\",\"device_index\":0,\"priority\":13,\"fusion_group\":0}");
  EXPECT_EQ(m.graph().node(2).doc_string(), "graphplace: {\"device\":\"gpu0\",\"device_index\":0,\"priority\":11}");
  const std::string placement = metadata(bytes, "graphplace.placement");
  EXPECT_EQ(placement.rfind("{\"devices\":[\"gpu0\",\"gpu1\"],\"device\":[0,1,0,1,0,1,0,1,0,1,0,1,0],", 0), 0u)
      << placement;
  EXPECT_NE(placement.find("\"fusion_group\":[0,0,-1,1,1,-1,2,2,-1,3,3,-1,4]"), std::string::npos) << placement;
  // no measurement: no step time
  EXPECT_EQ(metadata(bytes, "graphplace.step_time_ms"), "");
  EXPECT_EQ(metadata(bytes, "graphplace.cluster"), "test");
}

TEST(OnnxExport, ExportingAnExportedModelReplacesThePlacement) {
  const gp::Cluster c = gptest::toyCluster(1, 4);
  const gp::Measurement m = testMeasurement();
  const std::string path = gptest::dataPath("onnx/resnet18.onnx");
  const Graph g = gp::importOnnx(path);
  const gp::Plan first = testPlan(g, 4, true);
  const gp::Plan second = testPlan(g, 3, false);
  ExportDir dir;
  writeBytes(dir.file("first.onnx"), gp::annotatedOnnx(path, g, first, c, &m));
  const std::string twice = gp::annotatedOnnx(dir.file("first.onnx"), g, second, c, nullptr);
  EXPECT_EQ(twice, gp::annotatedOnnx(path, g, second, c, nullptr));
  EXPECT_EQ(metadata(twice, "graphplace.step_time_ms"), "");  // the old measurement is gone
  EXPECT_TRUE(gp::readOnnxPlacement(twice, g).priority.empty());
}

// A model with unnamed, clashing and documented nodes, and one node that is not an op of the
// graph being placed.
TEST(OnnxExport, UnnamedAndDuplicateNodesAndExistingDocStrings) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("names");
  auto* in = graph->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto_DataType_FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(4);
  struct N {
    const char *name, *in, *out, *doc;
  };
  for (const N& n : std::vector<N>{{"", "x", "a", ""},
                                   {"Relu_0", "a", "b", "from torch: x = relu(a)"},
                                   {"dup", "b", "c", ""},
                                   {"dup", "c", "d", "line one\nline two"},
                                   {"", "d", "/enc/layer0/out", ""}}) {
    auto* node = graph->add_node();
    node->set_op_type("Relu");
    node->set_name(n.name);
    node->add_input(n.in);
    node->add_output(n.out);
    node->set_doc_string(n.doc);
  }
  graph->add_output()->set_name("/enc/layer0/out");
  graph->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto_DataType_FLOAT);
  ExportDir dir;
  const std::string path = dir.file("names.onnx");
  writeBytes(path, model.SerializeAsString());

  const Graph g = gp::importOnnx(path);
  ASSERT_EQ(g.numOps(), 5);
  const gp::Cluster c = gptest::toyCluster(1, 2);
  const gp::Plan plan = testPlan(g, 2, false);
  gp::OnnxExportStats stats;
  const std::string bytes = gp::annotatedOnnx(path, g, plan, c, nullptr, &stats);
  EXPECT_EQ(stats.annotated, 5);
  onnx::ModelProto out;
  ASSERT_TRUE(out.ParseFromString(bytes));
  EXPECT_EQ(out.graph().node(1).doc_string(),
            "from torch: x = relu(a)\ngraphplace: {\"device\":\"gpu1\",\"device_index\":1}");
  EXPECT_EQ(out.graph().node(3).doc_string(),
            "line one\nline two\ngraphplace: {\"device\":\"gpu1\",\"device_index\":1}");
  const gp::OnnxPlacement p = gp::readOnnxPlacement(bytes, g);
  EXPECT_EQ(p.device, (std::vector<std::string>{"gpu0", "gpu1", "gpu0", "gpu1", "gpu0"}));
  EXPECT_TRUE(canonical(stripped(bytes)) == canonical(model));

  // the same file against a graph with one op renamed: that node gets no line
  gp::GraphBuilder b("other");
  gp::TensorId x = b.addGraphInput({"x", {4}});
  std::vector<std::string> names = {"Relu_0_1", "Relu_0", "dup", "renamed", "/enc/layer0/Relu_4"};
  for (const auto& name : names) x = b.output(b.addOp({.name = name, .type = "Relu", .inputs = {x}, .outputs = {{}}}));
  const Graph other = std::move(b).build("other");
  const std::string partial = gp::annotatedOnnx(path, other, testPlan(other, 2, false), c, nullptr, &stats);
  EXPECT_EQ(stats.annotated, 4);
  EXPECT_EQ(stats.opsWithoutNode, 1);
  ASSERT_TRUE(out.ParseFromString(partial));
  EXPECT_EQ(out.graph().node(3).doc_string(), "line one\nline two");
  EXPECT_EQ(gp::onnxPlacementDevices(partial, other), (std::vector<std::string>{"gpu0", "gpu1", "gpu0", "", "gpu0"}));
}

TEST(OnnxExport, TrainingGraphAnnotatesItsForwardOps) {
  const std::string path = gptest::dataPath("onnx/mlp.onnx");
  const Graph forward = gp::importOnnx(path);
  const Graph training = gp::deriveTrainingGraph(forward);
  ASSERT_GT(training.numOps(), forward.numOps());
  const gp::Cluster c = gptest::toyCluster(1, 2);
  gp::OnnxExportStats stats;
  gp::annotatedOnnx(path, training, testPlan(training, 2, false), c, nullptr, &stats);
  EXPECT_EQ(stats.annotated, forward.numOps());
  EXPECT_EQ(stats.opsWithoutNode, training.numOps() - forward.numOps());
}

TEST(OnnxExport, ExternalDataIsReferencedNotRead) {
  ExportDir dir;
  fs::copy_file(gptest::dataPath("onnx/mlp_external.onnx"), dir.file("alone.onnx"));  // no .data beside it
  const Graph g = gp::importOnnx(dir.file("alone.onnx"));
  gp::OnnxExportStats stats;
  const gp::Cluster c = gptest::toyCluster(1, 2);
  const std::string bytes = gp::annotatedOnnx(dir.file("alone.onnx"), g, testPlan(g, 2, false), c, nullptr, &stats);
  EXPECT_EQ(stats.annotated, g.numOps());
  EXPECT_EQ(stats.externalDataFiles, (std::vector<std::string>{"mlp_external.onnx.data"}));
  EXPECT_LT(bytes.size(), 64u * 1024);
}

std::string errorOf(const std::string& path, const Graph& g) {
  const gp::Cluster c = gptest::toyCluster(1, 2);
  return gptest::errorOf([&] { gp::annotatedOnnx(path, g, testPlan(g, 2, false), c, nullptr); });
}

TEST(OnnxExport, NonOnnxInputsErrorClearly) {
  const Graph g = gp::importOnnx(gptest::dataPath("onnx/mlp.onnx"));
  EXPECT_EQ(errorOf("zoo:gnmt", g), "zoo:gnmt: not an ONNX model; annotated ONNX export needs an .onnx input");
  const std::string dot = gptest::dataPath("dot/small.dot");
  EXPECT_EQ(errorOf(dot, g), dot + ": not an ONNX model; annotated ONNX export needs an .onnx input");
  EXPECT_EQ(errorOf("/nonexistent/model.onnx", g), "/nonexistent/model.onnx: file not found");
  const std::string resnet = gptest::dataPath("onnx/resnet18.onnx");
  EXPECT_EQ(errorOf(resnet, g), resnet +
                                    ": none of its 65 nodes is an op of the model being placed: export "
                                    "from the .onnx file the model was opened from");
  const gp::Cluster c = gptest::toyCluster(1, 2);
  gp::Plan shortPlan = testPlan(g, 2, false);
  shortPlan.device.pop_back();
  EXPECT_THROW(gp::annotatedOnnx(gptest::dataPath("onnx/mlp.onnx"), g, shortPlan, c, nullptr), std::invalid_argument);
}

// onnx.load + onnx.checker.check_model (full check) on exported copies, and the placement read
// with nothing but the onnx package, as a user's script would.
TEST(OnnxExport, PythonOnnxLoadsAndChecksTheCopy) {
  if (std::system("/usr/bin/python3 -c 'import onnx' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with the onnx package not available";
  const gp::Cluster c = gptest::toyCluster(1, 4);
  const gp::Measurement m = testMeasurement();
  ExportDir dir;
  // the copy finds its external data only beside it (see OnnxExportStats::externalDataFiles)
  std::filesystem::copy_file(gptest::dataPath("onnx/mlp_external.onnx.data"), dir.file("mlp_external.onnx.data"));
  std::string files;
  for (const auto& name : {"resnet18", "mobilenet_v2", "lstm", "transformer_encoder", "mlp_external"}) {
    const std::string path = gptest::dataPath(std::string("onnx/") + name + ".onnx");
    const Graph g = gp::importOnnx(path);
    const std::string out = dir.file(std::string(name) + ".onnx");
    writeBytes(out, gp::annotatedOnnx(path, g, testPlan(g, 4, true), c, &m));
    files += " " + out;
  }
  const std::string script = dir.file("check.py");
  std::ofstream(script) << R"(import json, sys, onnx
from onnx import mapping

def refill(m):
    # the fixtures' weights are stripped (dims only), which the checker refuses: give them zeros
    for t in m.graph.initializer:
        if t.data_location != onnx.TensorProto.EXTERNAL and not t.raw_data and not t.float_data \
                and not t.int64_data and not t.int32_data and not t.double_data:
            n = 1
            for d in t.dims:
                n *= d
            t.raw_data = bytes(n * mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type].itemsize)

for path in sys.argv[1:]:
    m = onnx.load(path)  # with external data: the .data file must be found
    refill(m)
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    placement = json.loads(meta["graphplace.placement"])
    lines = [l for n in m.graph.node for l in n.doc_string.split("\n") if l.startswith("graphplace: ")]
    devices = [json.loads(l[len("graphplace: "):])["device"] for l in lines]
    assert len(lines) == len(m.graph.node), path
    assert devices == [placement["devices"][d] for d in placement["device"]], path
    assert meta["graphplace.format_version"] == "1" and meta["graphplace.step_time_ms"] == "12.5"
    print("ok", len(lines))
)";
  const std::string log = dir.file("log.txt");
  const int rc = std::system(("/usr/bin/python3 " + script + files + " >" + log + " 2>&1").c_str());
  EXPECT_EQ(rc, 0) << readBytes(log);
  EXPECT_EQ(readBytes(log), "ok 65\nok 209\nok 62\nok 51\nok 13\n");
}

}  // namespace
