// A tiny ONNX model written from C++ for the importer's tests (the protobuf API), and the
// helpers that read what the importer made of it.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

// gp_core_tests sees ONNX only through gpcore (linked privately), so the definition that
// ONNX::onnx_proto would bring is made here.
#ifndef ONNX_ML
#define ONNX_ML 1
#endif
#include <onnx/onnx_pb.h>

#include "graph/graph.h"

namespace onnxtest {

namespace fs = std::filesystem;
using gp::Graph;
using gp::OpId;

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / ("gp_onnx_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

constexpr int kFloat = onnx::TensorProto_DataType_FLOAT;
constexpr int kInt64 = onnx::TensorProto_DataType_INT64;

// A tiny ONNX model written from C++; initializers carry dims only (no data), like the
// stripped fixtures.
class ModelMaker {
 public:
  explicit ModelMaker(int opset = 13) {
    m_.set_ir_version(8);
    auto* o = m_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    m_.mutable_graph()->set_name("test");
  }
  onnx::GraphProto& graph() { return *m_.mutable_graph(); }

  void input(const std::string& name, const std::vector<int64_t>& dims, int elem = kFloat) {
    fill(graph().add_input(), name, dims, elem);
  }
  void output(const std::string& name, int elem = kFloat) {
    auto* v = graph().add_output();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  }
  void init(const std::string& name, const std::vector<int64_t>& dims, int elem = kFloat) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
  }
  // A scalar int64 initializer with its value (e.g. a Loop trip count).
  void intConstant(const std::string& name, int64_t value) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(kInt64);
    t->add_int64_data(value);
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, const std::string& name = {}) {
    return addNode(graph(), op, ins, outs, name);
  }
  std::string save(const TempDir& dir, const std::string& file = "model.onnx") const {
    std::string path = dir.file(file);
    std::ofstream out(path, std::ios::binary);
    m_.SerializeToOstream(&out);
    return path;
  }

  static void fill(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims, int elem) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }
  static onnx::NodeProto& addNode(onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& ins,
                                  const std::vector<std::string>& outs, const std::string& name = {}) {
    auto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) n->add_output(o);
    return *n;
  }

 private:
  onnx::ModelProto m_;
};

inline void setInts(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (int64_t x : v) a->add_ints(x);
}
inline void setInt(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INT);
  a->set_i(v);
}
inline void setString(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_STRING);
  a->set_s(v);
}
inline onnx::GraphProto* setGraph(onnx::NodeProto& n, const std::string& name) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  a->mutable_g()->set_name(name);
  return a->mutable_g();
}

inline OpId opNamed(const Graph& g, const std::string& name) {
  OpId op = g.findOp(name);
  EXPECT_NE(op, gp::kNone) << "no op '" << name << "'";
  return op;
}

inline std::vector<OpId> opsOfType(const Graph& g, std::string_view type) {
  std::vector<OpId> ops;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opType(op) == type) ops.push_back(op);
  return ops;
}

inline std::vector<int64_t> shapeOf(const Graph& g, const std::string& tensor) {
  auto t = g.findTensor(tensor);
  if (t == gp::kNone || !g.hasShape(t)) return {-1};
  auto s = g.shape(t);
  return {s.begin(), s.end()};
}

}  // namespace onnxtest
