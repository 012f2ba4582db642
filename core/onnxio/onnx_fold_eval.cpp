// Evaluation of the small integer / float tensors exporters compute shapes with (see
// onnxio/onnx_fold.h for the pass that uses it).
#include "onnxio/onnx_fold_eval.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <cstring>
#include <limits>
#include <string>

#include "onnxio/onnx_flops.h"

namespace gp::onnxio {

namespace {

using TP = onnx::TensorProto;

using Value = FoldValue;

// A folded value as an integer, saturating (int64 limits such as Slice's "to the end" do not
// survive the trip through double exactly).
int64_t toInt(double x) {
  if (!(x == x)) return 0;
  if (x >= 9.2e18) return std::numeric_limits<int64_t>::max();
  if (x <= -9.2e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}


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
        t.add_int64_data(toInt(x));
        break;
      case TP::INT32:
      case TP::BOOL:
        t.add_int32_data(static_cast<int32_t>(std::clamp<int64_t>(toInt(x), INT32_MIN, INT32_MAX)));
        break;
      case TP::FLOAT:
        t.add_float_data(static_cast<float>(std::clamp<double>(x, -FLT_MAX, FLT_MAX)));
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

// Row-major strides of a shape.
std::vector<int64_t> strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> st(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) st[d - 1] = st[d] * dims[d];
  return st;
}

// Calls f with every index of `dims` in row-major order (nothing when an extent is 0).
template <class F>
void forEachIndex(const std::vector<int64_t>& dims, F&& f) {
  for (int64_t d : dims)
    if (d <= 0) return;
  std::vector<int64_t> at(dims.size(), 0);
  for (;;) {
    f(at);
    size_t d = dims.size();
    while (d > 0 && ++at[d - 1] == dims[d - 1]) at[--d] = 0;
    if (d == 0) return;
  }
}

// Output dims of an elementwise op whose operands either all have the same dims or hold one
// element (numpy broadcasting of those cases); nullopt otherwise (not folded).
std::optional<std::vector<int64_t>> elementwiseDims(std::initializer_list<const FoldValue*> operands) {
  std::vector<int64_t> dims;
  const FoldValue* full = nullptr;
  for (const FoldValue* p : operands)
    if (p->v.size() != 1 && (full == nullptr || p->v.size() > full->v.size())) full = p;
  for (const FoldValue* p : operands) {
    if (full != nullptr && p->v.size() != 1 && p->dims != full->dims) return std::nullopt;
    if (p->dims.size() > dims.size()) dims.insert(dims.begin(), p->dims.size() - dims.size(), 1);
  }
  for (const FoldValue* p : operands)
    for (size_t k = 0; k < p->dims.size(); ++k) {
      int64_t& d = dims[dims.size() - p->dims.size() + k];
      d = std::max(d, p->dims[k]);
    }
  return dims;
}

class Folder {
 public:
  Folder(const FoldInput& value, const FoldShape& shape) : value_(value), shape_(shape) {}
  std::optional<Value> eval(const onnx::NodeProto& n) const;

 private:
  const Value* get(const onnx::NodeProto& n, int i) const {
    if (i >= n.input_size() || n.input(i).empty()) return nullptr;
    return value_(n.input(i));
  }

  // Integer list from attribute `attr` (older opsets) or input `input` (newer ones).
  std::optional<std::vector<int64_t>> ints(const onnx::NodeProto& n, const char* attr, int input) const {
    for (const auto& a : n.attribute())
      if (a.name() == attr) return std::vector<int64_t>(a.ints().begin(), a.ints().end());
    if (const Value* v = get(n, input)) {
      std::vector<int64_t> out;
      for (double x : v->v) out.push_back(toInt(x));
      return out;
    }
    return std::nullopt;
  }

  // Elementwise binary ops on values of equal size or one scalar; `fmod`: Mod's attribute.
  static std::optional<Value> binary(const std::string& op, const Value& a, const Value& b, bool fmod) {
    // An empty operand broadcast against one element gives an empty result; any other size
    // must be one element or the result's.
    const size_t n = a.v.empty() || b.v.empty() ? 0 : std::max(a.v.size(), b.v.size());
    if ((a.v.size() != 1 && a.v.size() != n) || (b.v.size() != 1 && b.v.size() != n)) return std::nullopt;
    auto dims = elementwiseDims({&a, &b});
    if (!dims) return std::nullopt;
    Value out{a.elemType, *dims, {}};
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
      else if (op == "LessOrEqual")
        r = x <= y;
      else if (op == "GreaterOrEqual")
        r = x >= y;
      else if (op == "And")
        r = x != 0 && y != 0;
      else if (op == "Or")
        r = x != 0 || y != 0;
      else if (op == "Mod") {  // fmod: the dividend's sign (C); else the divisor's (Python)
        if (y == 0) return std::nullopt;
        r = fmod ? std::fmod(x, y) : x - y * std::floor(x / y);
      } else
        return std::nullopt;
      out.v.push_back(r);
    }
    if (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual" ||
        op == "And" || op == "Or")
      out.elemType = TP::BOOL;
    for (double& r : out.v) r = asType(r, out.elemType);
    return out;
  }

