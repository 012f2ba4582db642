#include "onnxio/onnx_flops.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "graph/flops.h"
#include "onnxio/onnx_einsum.h"

namespace gp::onnxio {

namespace {

enum class Rule : uint8_t {
  Zero,
  Unary,
  Variadic,
  Conv,
  ConvInteger,
  QLinearConv,
  ConvTranspose,
  Gemm,
  MatMul,
  QLinearMatMul,
  Einsum,
  Pool,
  GlobalPool,
  BatchNorm,
  Norm,
  Lrn,
  Softmax,
  PerInput,
  PerInput2,
  Lstm,
  Gru,
  Rnn,
  Resize,
  Quantize,
};

const std::unordered_map<std::string_view, Rule>& rules() {
  static const std::unordered_map<std::string_view, Rule> table = [] {
    std::unordered_map<std::string_view, Rule> t;
    for (std::string_view op : {"Relu",
                                "LeakyRelu",
                                "PRelu",
                                "Sigmoid",
                                "HardSigmoid",
                                "HardSwish",
                                "Tanh",
                                "Elu",
                                "Selu",
                                "Celu",
                                "ThresholdedRelu",
                                "Softplus",
                                "Softsign",
                                "Mish",
                                "Exp",
                                "Log",
                                "Sqrt",
                                "Reciprocal",
                                "Abs",
                                "Neg",
                                "Ceil",
                                "Floor",
                                "Round",
                                "Sign",
                                "Erf",
                                "Sin",
                                "Cos",
                                "Tan",
                                "Asin",
                                "Acos",
                                "Atan",
                                "Sinh",
                                "Cosh",
                                "Asinh",
                                "Acosh",
                                "Atanh",
                                "Clip",
                                "Not",
                                "IsNaN",
                                "IsInf",
                                "Shrink",
                                "Add",
                                "Sub",
                                "Mul",
                                "Div",
                                "Pow",
                                "Mod",
                                "Equal",
                                "Greater",
                                "GreaterOrEqual",
                                "Less",
                                "LessOrEqual",
                                "And",
                                "Or",
                                "Xor",
                                "BitShift",
                                "Where",
                                "Gelu",
                                "BitwiseAnd",
                                "BitwiseOr",
                                "BitwiseXor",
                                "BitwiseNot"})
      t[op] = Rule::Unary;
    for (std::string_view op : {"Sum", "Max", "Min", "Mean"}) t[op] = Rule::Variadic;
    for (std::string_view op : {"MaxPool", "AveragePool", "LpPool"}) t[op] = Rule::Pool;
    for (std::string_view op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) t[op] = Rule::GlobalPool;
    for (std::string_view op : {"LayerNormalization", "InstanceNormalization", "MeanVarianceNormalization",
                                "LpNormalization", "GroupNormalization"})
      t[op] = Rule::Norm;
    for (std::string_view op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                                "ReduceLogSum", "ArgMax", "ArgMin", "TopK", "CumSum", "Hardmax"})
      t[op] = Rule::PerInput;
    for (std::string_view op : {"ReduceL2", "ReduceSumSquare", "ReduceLogSumExp"}) t[op] = Rule::PerInput2;
    t["Conv"] = Rule::Conv;
    t["ConvInteger"] = Rule::ConvInteger;
    t["QLinearConv"] = Rule::QLinearConv;
    t["ConvTranspose"] = Rule::ConvTranspose;
    t["Gemm"] = Rule::Gemm;
    t["MatMul"] = t["MatMulInteger"] = Rule::MatMul;
    t["QLinearMatMul"] = Rule::QLinearMatMul;
    t["Einsum"] = Rule::Einsum;
    t["BatchNormalization"] = Rule::BatchNorm;
    t["LRN"] = Rule::Lrn;
    t["Softmax"] = t["LogSoftmax"] = Rule::Softmax;
    t["LSTM"] = Rule::Lstm;
    t["GRU"] = Rule::Gru;
    t["RNN"] = Rule::Rnn;
    t["Resize"] = t["Upsample"] = Rule::Resize;
    t["QuantizeLinear"] = t["DequantizeLinear"] = t["DynamicQuantizeLinear"] = Rule::Quantize;
    return t;
  }();
  return table;
}

double product(const std::vector<int64_t>& v, size_t from = 0) {
  double p = 1;
  for (size_t i = from; i < v.size(); ++i) p *= static_cast<double>(v[i]);
  return p;
}

int64_t dimAt(const std::vector<int64_t>& v, size_t i) {
  return i < v.size() ? v[i] : 1;
}

// Thrown for a shape whose element count does not fit int64 (GraphBuilder rejects the tensor).
struct HugeShape {};

// Shape of input/output `name`; throws MissingShape when it is unknown.
const std::vector<int64_t>& need(const ShapeTable& shapes, const std::string& name) {
  const std::vector<int64_t>* s = name.empty() ? nullptr : shapes.shape(name);
  if (s == nullptr) throw MissingShape{name};
  if (product(*s) > 4.0e18) throw HugeShape{};
  return *s;
}

const std::string& inputName(const onnx::NodeProto& node, int i) {
  static const std::string kNone;
  return i < node.input_size() ? node.input(i) : kNone;
}

bool hasInput(const onnx::NodeProto& node, int i) {
  return i < node.input_size() && !node.input(i).empty();
}

// Output shape of an elementwise node: output 0, or the broadcast of the inputs.
std::vector<int64_t> elementwiseShape(const onnx::NodeProto& node, const ShapeTable& shapes) {
  if (node.output_size() > 0)
    if (const auto* s = shapes.shape(node.output(0))) return *s;
  std::vector<int64_t> out;
  for (const auto& in : node.input()) {
    if (in.empty()) continue;
    const auto& s = need(shapes, in);
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[out.size() - s.size() + i];
      o = std::max(o, s[i]);
    }
  }
  if (node.input_size() == 0) throw MissingShape{node.output_size() > 0 ? node.output(0) : std::string()};
  return out;
}

