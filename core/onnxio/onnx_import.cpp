// ONNX import: ModelProto -> GraphBuilder.
//
//  * Reading (onnxio/onnx_read.h): weight bytes are never needed: initializers contribute only their
//    dims and data_type, so models with stripped weights, external data files (which we do not
//    open) or over 2 GiB (read without their initializers' data) import the same.
//  * Ops: one op per top-level node (graph.node), so numOps() == len(graph.node). Every op
//    type must have a schema in onnx::OpSchemaRegistry for its domain and the model's opset
//    (or be a model-local function), else the import fails naming the node.
//  * Names: a node keeps its name when it has one that no earlier node took; otherwise it gets
//    "<scope>/<OpType>_<node index>", the scope taken from its first output's name when that
//    has one ("/layer1/conv/Conv_output_0" -> "/layer1/conv"), "_<k>" appended until unique.
//    Node order is part of the file, so the names are the same on every import.
//  * Tensors: initializers become parameters, graph inputs that are not initializers graph
//    inputs. Shapes come from value_info; if some are missing, or a symbolic input dimension
//    had to be pinned to 1 (see onnxio/onnx_shapes.h), ONNX shape inference runs first, then, for
//    what it left unknown, inference over folded shape computations (onnxio/onnx_fold.h). A failing
//    inference never aborts the import: what it found is kept. Symbolic input dimensions take
//    the values ImportOptions::dims binds (else 1); the Graph records them (symbolicDims()).
//  * A cost formula that needs a shape still unknown never stops the import: the op's FLOPs
//    are estimated (onnxio::estimateFlops), an output of unknown shape is sized like the op's
//    largest known input, and the op is marked costEstimated() — as is an op with a tensor
//    whose dimension inference left without a value (it counts as 1). Sequence values are not
//    tensors: they have no shape of their own (0 bytes; their elements are counted).
//  * Control flow (If / Loop / Scan and any node with graph attributes) is one op. Its FLOPs
//    are the sum of its body's nodes (If: the larger branch; Loop: times the trip count when it
//    is a constant; Scan: times the scan length), each body node counted best-effort (0 where a
//    shape is unknown). Tensors the body reads from the outer graph become inputs of the op.
//  * Model-local functions are ops with 0 FLOPs (bytes from their tensors).
#include "onnxio/onnx_import.h"
#include "onnxio/onnx_names.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "base/error.h"
#include "graph/graph_builder.h"
#include "onnxio/onnx_flops.h"
#include "onnxio/onnx_fold.h"
#include "onnxio/onnx_infer.h"
#include "onnxio/onnx_read.h"
#include "onnxio/onnx_shapes.h"

namespace gp {

namespace {

using onnxio::ShapeTable;
using onnxio::TensorInfo;

std::string normDomain(const std::string& d) {
  return d == "ai.onnx" ? std::string() : d;
}

bool hasSubgraph(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute())
    if (a.has_g() || a.graphs_size() > 0) return true;
  return false;
}

template <class F>
void forEachSubgraph(const onnx::NodeProto& node, F&& f) {
  for (const auto& a : node.attribute()) {
    if (a.has_g()) f(a.g());
    for (const auto& g : a.graphs()) f(g);
  }
}

// Tensors a subgraph reads from enclosing graphs, in first-use order.
std::vector<std::string> outerRefs(const onnx::GraphProto& body) {
  std::unordered_set<std::string> local;
  for (const auto& v : body.input()) local.insert(v.name());
  for (const auto& t : body.initializer()) local.insert(t.name());
  for (const auto& s : body.sparse_initializer()) local.insert(s.values().name());
  for (const auto& node : body.node())
    for (const auto& out : node.output()) local.insert(out);
  std::vector<std::string> refs;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& n) {
    if (!n.empty() && local.count(n) == 0 && seen.insert(n).second) refs.push_back(n);
  };
  for (const auto& node : body.node()) {
    for (const auto& in : node.input()) add(in);
    forEachSubgraph(node, [&](const onnx::GraphProto& sub) {
      for (const auto& r : outerRefs(sub)) add(r);
    });
  }
  return refs;
}

class OnnxImporter {
 public:
  OnnxImporter(std::string path, const ImportOptions& options) : path_(std::move(path)), options_(options) {}
  Graph run();

 private:
  void checkOps(const onnx::GraphProto& g, const std::vector<std::string>& names, const std::string& prefix);
  void collectConstants(const onnx::GraphProto& g);
  std::optional<int64_t> constantInt(const std::string& name) const;
  double controlFlowFlops(const onnx::NodeProto& node, const ShapeTable& shapes) const;
  double bodyFlops(const onnx::GraphProto& body, const ShapeTable& outer) const;
  TensorDesc describe(const std::string& name, const ShapeTable& shapes) const;

  std::string path_;
  const ImportOptions& options_;
  onnx::ModelProto model_;
  std::unordered_map<std::string, int> opsets_;
  std::unordered_set<std::string> functions_;                            // "domain:name"
  std::unordered_map<std::string, const onnx::TensorProto*> constants_;  // small integer constants
};

