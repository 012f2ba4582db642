#include "onnxio/onnx_infer.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <cstdlib>
#include <exception>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "base/child_process.h"

namespace gp::onnxio {

namespace {

constexpr int kInferenceTimeoutS = 300;

bool badDims(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return false;
  for (const auto& d : type.tensor_type().shape().dim())
    if (d.has_dim_value() && d.dim_value() < 0) return true;
  return false;
}

class Blocker {
 public:
  explicit Blocker(const onnx::ModelProto& model) {
    for (const auto& op : model.opset_import())
      opsets_[op.domain() == "ai.onnx" ? std::string() : op.domain()] = static_cast<int>(op.version());
  }

  std::string check(const onnx::GraphProto& g, std::unordered_set<std::string>& defined) const {
    for (const auto& t : g.initializer()) {
      int64_t n = 1;
      for (int64_t d : t.dims())
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return "initializer '" + t.name() + "' has invalid dims";
      defined.insert(t.name());
    }
    for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
      for (const auto& v : *list)
        if (badDims(v.type())) return "tensor '" + v.name() + "' is declared with a negative dimension";
    for (const auto& sp : g.sparse_initializer()) defined.insert(sp.values().name());
    for (const auto& v : g.input()) {
      if (v.type().value_case() == onnx::TypeProto::VALUE_NOT_SET && defined.count(v.name()) == 0)
        return "graph input '" + v.name() + "' has no type";
      defined.insert(v.name());
    }
    for (const auto& node : g.node()) {
      for (const auto& in : node.input())
        if (!in.empty() && defined.count(in) == 0)
          return "node '" + node.name() + "' reads '" + in + "' before anything defines it";
      if (auto why = verify(node); !why.empty()) return why;
      for (const auto& a : node.attribute()) {
        auto body = [&](const onnx::GraphProto& sub) {
          std::unordered_set<std::string> inner = defined;  // bodies see the outer scope
          return check(sub, inner);
        };
        if (a.has_g())
          if (auto why = body(a.g()); !why.empty()) return why;
        for (const auto& sub : a.graphs())
          if (auto why = body(sub); !why.empty()) return why;
      }
      for (const auto& out : node.output()) defined.insert(out);
    }
    return {};
  }

 private:
  // The node against its schema (nodes without one, e.g. model-local functions, pass), and
  // the attribute values libonnx divides by or sizes with.
  std::string verify(const onnx::NodeProto& node) const {
    static const std::unordered_set<std::string_view> kWindowed = {
        "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool", "LpPool", "MaxUnpool"};
    if (kWindowed.count(node.op_type()) != 0) {
      for (const auto& a : node.attribute()) {
        const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape";
        for (int64_t v : a.ints())
          if (positive && v <= 0)
            return "node '" + node.name() + "' (" + node.op_type() + ") has " + a.name() + " " + std::to_string(v);
        if (a.name() == "group" && a.i() <= 0)
          return "node '" + node.name() + "' (" + node.op_type() + ") has group " + std::to_string(a.i());
      }
    }
    const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
    auto it = opsets_.find(domain);
    if (it == opsets_.end()) return {};
    const auto* schema = onnx::OpSchemaRegistry::Instance()->GetSchema(node.op_type(), it->second, domain);
    if (schema == nullptr) return {};
    try {
      schema->Verify(node);
    } catch (const std::exception& e) {
      std::string what = e.what();
      what = what.substr(0, what.find('\n'));
      return "node '" + node.name() + "' (" + node.op_type() + ") does not match its schema: " + what;
    }
    return {};
  }

