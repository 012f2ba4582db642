#include "io/onnx_fold.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/onnx_flops.h"
#include "io/onnx_infer.h"
#include "io/onnx_shapes.h"

namespace gp::onnxio {

namespace {

using TP = onnx::TensorProto;

struct Value {
  int32_t elemType = TP::INT64;
  std::vector<int64_t> dims;
  std::vector<double> v;
};
using Values = std::unordered_map<std::string, Value>;

bool isInt(int32_t t) {
  return t == TP::INT64 || t == TP::INT32 || t == TP::BOOL;
}
bool foldable(int32_t t) {
  return isInt(t) || t == TP::FLOAT || t == TP::DOUBLE;
}

int64_t count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || d > kMaxFoldElems) return -1;
    n *= d;
    if (n > kMaxFoldElems) return -1;
  }
  return n <= kMaxFoldElems ? n : -1;
}

template <class T>
bool fromRaw(const std::string& raw, int64_t n, std::vector<double>& out) {
  if (raw.size() != static_cast<size_t>(n) * sizeof(T)) return false;
  for (int64_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, raw.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));  // little-endian host
    out.push_back(static_cast<double>(x));
  }
  return true;
}

std::optional<Value> fromTensor(const TP& t) {
  if (!foldable(t.data_type()) || t.data_location() == TP::EXTERNAL) return std::nullopt;
  Value val{t.data_type(), {t.dims().begin(), t.dims().end()}, {}};
  const int64_t n = count(val.dims);
  if (n < 0) return std::nullopt;
  const bool raw = t.has_raw_data();
  switch (t.data_type()) {
    case TP::INT64:
      if (raw)
        fromRaw<int64_t>(t.raw_data(), n, val.v);
      else
        for (int64_t x : t.int64_data()) val.v.push_back(static_cast<double>(x));
      break;
    case TP::INT32:
      if (raw)
        fromRaw<int32_t>(t.raw_data(), n, val.v);
      else
        for (int32_t x : t.int32_data()) val.v.push_back(x);
      break;
    case TP::BOOL:
      if (raw)
        fromRaw<uint8_t>(t.raw_data(), n, val.v);
      else
        for (int32_t x : t.int32_data()) val.v.push_back(x != 0);
      break;
    case TP::FLOAT:
      if (raw)
        fromRaw<float>(t.raw_data(), n, val.v);
      else
        for (float x : t.float_data()) val.v.push_back(x);
      break;
    case TP::DOUBLE:
      if (raw)
        fromRaw<double>(t.raw_data(), n, val.v);
      else
        for (double x : t.double_data()) val.v.push_back(x);
      break;
    default:
      return std::nullopt;
  }
  if (static_cast<int64_t>(val.v.size()) != n) return std::nullopt;
  return val;
}

TP toTensor(const std::string& name, const Value& val) {
  TP t;
  t.set_name(name);
  t.set_data_type(val.elemType);
  for (int64_t d : val.dims) t.add_dims(d);
  for (double x : val.v) {
    switch (val.elemType) {
      case TP::INT64:
        t.add_int64_data(static_cast<int64_t>(x));
        break;
      case TP::INT32:
      case TP::BOOL:
        t.add_int32_data(static_cast<int32_t>(x));
        break;
      case TP::FLOAT:
        t.add_float_data(static_cast<float>(x));
        break;
      default:
        t.add_double_data(x);
        break;
    }
  }
  return t;
}

double asType(double x, int32_t elemType) {
  if (elemType == TP::BOOL) return x != 0 ? 1 : 0;
  return isInt(elemType) ? std::trunc(x) : x;
}

int64_t normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

class Folder {
 public:
  Folder(const onnx::GraphProto& g, const ShapeTable& shapes) : g_(g), shapes_(shapes) {}

  Values run() {
    for (const auto& t : g_.initializer())
      if (auto v = fromTensor(t)) vals_.emplace(t.name(), std::move(*v));
    for (const auto& node : g_.node()) {
      if (node.output_size() < 1 || node.output(0).empty()) continue;
      if (auto v = eval(node)) vals_.emplace(node.output(0), std::move(*v));
    }
    return std::move(vals_);
  }

