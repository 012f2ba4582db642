#include "io/onnx_fold.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "io/onnx_fold_eval.h"
#include "io/onnx_infer.h"
#include "io/onnx_shapes.h"

namespace gp::onnxio {

namespace {

using TP = onnx::TensorProto;

// Node outputs (Constant nodes aside) whose shape is unknown or has a dimension without value.
int unresolvedCount(const onnx::GraphProto& g, const ShapeTable& shapes) {
  int n = 0;
  for (const auto& node : g.node()) {
    if (node.op_type() == "Constant") continue;
    for (const auto& out : node.output()) {
      if (out.empty()) continue;
      const TensorInfo* info = shapes.find(out);
      if (info == nullptr || !info->shapeKnown || info->symbolic) ++n;
    }
  }
  return n;
}

// -1: no tensor shape; else the number of dimensions with a value.
int knownDims(const onnx::TypeProto& t) {
  if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return -1;
  int n = 0;
  for (const auto& d : t.tensor_type().shape().dim()) n += d.has_dim_value() ? 1 : 0;
  return n;
}

bool fullyKnown(const onnx::TypeProto& t) {
  return knownDims(t) == (t.has_tensor_type() ? t.tensor_type().shape().dim_size() : -2);
}

// Whether `found` says more than `old`: a shape where there was none, or more dimensions
// with values at the same rank (a declared shape of another rank wins only if incomplete).
bool better(const onnx::TypeProto& found, const onnx::TypeProto& old) {
  const int f = knownDims(found), o = knownDims(old);
  if (f < 0) return old.value_case() == onnx::TypeProto::VALUE_NOT_SET && found.value_case() != old.value_case();
  if (o < 0) return true;
  const int fr = found.tensor_type().shape().dim_size(), orank = old.tensor_type().shape().dim_size();
  if (fr != orank) return !fullyKnown(old) && f == fr;
  return f > o;
}

onnx::TypeProto typeOf(int32_t elemType, const std::vector<int64_t>& dims) {
  onnx::TypeProto t;
  auto* tt = t.mutable_tensor_type();
  tt->set_elem_type(elemType);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  return t;
}

// One pass over the top-level nodes in file order: each node's output types from its schema's
// inference function, given the types found so far and the values folded so far as input data;
// then the node's own value, if it is shape arithmetic.
class Propagator {
 public:
  explicit Propagator(onnx::ModelProto& model) : model_(model), g_(*model.mutable_graph()) {
    for (const auto& op : model.opset_import())
      opsets_[op.domain() == "ai.onnx" ? std::string() : op.domain()] = static_cast<int>(op.version());
    if (opsets_.count("") == 0 && model.opset_import_size() == 0) opsets_[""] = 1;
  }

  void run() {
    seed();
    onnx::shape_inference::ModelLocalFunctionsMap functions;
    onnx::shape_inference::GraphInferenceContext context(typePtr_, opsets_, nullptr, functions,
                                                          onnx::OpSchemaRegistry::Instance(), nullptr,
                                                          static_cast<int>(model_.ir_version()));
    const FoldInput value = [this](const std::string& name) -> const FoldValue* {
      auto it = vals_.find(name);
      return it == vals_.end() ? nullptr : &it->second;
    };
    const FoldShape shape = [this](const std::string& name) { return dimsOf(name); };
    for (auto& node : *g_.mutable_node()) {
      infer(node, context);
      if (auto v = foldNode(node, value, shape)) {
        const std::string& out = node.output(0);
        const onnx::TypeProto t = typeOf(v->elemType, v->dims);
        if (auto it = types_.find(out); it == types_.end() || better(t, it->second)) put(out, t);
        data_[out] = foldToTensor(out, *v);
        dataPtr_[out] = &data_[out];
        vals_[out] = std::move(*v);
      }
    }
    writeBack();
  }

 private:
  void put(const std::string& name, const onnx::TypeProto& t) {
    onnx::TypeProto& slot = types_[name];
    slot = t;
    typePtr_[name] = &slot;
    dims_.erase(name);
  }

  void seed() {
    for (const auto& init : g_.initializer()) {
      put(init.name(), typeOf(init.data_type(), {init.dims().begin(), init.dims().end()}));
      if (auto v = foldFromTensor(init)) {
        data_[init.name()] = foldToTensor(init.name(), *v);
        dataPtr_[init.name()] = &data_[init.name()];
        vals_.emplace(init.name(), std::move(*v));
      }
    }
    for (const auto& s : g_.sparse_initializer())
      put(s.values().name(), typeOf(s.values().data_type(), {s.dims().begin(), s.dims().end()}));
    for (const auto* list : {&g_.input(), &g_.value_info(), &g_.output()})
      for (const auto& v : *list) {
        if (v.type().value_case() == onnx::TypeProto::VALUE_NOT_SET) continue;
        auto it = types_.find(v.name());
        if (it == types_.end() || better(v.type(), it->second)) put(v.name(), v.type());
      }
    declared_ = types_;
  }