double convFlops(const onnx::NodeProto& node, const ShapeTable& shapes, int wIndex, int biasIndex) {
  const auto& w = need(shapes, inputName(node, wIndex));
  const auto& y = need(shapes, node.output_size() > 0 ? node.output(0) : std::string());
  return flops::conv(y, dimAt(w, 1), static_cast<int64_t>(product(w, 2)), biasIndex >= 0 && hasInput(node, biasIndex));
}

double gemmFlops(const onnx::NodeProto& node, const ShapeTable& shapes) {
  const auto& a = need(shapes, inputName(node, 0));
  const auto& b = need(shapes, inputName(node, 1));
  const bool ta = intAttr(node, "transA", 0) != 0, tb = intAttr(node, "transB", 0) != 0;
  const double m = static_cast<double>(ta ? dimAt(a, 1) : dimAt(a, 0));
  const double k = static_cast<double>(ta ? dimAt(a, 0) : dimAt(a, 1));
  const double n = static_cast<double>(tb ? dimAt(b, 0) : dimAt(b, 1));
  return 2.0 * m * n * k + (hasInput(node, 2) ? m * n : 0.0);
}

double einsumFlops(const onnx::NodeProto& node, const ShapeTable& shapes) {
  std::vector<std::vector<int64_t>> operands;
  for (int i = 0; i < node.input_size(); ++i) operands.push_back(need(shapes, inputName(node, i)));
  const std::optional<onnxio::EinsumSpace> sp = onnxio::einsumSpace(stringAttr(node, "equation"), operands);
  if (!sp) return 0;  // malformed
  double space = product(sp->ellipsis);
  for (int64_t s : sp->size)
    if (s >= 0) space *= static_cast<double>(s);
  if (sp->operands == 1) {
    std::string a = sp->inLetters, b;
    for (char c : sp->rhs)
      if (c != '.') b += c;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (sp->arrow && a == b) return 0;  // a pure transpose
    return space;
  }
  return space * sp->operands;
}