  std::optional<Value> evalOp(const onnx::NodeProto& n) const {
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
      const std::vector<int64_t>* dims = n.input_size() > 0 ? shape_(n.input(0)) : nullptr;
      if (dims == nullptr) return std::nullopt;
      const auto rank = static_cast<int64_t>(dims->size());
      if (op == "Size") {
        double numel = 1;
        for (int64_t d : *dims) numel *= static_cast<double>(d);
        return Value{TP::INT64, {}, {numel}};
      }
      int64_t start = std::clamp<int64_t>(normAxis(intAttr(n, "start", 0), rank), 0, rank);
      int64_t end = std::clamp<int64_t>(normAxis(intAttr(n, "end", rank), rank), 0, rank);
      Value v{TP::INT64, {std::max<int64_t>(0, end - start)}, {}};
      for (int64_t i = start; i < end; ++i) v.v.push_back(static_cast<double>((*dims)[i]));
      return v;
    }
    if (a == nullptr && op != "Concat") return std::nullopt;
    if (op == "Identity") return *a;
    if (op == "Cast") {
      const auto to = static_cast<int32_t>(intAttr(n, "to", 0));
      if (!foldable(to)) return std::nullopt;
      Value v = *a;
      v.elemType = to;
      for (double& x : v.v) {
        if (isInt(to) && !std::isfinite(x)) return std::nullopt;
        x = asType(x, to);
      }
      return v;
    }
    if (op == "Neg" || op == "Abs" || op == "Sqrt" || op == "Floor" || op == "Ceil" || op == "Not" ||
        op == "Reciprocal" || op == "Round") {
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
        else if (op == "Reciprocal")
          x = 1 / x;
        else if (op == "Round")
          x = std::nearbyint(x);  // halves to even, as ONNX says
        else
          x = x == 0;
        x = asType(x, v.elemType);
      }
      return v;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Max" || op == "Min" || op == "Pow" ||
        op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual" ||
        op == "And" || op == "Or" || op == "Mod") {
      const Value* b = get(n, 1);
      if (b == nullptr || n.input_size() != 2) return std::nullopt;
      return binary(op, *a, *b, intAttr(n, "fmod", 0) != 0);
    }
    if (op == "Where") {
      const Value* x = get(n, 1);
      const Value* y = get(n, 2);
      if (x == nullptr || y == nullptr) return std::nullopt;
      const size_t len = std::max({a->v.size(), x->v.size(), y->v.size()});
      auto dims = elementwiseDims({a, x, y});
      if (!dims) return std::nullopt;
      Value v{x->elemType, *dims, {}};
      for (size_t i = 0; i < len; ++i) {
        auto at = [&](const Value* p) { return p->v[p->v.size() == 1 ? 0 : i]; };
        v.v.push_back(at(a) != 0 ? at(x) : at(y));
      }
      return v;
    }
    if (op == "Gather") {
      const Value* idx = get(n, 1);
      const auto rank = static_cast<int64_t>(a->dims.size());
      const int64_t axis = normAxis(intAttr(n, "axis", 0), rank);
      if (idx == nullptr || rank == 0 || axis < 0 || axis >= rank) return std::nullopt;
      const int64_t len = a->dims[static_cast<size_t>(axis)];
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < axis; ++d) outer *= a->dims[static_cast<size_t>(d)];
      for (int64_t d = axis + 1; d < rank; ++d) inner *= a->dims[static_cast<size_t>(d)];
      Value v{a->elemType, {a->dims.begin(), a->dims.begin() + axis}, {}};
      v.dims.insert(v.dims.end(), idx->dims.begin(), idx->dims.end());
      v.dims.insert(v.dims.end(), a->dims.begin() + axis + 1, a->dims.end());
      if (count(v.dims) < 0) return std::nullopt;
      for (int64_t o = 0; o < outer; ++o)
        for (double x : idx->v) {
          auto k = toInt(x);
          if (k < 0) k += len;
          if (k < 0 || k >= len) return std::nullopt;
          for (int64_t e = 0; e < inner; ++e) v.v.push_back(a->v[static_cast<size_t>((o * len + k) * inner + e)]);
        }
      return v;
    }
    if (op == "Transpose") {
      const auto rank = static_cast<int64_t>(a->dims.size());
      std::vector<int64_t> perm;
      for (const auto& at : n.attribute())
        if (at.name() == "perm") perm.assign(at.ints().begin(), at.ints().end());
      if (perm.empty())
        for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);
      if (static_cast<int64_t>(perm.size()) != rank) return std::nullopt;
      Value v{a->elemType, {}, {}};
      std::vector<uint8_t> seen(static_cast<size_t>(rank), 0);
      for (int64_t p : perm) {
        if (p < 0 || p >= rank || seen[static_cast<size_t>(p)]++) return std::nullopt;  // a permutation
        v.dims.push_back(a->dims[static_cast<size_t>(p)]);
      }
      const std::vector<int64_t> from = strides(a->dims);
      forEachIndex(v.dims, [&](const std::vector<int64_t>& at) {
        int64_t src = 0;
        for (size_t d = 0; d < at.size(); ++d) src += at[d] * from[static_cast<size_t>(perm[d])];
        v.v.push_back(a->v[static_cast<size_t>(src)]);
      });
      return v;
    }
    if (op == "Expand") {
      auto shape = ints(n, "shape", 1);
      if (!shape) return std::nullopt;
      std::vector<int64_t> dims(std::max(shape->size(), a->dims.size()), 1);
      auto align = [&](const std::vector<int64_t>& s) {
        for (size_t k = 0; k < s.size(); ++k) {
          int64_t& d = dims[dims.size() - s.size() + k];
          if (s[k] != 1 && d != 1 && s[k] != d) return false;
          if (s[k] != 1) d = s[k];
        }
        return true;
      };
      if (!align(a->dims) || !align(*shape) || count(dims) < 0) return std::nullopt;
      Value v{a->elemType, dims, {}};
      const std::vector<int64_t> from = strides(a->dims);
      const size_t lead = dims.size() - a->dims.size();
      forEachIndex(dims, [&](const std::vector<int64_t>& at) {
        int64_t src = 0;
        for (size_t d = 0; d < a->dims.size(); ++d) src += (a->dims[d] == 1 ? 0 : at[lead + d]) * from[d];
        v.v.push_back(a->v[static_cast<size_t>(src)]);
      });
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
          if (drop && a->dims[i] != 1) return std::nullopt;  // only size-1 axes squeeze
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
      const auto rank = static_cast<int64_t>(a->dims.size());
      auto starts = ints(n, "starts", 1), ends = ints(n, "ends", 2);
      if (!starts || !ends || starts->size() != ends->size() || rank == 0) return std::nullopt;
      std::vector<int64_t> axes, steps(starts->size(), 1);
      if (auto ax = ints(n, "axes", 3)) axes = *ax;
      else
        for (size_t k = 0; k < starts->size(); ++k) axes.push_back(static_cast<int64_t>(k));
      if (auto st = ints(n, "steps", 4)) steps = *st;
      if (axes.size() != starts->size() || steps.size() != starts->size()) return std::nullopt;
      std::vector<int64_t> first(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1), dims = a->dims;
      for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t ax = normAxis(axes[k], rank);
        if (ax < 0 || ax >= rank || steps[k] == 0 || steps[k] == std::numeric_limits<int64_t>::min())
          return std::nullopt;
        const int64_t len = a->dims[static_cast<size_t>(ax)], st = steps[k];
        // ONNX: negative indices count from the end; a positive step clamps both to [0, len], a
        // negative one the start to [0, len - 1] and the end to [-1, len - 1].
        auto wrap = [&](int64_t i) { return i < 0 ? (i < -len ? -len - 1 : i + len) : i; };
        int64_t b = wrap((*starts)[k]), e = wrap((*ends)[k]);
        if (st > 0) {
          b = std::clamp<int64_t>(b, 0, len);
          e = std::clamp<int64_t>(e, 0, len);
        } else {
          b = std::clamp<int64_t>(b, 0, std::max<int64_t>(len - 1, 0));
          e = std::clamp<int64_t>(e, -1, len - 1);
        }
        const int64_t span = st > 0 ? e - b : b - e, by = st > 0 ? st : -st;
        first[static_cast<size_t>(ax)] = b;
        step[static_cast<size_t>(ax)] = st;
        dims[static_cast<size_t>(ax)] = len == 0 || span <= 0 ? 0 : 1 + (span - 1) / by;
      }
      Value v{a->elemType, dims, {}};
      const std::vector<int64_t> from = strides(a->dims);
      forEachIndex(dims, [&](const std::vector<int64_t>& at) {
        int64_t src = 0;
        for (size_t d = 0; d < at.size(); ++d) src += (first[d] + at[d] * step[d]) * from[d];
        v.v.push_back(a->v[static_cast<size_t>(src)]);
      });
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
      for (double x : a->v) dims.push_back(toInt(x));
      const int64_t len = count(dims);
      if (len < 0) return std::nullopt;
      Value fill{TP::FLOAT, {}, {0.0}};
      for (const auto& at : n.attribute())
        if (at.name() == "value" && at.has_t())
          if (auto f = fromTensor(at.t()); f && f->v.size() == 1) fill = *f;
      return Value{fill.elemType, dims, std::vector<double>(static_cast<size_t>(len), fill.v[0])};
    }
    if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMin" || op == "ReduceMax" || op == "ReduceMean") {
      if (a->dims.size() > 1 || a->v.empty()) return std::nullopt;
      double r = op == "ReduceProd" ? 1 : op == "ReduceMin" || op == "ReduceMax" ? a->v[0] : 0;
      for (double x : a->v) {
        if (op == "ReduceProd")
          r *= x;
        else if (op == "ReduceMin")
          r = std::min(r, x);
        else if (op == "ReduceMax")
          r = std::max(r, x);
        else
          r += x;
      }
      if (op == "ReduceMean") r /= static_cast<double>(a->v.size());
      Value v{a->elemType, {}, {asType(r, a->elemType)}};
      if (intAttr(n, "keepdims", 1) != 0) v.dims.assign(a->dims.size(), 1);
      return v;
    }
    if (op == "Reshape") {
      auto shape = ints(n, "shape", 1);
      if (!shape) return std::nullopt;
      const bool allowZero = intAttr(n, "allowzero", 0) != 0;
      std::vector<int64_t> dims = *shape;
      int64_t known = 1, infer = -1;
      for (size_t k = 0; k < dims.size(); ++k) {
        if (dims[k] == 0 && !allowZero) {
          if (k >= a->dims.size()) return std::nullopt;
          dims[k] = a->dims[k];
        }
        if (dims[k] == -1) {
          if (infer >= 0) return std::nullopt;
          infer = static_cast<int64_t>(k);
        } else if (dims[k] < 0) {
          return std::nullopt;
        } else if (__builtin_mul_overflow(known, dims[k], &known)) {
          return std::nullopt;
        }
      }
      const auto total = static_cast<int64_t>(a->v.size());
      if (infer >= 0) {
        if (known == 0 || total % known != 0) return std::nullopt;
        dims[static_cast<size_t>(infer)] = total / known;
      } else if (known != total) {
        return std::nullopt;
      }
      Value v = *a;
      v.dims = dims;
      return v;
    }
    return std::nullopt;
  }

  const FoldInput& value_;
  const FoldShape& shape_;
};