  const std::vector<int64_t>* dimsOf(const std::string& name) {
    if (auto it = dims_.find(name); it != dims_.end()) return &it->second;
    auto t = types_.find(name);
    if (t == types_.end() || !fullyKnown(t->second)) return nullptr;
    std::vector<int64_t> dims;
    for (const auto& d : t->second.tensor_type().shape().dim()) dims.push_back(d.dim_value());
    return &(dims_[name] = std::move(dims));
  }

  void infer(onnx::NodeProto& node, onnx::shape_inference::GraphInferenceContext& context) {
    const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
    auto opset = opsets_.find(domain);
    if (opset == opsets_.end()) return;
    const auto* schema = onnx::OpSchemaRegistry::Instance()->GetSchema(node.op_type(), opset->second, domain);
    if (schema == nullptr || !schema->has_type_and_shape_inference_function()) return;
    for (const auto& in : node.input())  // inference functions assume typed inputs
      if (!in.empty() && typePtr_.count(in) == 0) return;
    try {
      onnx::shape_inference::InferenceContextImpl ctx(node, typePtr_, dataPtr_, {}, nullptr, &context);
      schema->GetTypeAndShapeInferenceFunction()(ctx);
      for (int i = 0; i < node.output_size() && i < static_cast<int>(ctx.allOutputTypes_.size()); ++i) {
        const std::string& out = node.output(i);
        if (out.empty()) continue;
        onnx::TypeProto found = ctx.allOutputTypes_[static_cast<size_t>(i)];
        auto it = types_.find(out);
        if (it != types_.end() && found.has_tensor_type() && found.tensor_type().elem_type() == 0 &&
            it->second.has_tensor_type())
          found.mutable_tensor_type()->set_elem_type(it->second.tensor_type().elem_type());
        if (it == types_.end() || better(found, it->second)) put(out, found);
      }
    } catch (...) {
      // a node inference rejects keeps its declared types
    }
  }

  // Every node output whose type the pass improved goes into value_info (or the graph output).
  void writeBack() {
    std::unordered_map<std::string, int> info, outputs;
    for (int i = 0; i < g_.value_info_size(); ++i) info.emplace(g_.value_info(i).name(), i);
    for (int i = 0; i < g_.output_size(); ++i) outputs.emplace(g_.output(i).name(), i);
    for (const auto& node : g_.node())
      for (const auto& out : node.output()) {
        auto t = types_.find(out);
        if (out.empty() || t == types_.end()) continue;
        auto d = declared_.find(out);
        if (d != declared_.end() && !better(t->second, d->second)) continue;
        if (auto o = outputs.find(out); o != outputs.end()) {
          *g_.mutable_output(o->second)->mutable_type() = t->second;
        } else if (auto v = info.find(out); v != info.end()) {
          *g_.mutable_value_info(v->second)->mutable_type() = t->second;
        } else {
          info.emplace(out, g_.value_info_size());
          onnx::ValueInfoProto* vi = g_.add_value_info();
          vi->set_name(out);
          *vi->mutable_type() = t->second;
        }
      }
  }

  onnx::ModelProto& model_;
  onnx::GraphProto& g_;
  std::unordered_map<std::string, int> opsets_;
  std::unordered_map<std::string, onnx::TypeProto> types_, declared_;
  std::unordered_map<std::string, onnx::TypeProto*> typePtr_;
  std::unordered_map<std::string, std::vector<int64_t>> dims_;
  std::unordered_map<std::string, FoldValue> vals_;
  std::unordered_map<std::string, TP> data_;
  std::unordered_map<std::string, const TP*> dataPtr_;
};

}  // namespace

bool hasUnresolvedShapes(const onnx::GraphProto& g) {
  ShapeTable shapes;
  shapes.addGraph(g);
  return unresolvedCount(g, shapes) > 0;
}

int inferWithFoldedConstants(onnx::ModelProto& model) {
  ShapeTable before;
  before.addGraph(model.graph());
  const int unresolved = unresolvedCount(model.graph(), before);
  if (unresolved == 0) return 0;
  runIsolated(model, [](onnx::ModelProto& m) {
    Propagator(m).run();
    return std::string();
  });
  ShapeTable after;
  after.addGraph(model.graph());
  return unresolved - unresolvedCount(model.graph(), after);
}

}  // namespace gp::onnxio