double rnnFlops(const onnx::NodeProto& node, const ShapeTable& shapes, int gates) {
  const auto& x = need(shapes, inputName(node, 0));
  const auto& w = need(shapes, inputName(node, 1));
  const bool batchFirst = intAttr(node, "layout", 0) != 0;
  const int64_t seq = batchFirst ? dimAt(x, 1) : dimAt(x, 0);
  const int64_t batch = batchFirst ? dimAt(x, 0) : dimAt(x, 1);
  const int64_t input = dimAt(x, 2);
  const int64_t hidden = intAttr(node, "hidden_size", dimAt(w, 1) / gates);
  const int64_t dirs = stringAttr(node, "direction", "forward") == "bidirectional" ? 2 : 1;
  return static_cast<double>(dirs * seq) * flops::rnnStep(batch, input, hidden, gates);
}

double resizeFlops(const onnx::NodeProto& node, const ShapeTable& shapes) {
  const std::string mode = stringAttr(node, "mode", "nearest");
  if (mode == "nearest") return 0;
  const auto& y = need(shapes, node.output_size() > 0 ? node.output(0) : std::string());
  const int rank = static_cast<int>(y.size());
  double taps = 1;
  for (int i = 2; i < rank; ++i) taps *= mode == "cubic" ? 4 : 2;
  return 2.0 * taps * product(y);
}

double ruleFlops(Rule rule, const onnx::NodeProto& node, const ShapeTable& shapes);

}  // namespace

int64_t intAttr(const onnx::NodeProto& node, const std::string& name, int64_t dflt) {
  for (const auto& a : node.attribute())
    if (a.name() == name && a.has_i()) return a.i();
  return dflt;
}

std::string stringAttr(const onnx::NodeProto& node, const std::string& name, const std::string& dflt) {
  for (const auto& a : node.attribute())
    if (a.name() == name && a.has_s()) return a.s();
  return dflt;
}

double nodeFlops(const onnx::NodeProto& node, const ShapeTable& shapes) {
  const auto& table = rules();
  auto it = table.find(node.op_type());
  if (it == table.end()) return 0;
  try {
    return ruleFlops(it->second, node, shapes);
  } catch (const HugeShape&) {
    return 0;
  }
}

namespace {

double ruleFlops(Rule rule, const onnx::NodeProto& node, const ShapeTable& shapes) {
  const std::string& in0 = inputName(node, 0);
  switch (rule) {
    case Rule::Zero:
      return 0;
    case Rule::Unary:
      return product(elementwiseShape(node, shapes));
    case Rule::Variadic: {
      int n = 0;
      for (const auto& in : node.input()) n += in.empty() ? 0 : 1;
      return product(elementwiseShape(node, shapes)) * std::max(0, n - 1);
    }
    case Rule::Conv:
      return convFlops(node, shapes, 1, 2);
    case Rule::ConvInteger:
      return convFlops(node, shapes, 1, -1);
    case Rule::QLinearConv:
      return convFlops(node, shapes, 3, 8);
    case Rule::ConvTranspose: {
      const auto& x = need(shapes, in0);
      const auto& w = need(shapes, inputName(node, 1));
      double f = 2.0 * product(x) * static_cast<double>(dimAt(w, 1)) * product(w, 2);
      if (hasInput(node, 2)) f += product(need(shapes, node.output_size() > 0 ? node.output(0) : std::string()));
      return f;
    }
    case Rule::Gemm:
      return gemmFlops(node, shapes);
    case Rule::MatMul:
      return flops::matmul(need(shapes, in0), need(shapes, inputName(node, 1)));
    case Rule::QLinearMatMul:
      return flops::matmul(need(shapes, in0), need(shapes, inputName(node, 3)));
    case Rule::Einsum:
      return einsumFlops(node, shapes);
    case Rule::Pool: {
      double kernel = 1;
      for (const auto& a : node.attribute())
        if (a.name() == "kernel_shape")
          for (int64_t k : a.ints()) kernel *= static_cast<double>(k);
      return product(need(shapes, node.output_size() > 0 ? node.output(0) : std::string())) * kernel;
    }
    case Rule::GlobalPool:
      return product(need(shapes, in0));
    case Rule::BatchNorm:
      return 2.0 * product(need(shapes, in0));
    case Rule::Norm:
      return 5.0 * product(need(shapes, in0));
    case Rule::Lrn:
      return 2.0 * static_cast<double>(intAttr(node, "size", 1)) * product(need(shapes, in0));
    case Rule::Softmax:
      return 3.0 * product(need(shapes, in0));
    case Rule::PerInput:
      return product(need(shapes, in0));
    case Rule::PerInput2:
      return 2.0 * product(need(shapes, in0));
    case Rule::Lstm:
      return rnnFlops(node, shapes, 4);
    case Rule::Gru:
      return rnnFlops(node, shapes, 3);
    case Rule::Rnn:
      return rnnFlops(node, shapes, 1);
    case Rule::Resize:
      return resizeFlops(node, shapes);
    case Rule::Quantize:
      return 2.0 * product(need(shapes, in0));
  }
  return 0;
}

}  // namespace