std::optional<Value> Folder::eval(const onnx::NodeProto& n) const {
  if (n.output_size() < 1 || n.output(0).empty()) return std::nullopt;
  std::optional<Value> v = evalOp(n);
  if (v && count(v->dims) != static_cast<int64_t>(v->v.size())) return std::nullopt;  // dims and data agree
  return v;
}

}  // namespace

std::optional<FoldValue> foldFromTensor(const onnx::TensorProto& t) {
  return fromTensor(t);
}

onnx::TensorProto foldToTensor(const std::string& name, const FoldValue& value) {
  return toTensor(name, value);
}

std::optional<FoldValue> foldNode(const onnx::NodeProto& node, const FoldInput& value, const FoldShape& shape) {
  return Folder(value, shape).eval(node);
}

std::vector<FoldValue> foldSplit(const onnx::NodeProto& node, const FoldInput& value) {
  if (node.op_type() != "Split" || node.input_size() < 1 || node.output_size() < 1) return {};
  const FoldValue* in = value(node.input(0));
  if (in == nullptr || in->dims.size() != 1 || (intAttr(node, "axis", 0) != 0 && intAttr(node, "axis", 0) != -1)) return {};
  std::vector<int64_t> sizes;
  for (const auto& a : node.attribute())
    if (a.name() == "split") sizes.assign(a.ints().begin(), a.ints().end());
  if (sizes.empty() && node.input_size() > 1 && !node.input(1).empty()) {
    const FoldValue* s = value(node.input(1));
    if (s == nullptr) return {};
    for (double x : s->v) sizes.push_back(static_cast<int64_t>(x));
  }
  const auto total = static_cast<int64_t>(in->v.size());
  const int64_t parts = node.output_size();
  if (sizes.empty()) {
    if (total % parts != 0) return {};
    sizes.assign(static_cast<size_t>(parts), total / parts);
  }
  if (static_cast<int64_t>(sizes.size()) != parts) return {};
  std::vector<FoldValue> out;
  int64_t at = 0;
  for (int64_t s : sizes) {
    if (s < 0 || at + s > total) return {};
    out.push_back({in->elemType, {s}, {in->v.begin() + at, in->v.begin() + at + s}});
    at += s;
  }
  if (at != total) return {};
  return out;
}

}  // namespace gp::onnxio
