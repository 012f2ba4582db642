#include "onnxio/onnx_shapes.h"

#include <stdexcept>

namespace gp::onnxio {

namespace {

using TP = onnx::TensorProto;

bool concrete(const onnx::TensorShapeProto_Dimension& d) {
  return d.has_dim_value() && d.dim_value() >= 0;
}

TensorInfo scalarOrVector(int32_t elemType, int64_t count, bool vector) {
  TensorInfo info{elemType, true, {}};
  if (vector) info.dims.push_back(count);
  return info;
}

// Shape of a Constant node's output from its attribute.
bool constantInfo(const onnx::NodeProto& node, TensorInfo& out) {
  for (const auto& a : node.attribute()) {
    const std::string& n = a.name();
    if (n == "value" && a.has_t()) {
      out = infoFromTensor(a.t());
      return true;
    }
    if (n == "sparse_value" && a.has_sparse_tensor()) {
      const auto& s = a.sparse_tensor();
      out = TensorInfo{s.values().data_type(), true, {s.dims().begin(), s.dims().end()}};
      return true;
    }
    if (n == "value_float")
      out = scalarOrVector(TP::FLOAT, 1, false);
    else if (n == "value_floats")
      out = scalarOrVector(TP::FLOAT, a.floats_size(), true);
    else if (n == "value_int")
      out = scalarOrVector(TP::INT64, 1, false);
    else if (n == "value_ints")
      out = scalarOrVector(TP::INT64, a.ints_size(), true);
    else if (n == "value_string")
      out = scalarOrVector(TP::STRING, 1, false);
    else if (n == "value_strings")
      out = scalarOrVector(TP::STRING, a.strings_size(), true);
    else
      continue;
    return true;
  }
  return false;
}

}  // namespace

TensorInfo infoFromType(const onnx::TypeProto& type) {
  TensorInfo info;
  const onnx::TensorShapeProto* shape = nullptr;
  if (type.has_tensor_type()) {
    info.elemType = type.tensor_type().elem_type();
    if (type.tensor_type().has_shape()) shape = &type.tensor_type().shape();
  } else if (type.has_sparse_tensor_type()) {
    info.elemType = type.sparse_tensor_type().elem_type();
    if (type.sparse_tensor_type().has_shape()) shape = &type.sparse_tensor_type().shape();
  } else if (type.value_case() != onnx::TypeProto::VALUE_NOT_SET) {
    info.notTensor = true;  // sequences, maps, optionals: no tensor shape
  }
  if (shape != nullptr) {
    info.shapeKnown = true;
    for (const auto& d : shape->dim()) {
      info.dims.push_back(concrete(d) ? d.dim_value() : 1);
      info.symbolic = info.symbolic || !concrete(d);
    }
  }
  return info;
}

TensorInfo infoFromTensor(const onnx::TensorProto& tensor) {
  return TensorInfo{tensor.data_type(), true, {tensor.dims().begin(), tensor.dims().end()}};
}

DType dtypeOf(int32_t t) {
  switch (t) {
    case TP::FLOAT:
      return DType::F32;
    case TP::FLOAT16:
      return DType::F16;
    case TP::BFLOAT16:
      return DType::BF16;
    case TP::DOUBLE:
      return DType::F64;
    case TP::INT64:
    case TP::UINT64:
      return DType::I64;
    case TP::INT32:
    case TP::UINT32:
      return DType::I32;
    case TP::INT16:
    case TP::UINT16:
      return DType::I16;
    case TP::INT8:
      return DType::I8;
    case TP::UINT8:
      return DType::U8;
    case TP::BOOL:
      return DType::Bool;
    case TP::COMPLEX64:
      return DType::Complex64;
    default:
      return DType::Unknown;
  }
}

int elemSize(int32_t t) {
  switch (t) {
    case TP::DOUBLE:
    case TP::INT64:
    case TP::UINT64:
    case TP::COMPLEX64:
      return 8;
    case TP::COMPLEX128:
      return 16;
    case TP::FLOAT:
    case TP::INT32:
    case TP::UINT32:
      return 4;
    case TP::FLOAT16:
    case TP::BFLOAT16:
    case TP::INT16:
    case TP::UINT16:
      return 2;
    case TP::INT8:
    case TP::UINT8:
    case TP::BOOL:
      return 1;
    default:
      return 0;
  }
}

int64_t tensorBytes(const TensorInfo& info) {
  if (!info.shapeKnown) return 0;
  int64_t n = elemSize(info.elemType);
  for (int64_t d : info.dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;  // GraphBuilder reports it
  return n;
}

void ShapeTable::set(const std::string& name, TensorInfo info) {
  if (name.empty()) return;
  auto [it, fresh] = map_.try_emplace(name, std::move(info));
  if (fresh) return;
  if ((!it->second.shapeKnown && info.shapeKnown) || (it->second.symbolic && info.shapeKnown && !info.symbolic))
    it->second = std::move(info);
  else if (it->second.elemType == 0)
    it->second.elemType = info.elemType;
}

void ShapeTable::addGraph(const onnx::GraphProto& g) {
  map_.reserve(map_.size() + static_cast<size_t>(g.value_info_size() + g.input_size() + g.initializer_size()));
  for (const auto& t : g.initializer()) set(t.name(), infoFromTensor(t));
  for (const auto& s : g.sparse_initializer())
    set(s.values().name(), TensorInfo{s.values().data_type(), true, {s.dims().begin(), s.dims().end()}});
  for (const auto& v : g.input()) set(v.name(), infoFromType(v.type()));
  for (const auto& v : g.value_info()) set(v.name(), infoFromType(v.type()));
  for (const auto& v : g.output()) set(v.name(), infoFromType(v.type()));
  for (const auto& node : g.node()) {
    TensorInfo info;
    if (node.op_type() == "Constant" && node.output_size() == 1 && constantInfo(node, info))
      set(node.output(0), std::move(info));
  }
}

const TensorInfo* ShapeTable::find(const std::string& name) const {
  const TensorInfo* first = nullptr;
  for (const ShapeTable* t = this; t != nullptr; t = t->parent_) {
    auto it = t->map_.find(name);
    if (it == t->map_.end()) continue;
    if (it->second.shapeKnown) return &it->second;
    if (first == nullptr) first = &it->second;
  }
  return first;
}

const std::vector<int64_t>* ShapeTable::shape(const std::string& name) const {
  const TensorInfo* info = find(name);
  return info != nullptr && info->shapeKnown ? &info->dims : nullptr;
}

std::unordered_set<std::string> initializerNames(const onnx::GraphProto& g) {
  std::unordered_set<std::string> names;
  for (const auto& t : g.initializer()) names.insert(t.name());
  for (const auto& s : g.sparse_initializer()) names.insert(s.values().name());
  return names;
}

bool pinInputShapes(onnx::GraphProto& g, const std::unordered_set<std::string>& initializers,
                    const std::vector<int64_t>& inputShape, const std::map<std::string, int64_t>& dims,
                    std::vector<SymbolicDim>& symbolic) {
  bool changed = false;
  bool overridden = false;
  std::map<std::string, int64_t> used;
  auto pin = [&](onnx::TensorShapeProto_Dimension& d) {
    if (concrete(d)) return;
    changed = true;
    int64_t value = 1;
    if (d.has_dim_param() && !d.dim_param().empty()) {
      auto bound = dims.find(d.dim_param());
      if (bound != dims.end()) value = bound->second;
      if (used.emplace(d.dim_param(), value).second)
        symbolic.push_back(SymbolicDim{d.dim_param(), value, bound != dims.end()});
    }
    d.set_dim_value(value);
  };
  for (auto& v : *g.mutable_input()) {
    if (initializers.count(v.name()) != 0 || !v.type().has_tensor_type()) continue;
    auto* tt = v.mutable_type()->mutable_tensor_type();
    if (!inputShape.empty() && !overridden) {
      tt->clear_shape();
      auto* shape = tt->mutable_shape();
      for (int64_t d : inputShape) shape->add_dim()->set_dim_value(d);
      overridden = changed = true;
      continue;
    }
    if (!tt->has_shape()) continue;
    for (auto& d : *tt->mutable_shape()->mutable_dim()) pin(d);
  }
  for (const auto& [name, value] : dims)
    if (used.count(name) == 0) {
      std::string known;
      for (const auto& s : symbolic) known += (known.empty() ? "" : ", ") + s.name;
      throw std::invalid_argument("--dim " + name + ": the model's inputs have no symbolic dimension of that name" +
                                  (known.empty() ? std::string(" (they have none)") : " (they have: " + known + ")"));
    }
  if (overridden) {
    g.clear_value_info();
    for (auto& v : *g.mutable_output())
      if (v.type().has_tensor_type()) v.mutable_type()->mutable_tensor_type()->clear_shape();
    return changed;
  }
  auto pinNamed = [&](onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    for (auto& d : *v.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
      if (!concrete(d) && d.has_dim_param())
        if (auto it = used.find(d.dim_param()); it != used.end()) d.set_dim_value(it->second);
  };
  for (auto& v : *g.mutable_value_info()) pinNamed(v);
  for (auto& v : *g.mutable_output()) pinNamed(v);
  return changed;
}

}  // namespace gp::onnxio