double estimateFlops(const onnx::NodeProto& node, const ShapeTable& shapes) {
  auto it = rules().find(node.op_type());
  if (it == rules().end() || it->second == Rule::Zero) return 0;
  auto known = [&](const std::string& name) -> const std::vector<int64_t>* {
    const auto* s = name.empty() ? nullptr : shapes.shape(name);
    return s != nullptr && product(*s) <= 4.0e18 ? s : nullptr;
  };
  double elems = 0;  // the largest known output, else the largest known input
  for (const auto& out : node.output())
    if (const auto* s = known(out)) elems = std::max(elems, product(*s));
  if (elems == 0)
    for (const auto& in : node.input())
      if (const auto* s = known(in)) elems = std::max(elems, product(*s));
  double perElem = 1;
  switch (it->second) {
    case Rule::Conv:
    case Rule::ConvInteger:
    case Rule::QLinearConv:
    case Rule::ConvTranspose: {  // 2 * (input channels per group * kernel) per output element
      const auto* w = known(inputName(node, it->second == Rule::QLinearConv ? 3 : 1));
      perElem = w != nullptr ? 2.0 * static_cast<double>(dimAt(*w, 1)) * product(*w, 2) : 2;
      break;
    }
    case Rule::Gemm:
    case Rule::MatMul:
    case Rule::QLinearMatMul:
    case Rule::Einsum: {  // 2 * the contracted size, from whichever operand is known
      const auto* a = known(inputName(node, 0));
      const auto* b = known(inputName(node, it->second == Rule::QLinearMatMul ? 3 : 1));
      double k = 1;
      if (a != nullptr && !a->empty())
        k = static_cast<double>(it->second == Rule::Gemm && intAttr(node, "transA", 0) != 0 ? (*a)[0] : a->back());
      else if (b != nullptr && b->size() >= 2)
        k = static_cast<double>(it->second == Rule::Gemm && intAttr(node, "transB", 0) != 0 ? b->back()
                                                                                            : (*b)[b->size() - 2]);
      perElem = 2.0 * k;
      break;
    }
    case Rule::BatchNorm:
    case Rule::PerInput2:
    case Rule::Quantize:
      perElem = 2;
      break;
    case Rule::Norm:
      perElem = 5;
      break;
    case Rule::Softmax:
      perElem = 3;
      break;
    default:
      break;
  }
  return elems * perElem;
}

int64_t nodeBytesRead(const onnx::NodeProto& node, const ShapeTable& shapes) {
  const std::string& op = node.op_type();
  if (op == "Shape" || op == "Size") return 0;
  if ((op == "Gather" || op == "GatherElements" || op == "GatherND") && node.output_size() > 0) {
    const TensorInfo* idx = node.input_size() > 1 ? shapes.find(node.input(1)) : nullptr;
    const TensorInfo* out = shapes.find(node.output(0));
    if (idx == nullptr || out == nullptr || !idx->shapeKnown || !out->shapeKnown) return -1;
    const int64_t a = tensorBytes(*idx), b = tensorBytes(*out);
    return a < 0 || b < 0 ? -1 : a + b;
  }
  return -1;
}

}  // namespace gp::onnxio