 private:
  const Value* get(const onnx::NodeProto& n, int i) const {
    if (i >= n.input_size() || n.input(i).empty()) return nullptr;
    auto it = vals_.find(n.input(i));
    return it == vals_.end() ? nullptr : &it->second;
  }

  // Integer list from attribute `attr` (older opsets) or input `input` (newer ones).
  std::optional<std::vector<int64_t>> ints(const onnx::NodeProto& n, const char* attr, int input) const {
    for (const auto& a : n.attribute())
      if (a.name() == attr) return std::vector<int64_t>(a.ints().begin(), a.ints().end());
    if (const Value* v = get(n, input)) {
      std::vector<int64_t> out;
      for (double x : v->v) out.push_back(static_cast<int64_t>(x));
      return out;
    }
    return std::nullopt;
  }

  static std::optional<Value> binary(const std::string& op, const Value& a, const Value& b) {
    const size_t n = std::max(a.v.size(), b.v.size());
    if (!(a.v.size() == n || a.v.size() == 1) || !(b.v.size() == n || b.v.size() == 1)) return std::nullopt;
    Value out{a.elemType, a.v.size() >= b.v.size() && a.dims.size() >= b.dims.size() ? a.dims : b.dims, {}};
    if (count(out.dims) != static_cast<int64_t>(n)) return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
      const double x = a.v[a.v.size() == 1 ? 0 : i], y = b.v[b.v.size() == 1 ? 0 : i];
      double r = 0;
      if (op == "Add")
        r = x + y;
      else if (op == "Sub")
        r = x - y;
      else if (op == "Mul")
        r = x * y;
      else if (op == "Div") {
        if (y == 0) return std::nullopt;
        r = x / y;
      } else if (op == "Max")
        r = std::max(x, y);
      else if (op == "Min")
        r = std::min(x, y);
      else if (op == "Pow")
        r = std::pow(x, y);
      else if (op == "Equal")
        r = x == y;
      else if (op == "Less")
        r = x < y;
      else if (op == "Greater")
        r = x > y;
      else
        return std::nullopt;
      out.v.push_back(r);
    }
    if (op == "Equal" || op == "Less" || op == "Greater") out.elemType = TP::BOOL;
    for (double& r : out.v) r = asType(r, out.elemType);
    return out;
  }

  std::optional<Value> eval(const onnx::NodeProto& n) const {
    const std::string& op = n.op_type();
    if (!n.domain().empty() && n.domain() != "ai.onnx") return std::nullopt;
    const Value* a = get(n, 0);
    if (op == "Constant") {
      for (const auto& at : n.attribute()) {
        if (at.name() == "value" && at.has_t()) return fromTensor(at.t());
        if (at.name() == "value_int") return Value{TP::INT64, {}, {static_cast<double>(at.i())}};
        if (at.name() == "value_float") return Value{TP::FLOAT, {}, {at.f()}};
        if (at.name() == "value_ints" && at.ints_size() <= kMaxFoldElems) {
          Value v{TP::INT64, {at.ints_size()}, {}};
          for (int64_t x : at.ints()) v.v.push_back(static_cast<double>(x));
          return v;
        }
        if (at.name() == "value_floats" && at.floats_size() <= kMaxFoldElems) {
          Value v{TP::FLOAT, {at.floats_size()}, {}};
          for (float x : at.floats()) v.v.push_back(x);
          return v;
        }
      }
      return std::nullopt;
    }
    if (op == "Shape" || op == "Size") {
      const TensorInfo* info = n.input_size() > 0 ? shapes_.find(n.input(0)) : nullptr;
      if (info == nullptr || !info->shapeKnown || info->symbolic) return std::nullopt;
      const auto rank = static_cast<int64_t>(info->dims.size());
      if (op == "Size") {
        double numel = 1;
        for (int64_t d : info->dims) numel *= static_cast<double>(d);
        return Value{TP::INT64, {}, {numel}};
      }
      int64_t start = std::clamp<int64_t>(normAxis(intAttr(n, "start", 0), rank), 0, rank);
      int64_t end = std::clamp<int64_t>(normAxis(intAttr(n, "end", rank), rank), 0, rank);
      Value v{TP::INT64, {std::max<int64_t>(0, end - start)}, {}};
      for (int64_t i = start; i < end; ++i) v.v.push_back(static_cast<double>(info->dims[i]));
      return v;
    }
    if (a == nullptr && op != "Concat") return std::nullopt;
    if (op == "Identity") return *a;
    if (op == "Cast") {
      const auto to = static_cast<int32_t>(intAttr(n, "to", 0));
      if (!foldable(to)) return std::nullopt;
      Value v = *a;
      v.elemType = to;
      for (double& x : v.v) x = asType(x, to);
      return v;
    }
    if (op == "Neg" || op == "Abs" || op == "Sqrt" || op == "Floor" || op == "Ceil" || op == "Not") {
      Value v = *a;
      for (double& x : v.v) {
        if (op == "Neg")
          x = -x;
        else if (op == "Abs")
          x = std::fabs(x);
        else if (op == "Sqrt")
          x = std::sqrt(x);
        else if (op == "Floor")
          x = std::floor(x);
        else if (op == "Ceil")
          x = std::ceil(x);
        else
          x = x == 0;
        x = asType(x, v.elemType);
      }
      return v;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Max" || op == "Min" || op == "Pow" ||
        op == "Equal" || op == "Less" || op == "Greater") {
      const Value* b = get(n, 1);
      if (b == nullptr || n.input_size() != 2) return std::nullopt;
      return binary(op, *a, *b);
    }
    if (op == "Where") {
      const Value* x = get(n, 1);
      const Value* y = get(n, 2);
      if (x == nullptr || y == nullptr) return std::nullopt;
      const size_t len = std::max({a->v.size(), x->v.size(), y->v.size()});
      for (const Value* p : {a, x, y})
        if (p->v.size() != len && p->v.size() != 1) return std::nullopt;
      Value v{x->elemType, x->v.size() == len ? x->dims : (y->v.size() == len ? y->dims : a->dims), {}};
      for (size_t i = 0; i < len; ++i) {
        auto at = [&](const Value* p) { return p->v[p->v.size() == 1 ? 0 : i]; };
        v.v.push_back(at(a) != 0 ? at(x) : at(y));
      }
      return v;
    }
    if (op == "Gather") {
      const Value* idx = get(n, 1);
      if (idx == nullptr || a->dims.size() != 1 || normAxis(intAttr(n, "axis", 0), 1) != 0) return std::nullopt;
      Value v{a->elemType, idx->dims, {}};
      const auto len = static_cast<int64_t>(a->v.size());
      for (double x : idx->v) {
        auto i = static_cast<int64_t>(x);
        if (i < 0) i += len;
        if (i < 0 || i >= len) return std::nullopt;
        v.v.push_back(a->v[i]);
      }
      return v;
    }
    if (op == "Unsqueeze" || op == "Squeeze") {
      auto axes = ints(n, "axes", 1);
      Value v = *a;
      if (op == "Unsqueeze") {
        if (!axes) return std::nullopt;
        const auto rank = static_cast<int64_t>(a->dims.size() + axes->size());
        std::vector<int64_t> dims(static_cast<size_t>(rank), -1);
        for (int64_t ax : *axes) {
          ax = normAxis(ax, rank);
          if (ax < 0 || ax >= rank) return std::nullopt;
          dims[ax] = 1;
        }
        size_t k = 0;
        for (auto& d : dims)
          if (d < 0) d = k < a->dims.size() ? a->dims[k++] : 1;
        v.dims = dims;
      } else {
        std::vector<int64_t> dims;
        const auto rank = static_cast<int64_t>(a->dims.size());
        for (int64_t i = 0; i < rank; ++i) {
          bool drop =
              !axes ? a->dims[i] == 1
                    : std::any_of(axes->begin(), axes->end(), [&](int64_t ax) { return normAxis(ax, rank) == i; });
          if (!drop) dims.push_back(a->dims[i]);
        }
        v.dims = dims;
      }
      return v;
    }
    if (op == "Concat") {
      Value v{TP::INT64, {0}, {}};
      bool first = true;
      for (int i = 0; i < n.input_size(); ++i) {
        const Value* p = get(n, i);
        if (p == nullptr || p->dims.size() != 1) return std::nullopt;
        if (first) v.elemType = p->elemType;
        first = false;
        v.v.insert(v.v.end(), p->v.begin(), p->v.end());
      }
      if (first || v.v.size() > static_cast<size_t>(kMaxFoldElems)) return std::nullopt;
      v.dims[0] = static_cast<int64_t>(v.v.size());
      return v;
    }
    if (op == "Slice") {
      if (a->dims.size() != 1) return std::nullopt;
      auto starts = ints(n, "starts", 1), ends = ints(n, "ends", 2);
      if (!starts || !ends || starts->size() != 1 || ends->size() != 1) return std::nullopt;
      auto steps = ints(n, "steps", 4);
      if (auto axes = ints(n, "axes", 3); axes && (axes->size() != 1 || normAxis((*axes)[0], 1) != 0))
        return std::nullopt;
      const int64_t step = steps && !steps->empty() ? (*steps)[0] : 1;
      const auto len = static_cast<int64_t>(a->v.size());
      if (step == 0) return std::nullopt;
      auto clampIdx = [&](int64_t i) {
        if (i < 0) i += len;
        return step > 0 ? std::clamp<int64_t>(i, 0, len) : std::clamp<int64_t>(i, -1, len - 1);
      };
      const int64_t s = clampIdx((*starts)[0]), e = clampIdx((*ends)[0]);
      Value v{a->elemType, {0}, {}};
      for (int64_t i = s; step > 0 ? i < e : i > e; i += step) v.v.push_back(a->v[i]);
      v.dims[0] = static_cast<int64_t>(v.v.size());
      return v;
    }
    if (op == "Range") {
      const Value* lim = get(n, 1);
      const Value* delta = get(n, 2);
      if (lim == nullptr || delta == nullptr || delta->v.size() != 1 || a->v.size() != 1 || lim->v.size() != 1 ||
          delta->v[0] == 0)
        return std::nullopt;
      const double len = std::max(0.0, std::ceil((lim->v[0] - a->v[0]) / delta->v[0]));
      if (len > kMaxFoldElems) return std::nullopt;
      Value v{a->elemType, {static_cast<int64_t>(len)}, {}};
      for (int64_t i = 0; i < static_cast<int64_t>(len); ++i)
        v.v.push_back(a->v[0] + static_cast<double>(i) * delta->v[0]);
      return v;
    }
    if (op == "ConstantOfShape") {
      std::vector<int64_t> dims;
      for (double x : a->v) dims.push_back(static_cast<int64_t>(x));
      const int64_t len = count(dims);
      if (len < 0) return std::nullopt;
      Value fill{TP::FLOAT, {}, {0.0}};
      for (const auto& at : n.attribute())
        if (at.name() == "value" && at.has_t())
          if (auto f = fromTensor(at.t()); f && f->v.size() == 1) fill = *f;
      return Value{fill.elemType, dims, std::vector<double>(static_cast<size_t>(len), fill.v[0])};
    }
    if (op == "ReduceProd" || op == "ReduceSum") {
      if (a->dims.size() > 1) return std::nullopt;
      double r = op == "ReduceProd" ? 1 : 0;
      for (double x : a->v) r = op == "ReduceProd" ? r * x : r + x;
      Value v{a->elemType, {}, {r}};
      if (intAttr(n, "keepdims", 1) != 0) v.dims.assign(a->dims.size(), 1);
      return v;
    }
    if (op == "Reshape") {
      auto shape = ints(n, "shape", 1);
      if (!shape || shape->size() != 1 || ((*shape)[0] != -1 && (*shape)[0] != static_cast<int64_t>(a->v.size())))
        return std::nullopt;
      Value v = *a;
      v.dims = {static_cast<int64_t>(a->v.size())};
      return v;
    }
    return std::nullopt;
  }

  const onnx::GraphProto& g_;
  const ShapeTable& shapes_;
  Values vals_;
};

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