void OnnxImporter::checkOps(const onnx::GraphProto& g, const std::vector<std::string>& names,
                            const std::string& prefix) {
  const auto* registry = onnx::OpSchemaRegistry::Instance();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    const std::string own = node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name();
    const std::string name = prefix + (names.empty() ? own : names[static_cast<size_t>(i)]);
    const std::string domain = normDomain(node.domain());
    if (node.op_type().empty()) throw Error(path_, "node '" + name + "' has no op type");
    if (functions_.count(domain + ":" + node.op_type()) == 0) {
      auto it = opsets_.find(domain);
      if (it == opsets_.end())
        throw Error(path_, "node '" + name + "' uses op type '" + node.op_type() + "' from domain '" + domain +
                               "', which the model does not import (no opset_import entry)");
      if (registry->GetSchema(node.op_type(), it->second, domain) == nullptr) {
        std::string problem = "node '" + name + "' has unknown op type '" + node.op_type() + "' (domain '" +
                              (domain.empty() ? "ai.onnx" : domain) + "', opset " + std::to_string(it->second) +
                              "): no ONNX schema for it";
        const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
        if (auto range = known.find(domain); range != known.end() && it->second > range->second.second)
          problem += "; this libonnx knows this domain up to opset " + std::to_string(range->second.second);
        throw Error(path_, problem);
      }
    }
    forEachSubgraph(node, [&](const onnx::GraphProto& body) { checkOps(body, {}, name + "/"); });
  }
}

void OnnxImporter::collectConstants(const onnx::GraphProto& g) {
  auto isInt = [](int32_t t) { return t == onnx::TensorProto::INT64 || t == onnx::TensorProto::INT32; };
  for (const auto& t : g.initializer())
    if (isInt(t.data_type())) constants_[t.name()] = &t;
  for (const auto& node : g.node()) {
    if (node.op_type() != "Constant" || node.output_size() != 1) continue;
    for (const auto& a : node.attribute())
      if (a.name() == "value" && a.has_t() && isInt(a.t().data_type())) constants_[node.output(0)] = &a.t();
  }
}

std::optional<int64_t> OnnxImporter::constantInt(const std::string& name) const {
  auto it = constants_.find(name);
  if (it == constants_.end()) return std::nullopt;
  const onnx::TensorProto& t = *it->second;
  if (t.int64_data_size() == 1) return t.int64_data(0);
  if (t.int32_data_size() == 1) return t.int32_data(0);
  if (t.has_raw_data() && t.raw_data().size() == 8 && t.data_type() == onnx::TensorProto::INT64) {
    int64_t v = 0;
    std::copy_n(t.raw_data().data(), 8, reinterpret_cast<char*>(&v));  // ONNX raw data is little-endian
    return v;
  }
  if (t.has_raw_data() && t.raw_data().size() == 4 && t.data_type() == onnx::TensorProto::INT32) {
    int32_t v = 0;
    std::copy_n(t.raw_data().data(), 4, reinterpret_cast<char*>(&v));
    return v;
  }
  return std::nullopt;
}

double OnnxImporter::bodyFlops(const onnx::GraphProto& body, const ShapeTable& outer) const {
  ShapeTable shapes(&outer);
  shapes.addGraph(body);
  double total = 0;
  for (const auto& node : body.node()) {
    try {
      total += hasSubgraph(node) ? controlFlowFlops(node, shapes) : onnxio::nodeFlops(node, shapes);
    } catch (const onnxio::MissingShape&) {
      // best effort inside bodies: an unknown shape contributes 0
    }
  }
  return total;
}

double OnnxImporter::controlFlowFlops(const onnx::NodeProto& node, const ShapeTable& shapes) const {
  std::vector<double> bodies;
  forEachSubgraph(node, [&](const onnx::GraphProto& body) { bodies.push_back(bodyFlops(body, shapes)); });
  if (bodies.empty()) return 0;
  if (node.op_type() == "If") return *std::max_element(bodies.begin(), bodies.end());
  double sum = 0;
  for (double b : bodies) sum += b;
  if (node.op_type() == "Loop" && node.input_size() > 0 && !node.input(0).empty()) {
    // a trip count past 2^31 is a while-loop's "forever" (torch writes INT64_MAX): unknown
    if (auto trips = constantInt(node.input(0)); trips && *trips >= 0 && *trips <= (int64_t{1} << 31))
      sum *= static_cast<double>(*trips);
  } else if (node.op_type() == "Scan") {
    const int64_t nScan = onnxio::intAttr(node, "num_scan_inputs", 0);
    const int64_t first = node.input_size() - nScan;
    int64_t axis = 0;
    for (const auto& a : node.attribute())
      if (a.name() == "scan_input_axes" && a.ints_size() > 0) axis = a.ints(0);
    if (nScan > 0 && first >= 0) {
      if (const auto* s = shapes.shape(node.input(static_cast<int>(first)))) {
        if (axis < 0) axis += static_cast<int64_t>(s->size());
        if (axis >= 0 && axis < static_cast<int64_t>(s->size())) sum *= static_cast<double>((*s)[axis]);
      }
    }
  }
  return sum;
}