  std::unordered_map<std::string, int> opsets_;
};

std::string firstLine(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

std::string tryInference(onnx::ModelProto& model) {
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*strict_mode=*/0, /*data_prop=*/false);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    return {};
  } catch (const std::exception& e) {
    return firstLine(e.what());
  } catch (...) {
    return "unknown error in ONNX shape inference";
  }
}

std::string inferInPlace(onnx::ModelProto& model) {
  onnx::GraphProto& g = *model.mutable_graph();
  const auto declaredInfo = g.value_info();
  const auto declaredOutputs = g.output();
  std::string error = tryInference(model);
  if (error.empty()) return error;
  g.clear_value_info();
  for (auto& v : *g.mutable_output()) v.clear_type();
  tryInference(model);
  std::unordered_set<std::string> inferred;
  for (const auto& v : g.value_info()) inferred.insert(v.name());
  for (const auto& v : declaredInfo)
    if (inferred.count(v.name()) == 0) *g.add_value_info() = v;
  for (int i = 0; i < g.output_size() && i < declaredOutputs.size(); ++i)
    if (!g.output(i).has_type()) *g.mutable_output(i)->mutable_type() = declaredOutputs.Get(i).type();
  return error;
}

bool hasSubgraph(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute())
    if (a.has_g() || a.graphs_size() > 0) return true;
  return false;
}

// What inference changes, as a message: error text, value_info, outputs, and the nodes with
// subgraphs (their doc_string holds their index).
std::string packResult(const onnx::ModelProto& model, const std::string& error) {
  onnx::ModelProto out;
  out.set_doc_string(error);
  const onnx::GraphProto& g = model.graph();
  onnx::GraphProto& r = *out.mutable_graph();
  *r.mutable_value_info() = g.value_info();
  *r.mutable_output() = g.output();
  for (int i = 0; i < g.node_size(); ++i) {
    if (!hasSubgraph(g.node(i))) continue;
    onnx::NodeProto* n = r.add_node();
    n->set_op_type(g.node(i).op_type());
    n->set_doc_string(std::to_string(i));
    *n->mutable_attribute() = g.node(i).attribute();
  }
  return out.SerializeAsString();
}

void unpackResult(const onnx::ModelProto& result, onnx::ModelProto& model) {
  onnx::GraphProto& g = *model.mutable_graph();
  const onnx::GraphProto& r = result.graph();
  *g.mutable_value_info() = r.value_info();
  if (r.output_size() == g.output_size()) *g.mutable_output() = r.output();
  for (const auto& n : r.node()) {
    const long i = std::strtol(n.doc_string().c_str(), nullptr, 10);
    if (i >= 0 && i < g.node_size() && g.node(static_cast<int>(i)).op_type() == n.op_type())
      *g.mutable_node(static_cast<int>(i))->mutable_attribute() = n.attribute();
  }
}

// Runs `work` in a child process. nullopt: no child could be started (run in-process).
std::optional<std::string> inferInChild(onnx::ModelProto& model,
                                        const std::function<std::string(onnx::ModelProto&)>& work) {
  const ChildResult r = runInChild(
      [&] {
        std::string error;
        try {
          error = work(model);
        } catch (...) {
          error = "shape inference failed";
        }
        return packResult(model, error);
      },
      {.seconds = kInferenceTimeoutS});
  using End = ChildResult::End;
  if (r.end == End::NotStarted) return std::nullopt;
  if (r.end == End::TimedOut) return "ONNX shape inference did not finish within " + std::to_string(kInferenceTimeoutS) + " s";
  if (r.end == End::Crashed) return "ONNX shape inference crashed on this model (signal " + std::to_string(r.signal) + ")";
  onnx::ModelProto result;
  if (r.end != End::Finished || !result.ParseFromString(r.output))
    return std::string("ONNX shape inference failed in its helper process");
  unpackResult(result, model);
  return result.doc_string();
}

}  // namespace

std::string inferenceBlocker(const onnx::ModelProto& model) {
  std::unordered_set<std::string> defined;
  return Blocker(model).check(model.graph(), defined);
}

std::string runIsolated(onnx::ModelProto& model, const std::function<std::string(onnx::ModelProto&)>& work) {
  // Build the schema registry here (it is built lazily), not once per child.
  (void)onnx::OpSchemaRegistry::Schema("Identity", 1, "");
  const char* inProcess = std::getenv("GP_ONNX_INFER_INPROCESS");  // for debuggers
  if (inProcess == nullptr || std::string_view(inProcess) != "1")
    if (auto error = inferInChild(model, work)) return *error;
  try {
    return work(model);
  } catch (...) {
    return "shape inference failed";
  }
}

std::string runShapeInference(onnx::ModelProto& model) {
  return runIsolated(model, inferInPlace);
}

}  // namespace gp::onnxio