// A copy of the model for inference: folded tensors become initializers, the nodes producing
// them go, large initializers keep only name, type and dims.
onnx::ModelProto foldedCopy(const onnx::ModelProto& model, const Values& vals) {
  const onnx::GraphProto& g = model.graph();
  onnx::ModelProto copy;
  copy.set_ir_version(model.ir_version());
  *copy.mutable_opset_import() = model.opset_import();
  *copy.mutable_functions() = model.functions();
  onnx::GraphProto& cg = *copy.mutable_graph();
  cg.set_name(g.name());
  *cg.mutable_input() = g.input();
  *cg.mutable_output() = g.output();
  *cg.mutable_value_info() = g.value_info();
  *cg.mutable_sparse_initializer() = g.sparse_initializer();
  std::unordered_set<std::string> defined;
  for (const auto& t : g.initializer()) {
    defined.insert(t.name());
    onnx::TensorProto* c = cg.add_initializer();
    if (vals.count(t.name()) != 0) {
      *c = t;
      continue;
    }
    c->set_name(t.name());
    c->set_data_type(t.data_type());
    *c->mutable_dims() = t.dims();
  }
  for (const auto& v : g.input()) defined.insert(v.name());
  for (const auto& node : g.node()) {
    bool folded = node.output_size() > 0;
    for (const auto& out : node.output()) folded = folded && !out.empty() && vals.count(out) != 0;
    if (!folded) {
      *cg.add_node() = node;
      continue;
    }
    for (const auto& out : node.output())
      if (defined.insert(out).second) *cg.add_initializer() = toTensor(out, vals.at(out));
  }
  return copy;
}

}  // namespace