TensorDesc OnnxImporter::describe(const std::string& name, const ShapeTable& shapes) const {
  TensorDesc d;
  d.name = name;
  const TensorInfo* info = name.empty() ? nullptr : shapes.find(name);
  if (info == nullptr) {
    d.dtype = DType::Unknown;
    d.shapeKnown = false;
    d.bytes = 0;
    return d;
  }
  d.dtype = onnxio::dtypeOf(info->elemType);
  d.shapeKnown = info->shapeKnown;
  if (info->shapeKnown) d.shape = info->dims;
  d.bytes = onnxio::tensorBytes(*info);
  if (d.bytes < 0)
    throw Error(path_, "tensor '" + name + "' has a negative dimension or more elements than fit in 64 bits");
  return d;
}

Graph OnnxImporter::run() {
  model_ = onnxio::readOnnxModel(path_);
  onnx::GraphProto& g = *model_.mutable_graph();
  for (const auto& op : model_.opset_import()) opsets_[normDomain(op.domain())] = static_cast<int>(op.version());
  if (opsets_.count("") == 0 && model_.opset_import_size() == 0) {
    // IR version 1/2 models have no opset_import: the ONNX default domain at its first opset
    opsets_[""] = 1;
  }
  for (const auto& f : model_.functions()) functions_.insert(normDomain(f.domain()) + ":" + f.name());

  const std::vector<std::string> names = onnxNodeNames(g);
  checkOps(g, names, "");

  const auto initializers = onnxio::initializerNames(g);
  std::vector<SymbolicDim> symbolic;
  bool pinned = false;
  try {
    pinned = onnxio::pinInputShapes(g, initializers, options_.inputShape, options_.dims, symbolic);
  } catch (const std::invalid_argument& e) {
    throw Error(path_, e.what());
  }
  // Inference is skipped for what is known to crash libonnx (onnxio/onnx_infer.h); its failures only
  // leave shapes unknown.
  if ((pinned || onnxio::hasUnresolvedShapes(g)) && onnxio::inferenceBlocker(model_).empty()) {
    onnxio::runShapeInference(model_);
    if (onnxio::hasUnresolvedShapes(g)) onnxio::inferWithFoldedConstants(model_);
  }

  ShapeTable shapes;
  shapes.addGraph(g);
  collectConstants(g);

  GraphBuilder b(path_);
  for (const auto& t : g.initializer()) b.addParameter(describe(t.name(), shapes));
  for (const auto& s : g.sparse_initializer()) b.addParameter(describe(s.values().name(), shapes));
  for (const auto& v : g.input())
    if (initializers.count(v.name()) == 0) b.addGraphInput(describe(v.name(), shapes));

  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& node = g.node(i);
    OpDesc op;
    op.name = names[static_cast<size_t>(i)];
    op.type = node.op_type();
    for (const auto& in : node.input())
      if (!in.empty()) op.inputs.push_back(b.tensorRef(in));
    const bool control = hasSubgraph(node);
    if (control) {
      std::unordered_set<std::string> direct(node.input().begin(), node.input().end());
      forEachSubgraph(node, [&](const onnx::GraphProto& body) {
        for (const auto& r : outerRefs(body))
          if (direct.insert(r).second) op.inputs.push_back(b.tensorRef(r));
      });
    }
    int64_t largestInput = 0;
    for (const auto& in : node.input())
      if (const TensorInfo* info = in.empty() ? nullptr : shapes.find(in); info != nullptr && info->shapeKnown) {
        largestInput = std::max(largestInput, onnxio::tensorBytes(*info));
        op.costEstimated = op.costEstimated || info->symbolic;  // a dimension inference left open counts as 1
      }
    for (const auto& out : node.output()) {
      op.outputs.push_back(describe(out, shapes));
      const TensorInfo* info = out.empty() ? nullptr : shapes.find(out);
      if (info != nullptr && info->symbolic) op.costEstimated = true;
      if (!out.empty() && !op.outputs.back().shapeKnown && (info == nullptr || !info->notTensor)) {
        op.outputs.back().bytes = largestInput;
        op.costEstimated = true;
      }
    }
    try {
      op.flops = control ? controlFlowFlops(node, shapes) : onnxio::nodeFlops(node, shapes);
    } catch (const onnxio::MissingShape&) {
      op.flops = onnxio::estimateFlops(node, shapes);
      op.costEstimated = true;
    }
    op.bytesRead = onnxio::nodeBytesRead(node, shapes);
    b.addOp(std::move(op));
  }
  std::string graphName = g.name();
  if (graphName.empty()) graphName = std::filesystem::path(path_).stem().string();
  b.setSymbolicDims(std::move(symbolic));
  return std::move(b).build(graphName);  // cycles, dangling inputs, duplicates
}

}  // namespace

Graph importOnnx(const std::string& path, const ImportOptions& options) {
  OnnxImporter importer(path, options);
  try {
    return importer.run();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Error(path, "out of memory while importing the ONNX model");
  } catch (const std::exception& e) {
    throw Error(path, std::string("ONNX import failed: ") + e.what());
  }
}

}  // namespace gp