bool hasUnresolvedShapes(const onnx::GraphProto& g) {
  ShapeTable shapes;
  shapes.addGraph(g);
  return unresolvedCount(g, shapes) > 0;
}

int inferWithFoldedConstants(onnx::ModelProto& model, int maxRounds) {
  int found = 0;
  for (int round = 0; round < maxRounds; ++round) {
    onnx::GraphProto& g = *model.mutable_graph();
    ShapeTable shapes;
    shapes.addGraph(g);
    const int before = unresolvedCount(g, shapes);
    if (before == 0) break;
    const Values vals = Folder(g, shapes).run();
    onnx::ModelProto copy = foldedCopy(model, vals);
    runShapeInference(copy);

    // Copy back what is new: shapes inference found in the copy and the folded values' shapes.
    std::unordered_map<std::string, int> index;
    for (int i = 0; i < g.value_info_size(); ++i) index.emplace(g.value_info(i).name(), i);
    auto adopt = [&](const onnx::ValueInfoProto& vi) {
      const TensorInfo info = infoFromType(vi.type());
      if (!info.shapeKnown) return;
      const TensorInfo* old = shapes.find(vi.name());
      if (old != nullptr && old->shapeKnown && (!old->symbolic || info.symbolic)) return;
      auto it = index.find(vi.name());
      if (it != index.end()) {
        *g.mutable_value_info(it->second) = vi;
      } else {
        index.emplace(vi.name(), g.value_info_size());
        *g.add_value_info() = vi;
      }
    };
    for (const auto& vi : copy.graph().value_info()) adopt(vi);
    for (const auto& vi : copy.graph().output()) adopt(vi);
    for (const auto& [name, val] : vals) {
      onnx::ValueInfoProto vi;
      vi.set_name(name);
      auto* tt = vi.mutable_type()->mutable_tensor_type();
      tt->set_elem_type(val.elemType);
      auto* shape = tt->mutable_shape();
      for (int64_t d : val.dims) shape->add_dim()->set_dim_value(d);
      adopt(vi);
    }
    ShapeTable after;
    after.addGraph(g);
    const int left = unresolvedCount(g, after);
    found += before - left;
    if (left == 0 || left >= before) break;
  }
  return found;
}

}  // namespace gp::onnxio
