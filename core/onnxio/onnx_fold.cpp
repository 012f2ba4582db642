#include "onnxio/onnx_fold.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnxio/onnx_flops.h"
#include "onnxio/onnx_einsum.h"
#include "onnxio/onnx_fold_eval.h"
#include "onnxio/onnx_infer.h"
#include "onnxio/onnx_shapes.h"

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
  for (const auto& d : t.tensor_type().shape().dim()) n += d.has_dim_value() && d.dim_value() >= 0 ? 1 : 0;
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

// Work the pass may spend in loop bodies and branches, all of them together (nested ones
// included): nodes run plus sequence elements copied. Past it, loops are left to inference.
constexpr int64_t kUnrollBudget = 500000;
// Sequences are followed element by element up to this many elements.
constexpr size_t kMaxSequenceElems = 4096;

// One pass over a graph's nodes in file order: each node's output types from its schema's
// inference function, given the types found so far and the values folded so far as input data;
// then the node's own value, if it is shape arithmetic. Sequences (SequenceEmpty / Construct /
// Insert / At, SplitToSequence, ConcatFromSequence) are followed element by element, a Loop
// with a constant trip count is unrolled over its body (a child Propagator per iteration that
// reads the enclosing graph's values through its parent; only while its conditions fold to
// true, and within one work budget shared by all bodies) and an If with a folded condition
// runs the branch it takes, so `torch.split` / `unbind` / shape-dependent branches in exports
// keep exact shapes.
class Propagator {
 public:
  Propagator(std::unordered_map<std::string, int> opsets, int irVersion, const Propagator* parent = nullptr)
      : opsets_(std::move(opsets)),
        irVersion_(irVersion),
        parent_(parent),
        budget_(parent != nullptr ? parent->budget_ : &ownBudget_) {}

  static std::unordered_map<std::string, int> opsetsOf(const onnx::ModelProto& model) {
    std::unordered_map<std::string, int> opsets;
    for (const auto& op : model.opset_import())
      opsets[op.domain() == "ai.onnx" ? std::string() : op.domain()] = static_cast<int>(op.version());
    if (opsets.count("") == 0 && model.opset_import_size() == 0) opsets[""] = 1;
    return opsets;
  }

  // The top-level graph: seeds from what it declares, runs, writes what it found back.
  void runModel(onnx::GraphProto& g) {
    seed(g);
    declared_ = types_;
    runNodes(g);
    writeBack(g);
  }

 private:
  struct Binding {  // a value handed to a loop body: its type, folded value, sequence elements
    onnx::TypeProto type;
    std::optional<FoldValue> value;
    std::optional<std::vector<onnx::TypeProto>> seq;
  };

  void runNodes(onnx::GraphProto& g) {
    onnx::shape_inference::ModelLocalFunctionsMap functions;
    onnx::shape_inference::GraphInferenceContext context(typePtr_, opsets_, nullptr, functions,
                                                          onnx::OpSchemaRegistry::Instance(), nullptr, irVersion_);
    const FoldInput value = [this](const std::string& name) -> const FoldValue* {
      auto it = vals_.find(name);
      return it == vals_.end() ? nullptr : &it->second;
    };
    const FoldShape shape = [this](const std::string& name) { return dimsOf(name); };
    for (auto& node : *g.mutable_node()) {
      for (const auto& in : node.input()) importFromParent(in);
      if (node.op_type() == "Loop" && unrollLoop(node)) continue;
      if (node.op_type() == "If" && takeBranch(node)) continue;
      infer(node, context);
      if (node.op_type() == "Einsum") einsumShape(node);
      sequenceOp(node);
      if (node.op_type() == "Split") {
        std::vector<FoldValue> parts = foldSplit(node, value);
        for (size_t i = 0; i < parts.size(); ++i) setValue(node.output(static_cast<int>(i)), std::move(parts[i]));
      } else if (auto v = foldNode(node, value, shape)) {
        setValue(node.output(0), std::move(*v));
      }
    }
  }

  // Takes `work` from the shared budget; false (and nothing taken) when it does not fit.
  bool charge(int64_t work) const {
    if (work > *budget_) return false;
    *budget_ -= work;
    return true;
  }

  void put(const std::string& name, const onnx::TypeProto& t) {
    onnx::TypeProto& slot = types_[name];
    slot = t;
    typePtr_[name] = &slot;
    dims_.erase(name);
  }

  void offer(const std::string& name, const onnx::TypeProto& t) {  // keeps the better type
    if (auto it = types_.find(name); it == types_.end() || better(t, it->second)) put(name, t);
  }

  void setValue(const std::string& name, FoldValue v) {
    offer(name, typeOf(v.elemType, v.dims));
    data_[name] = foldToTensor(name, v);
    dataPtr_[name] = &data_[name];
    vals_[name] = std::move(v);
  }

  // A name the graph reads from an enclosing graph (loop bodies): copied from the parent.
  void importFromParent(const std::string& name) {
    if (name.empty() || parent_ == nullptr || types_.count(name) != 0) return;
    for (const Propagator* p = parent_; p != nullptr; p = p->parent_) {
      auto t = p->types_.find(name);
      if (t == p->types_.end()) continue;
      put(name, t->second);
      if (auto v = p->vals_.find(name); v != p->vals_.end()) setValue(name, v->second);
      if (auto q = p->seqs_.find(name); q != p->seqs_.end() && charge(static_cast<int64_t>(q->second.size())))
        seqs_[name] = q->second;
      return;
    }
  }

  void seed(const onnx::GraphProto& g) {
    for (const auto& init : g.initializer()) {
      put(init.name(), typeOf(init.data_type(), {init.dims().begin(), init.dims().end()}));
      if (auto v = foldFromTensor(init)) setValue(init.name(), std::move(*v));
    }
    for (const auto& sp : g.sparse_initializer())
      put(sp.values().name(), typeOf(sp.values().data_type(), {sp.dims().begin(), sp.dims().end()}));
    for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
      for (const auto& v : *list)
        if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) offer(v.name(), v.type());
  }

  const std::vector<int64_t>* dimsOf(const std::string& name) {
    if (auto it = dims_.find(name); it != dims_.end()) return &it->second;
    auto t = types_.find(name);
    if (t == types_.end() || !fullyKnown(t->second)) return nullptr;
    std::vector<int64_t> dims;
    for (const auto& d : t->second.tensor_type().shape().dim()) dims.push_back(d.dim_value());
    return &(dims_[name] = std::move(dims));
  }

  const FoldValue* value(const onnx::NodeProto& n, int i) const {
    if (i >= n.input_size() || n.input(i).empty()) return nullptr;
    auto it = vals_.find(n.input(i));
    return it == vals_.end() ? nullptr : &it->second;
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
        offer(out, found);
      }
    } catch (...) {
      // a node inference rejects keeps its declared types
    }
  }

  // An Einsum's output shape from its equation (ONNX infers only its rank).
  void einsumShape(const onnx::NodeProto& n) {
    if (n.output_size() < 1 || n.output(0).empty() || n.input_size() < 1) return;
    std::string equation;
    for (const auto& a : n.attribute())
      if (a.name() == "equation") equation = a.s();
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& in : n.input()) {
      const std::vector<int64_t>* d = dimsOf(in);
      if (d == nullptr) return;
      shapes.push_back(*d);
    }
    const auto t = types_.find(n.input(0));
    if (t == types_.end() || !t->second.has_tensor_type()) return;
    if (auto sp = einsumSpace(equation, shapes)) offer(n.output(0), typeOf(t->second.tensor_type().elem_type(), sp->output));
  }

  // Sequence ops, element by element, when the elements are known.
  void sequenceOp(const onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    if (n.output_size() < 1 || n.output(0).empty() || (!n.domain().empty() && n.domain() != "ai.onnx")) return;
    const std::string& out = n.output(0);
    auto seqIn = [&](int i) -> const std::vector<onnx::TypeProto>* {
      if (i >= n.input_size()) return nullptr;
      auto it = seqs_.find(n.input(i));
      return it == seqs_.end() ? nullptr : &it->second;
    };
    auto position = [&](int i, size_t size, bool insert) -> std::optional<size_t> {
      const FoldValue* p = value(n, i);
      if (p == nullptr) return insert ? std::optional<size_t>(size) : std::nullopt;
      if (p->v.size() != 1 || !(std::fabs(p->v[0]) <= static_cast<double>(size))) return std::nullopt;
      auto k = static_cast<int64_t>(p->v[0]);
      const auto len = static_cast<int64_t>(size);
      if (k < 0) k += len;
      if (k < 0 || k > len || (!insert && k == len)) return std::nullopt;
      return static_cast<size_t>(k);
    };
    if (op == "SequenceEmpty") {
      seqs_[out] = {};
    } else if (op == "SequenceConstruct") {
      if (static_cast<size_t>(n.input_size()) > kMaxSequenceElems) return;
      std::vector<onnx::TypeProto> elems;
      for (const auto& in : n.input()) {
        auto t = types_.find(in);
        if (t == types_.end()) return;
        elems.push_back(t->second);
      }
      seqs_[out] = std::move(elems);
    } else if (op == "SequenceInsert") {
      const auto* s = seqIn(0);
      auto t = n.input_size() > 1 ? types_.find(n.input(1)) : types_.end();
      if (s == nullptr || t == types_.end()) return;
      const auto at = position(2, s->size(), true);
      if (!at) return;
      if (s->size() >= kMaxSequenceElems || !charge(static_cast<int64_t>(s->size()))) return;
      std::vector<onnx::TypeProto> elems = *s;
      elems.insert(elems.begin() + static_cast<std::ptrdiff_t>(*at), t->second);
      seqs_[out] = std::move(elems);
    } else if (op == "SequenceAt") {
      const auto* s = seqIn(0);
      if (s == nullptr) return;
      if (const auto at = position(1, s->size(), false)) offer(out, (*s)[*at]);
    } else if (op == "ConcatFromSequence") {
      const auto* s = seqIn(0);
      if (s == nullptr || s->empty()) return;
      const bool stack = intAttr(n, "new_axis", 0) != 0;
      std::vector<int64_t> dims;
      for (size_t k = 0; k < s->size(); ++k) {
        if (!fullyKnown((*s)[k])) return;
        std::vector<int64_t> d;
        for (const auto& x : (*s)[k].tensor_type().shape().dim()) d.push_back(x.dim_value());
        const auto rank = static_cast<int64_t>(d.size()) + (stack ? 1 : 0);
        int64_t axis = intAttr(n, "axis", 0);
        if (axis < 0) axis += rank;
        if (axis < 0 || axis >= rank) return;
        if (stack) d.insert(d.begin() + axis, 1);
        if (k == 0) dims = d;
        else if (d.size() != dims.size()) return;
        else dims[static_cast<size_t>(axis)] += d[static_cast<size_t>(axis)];
      }
      offer(out, typeOf((*s)[0].tensor_type().elem_type(), dims));
    } else if (op == "SplitToSequence") {
      const std::vector<int64_t>* d = n.input_size() > 0 ? dimsOf(n.input(0)) : nullptr;
      auto t = n.input_size() > 0 ? types_.find(n.input(0)) : types_.end();
      if (d == nullptr || t == types_.end()) return;
      const auto rank = static_cast<int64_t>(d->size());
      int64_t axis = intAttr(n, "axis", 0);
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank) return;
      const int64_t len = (*d)[static_cast<size_t>(axis)];
      if (len > static_cast<int64_t>(kMaxSequenceElems)) return;
      const bool keep = intAttr(n, "keepdims", 1) != 0;
      const bool noSplit = n.input_size() < 2 || n.input(1).empty();
      std::vector<int64_t> sizes;
      if (const FoldValue* split = value(n, 1)) {
        if (split->dims.empty()) {
          const double first = split->v.empty() ? 0 : split->v[0];
          if (!(first >= 1 && first <= static_cast<double>(len))) return;
          const auto each = static_cast<int64_t>(first);
          for (int64_t at = 0; at < len; at += each) sizes.push_back(std::min(each, len - at));
        } else {
          for (double x : split->v) {
            if (!(x >= 0 && x <= static_cast<double>(len))) return;
            sizes.push_back(static_cast<int64_t>(x));
          }
        }
      } else if (noSplit) {
        sizes.assign(static_cast<size_t>(len), 1);
      } else {
        return;
      }
      std::vector<onnx::TypeProto> elems;
      for (int64_t size : sizes) {
        std::vector<int64_t> e = *d;
        e[static_cast<size_t>(axis)] = size;
        if (noSplit && !keep) e.erase(e.begin() + axis);
        elems.push_back(typeOf(t->second.tensor_type().elem_type(), e));
      }
      seqs_[out] = std::move(elems);
    }
  }

  // A Loop with a folded trip count: its body run once per iteration over types, carried
  // values and sequences passed on; scan outputs stacked. False leaves the node to inference.
  bool unrollLoop(onnx::NodeProto& node) {
    onnx::GraphProto* body = nullptr;
    for (auto& a : *node.mutable_attribute())
      if (a.name() == "body" && a.has_g()) body = a.mutable_g();
    const FoldValue* trips = value(node, 0);
    if (body == nullptr || trips == nullptr || trips->v.size() != 1 || !(trips->v[0] >= 0) ||
        trips->v[0] > static_cast<double>(kUnrollBudget))
      return false;
    const auto iterations = static_cast<int64_t>(trips->v[0]);
    // The loop runs while its condition holds: an initial condition must be known to be true.
    if (node.input_size() > 1 && !node.input(1).empty()) {
      const FoldValue* cond = value(node, 1);
      if (cond == nullptr || cond->v.size() != 1 || cond->v[0] == 0) return false;
    }
    const int carried = node.input_size() - 2;
    const int scans = body->output_size() - 1 - carried;
    if (carried < 0 || scans < 0 || body->input_size() != carried + 2 ||
        iterations * std::max(1, body->node_size()) > *budget_)
      return false;
    std::vector<Binding> state(static_cast<size_t>(carried));
    for (int k = 0; k < carried; ++k)
      if (!take(node.input(2 + k), state[static_cast<size_t>(k)])) return false;
    std::vector<std::vector<onnx::TypeProto>> scanned(static_cast<size_t>(scans));
    for (int64_t i = 0; i < iterations; ++i) {
      if (!charge(std::max(1, body->node_size()))) return false;
      Propagator child(opsets_, irVersion_, this);
      child.seed(*body);
      child.setValue(body->input(0).name(), FoldValue{TP::INT64, {}, {static_cast<double>(i)}});
      child.setValue(body->input(1).name(), FoldValue{TP::BOOL, {}, {1}});
      for (int k = 0; k < carried; ++k) child.bind(body->input(2 + k).name(), state[static_cast<size_t>(k)]);
      child.runNodes(*body);
      for (int k = 0; k < carried; ++k)
        if (!child.take(body->output(1 + k).name(), state[static_cast<size_t>(k)])) return false;
      for (int k = 0; k < scans; ++k) {
        auto t = child.types_.find(body->output(1 + carried + k).name());
        if (t == child.types_.end()) return false;
        scanned[static_cast<size_t>(k)].push_back(t->second);
      }
      // The condition the body computes must be known: else the count of iterations is not.
      const FoldValue* cond = child.value(body->output(0).name());
      if (cond == nullptr || cond->v.size() != 1) return false;
      if (cond->v[0] == 0) break;
    }
    for (int k = 0; k < carried && k < node.output_size(); ++k) {
      const std::string& out = node.output(k);
      if (out.empty()) continue;
      bind(out, state[static_cast<size_t>(k)]);
    }
    for (int k = 0; k < scans && carried + k < node.output_size(); ++k) {
      const auto& per = scanned[static_cast<size_t>(k)];
      if (per.empty() || !fullyKnown(per[0])) continue;
      std::vector<int64_t> dims{static_cast<int64_t>(per.size())};
      for (const auto& d : per[0].tensor_type().shape().dim()) dims.push_back(d.dim_value());
      offer(node.output(carried + k), typeOf(per[0].tensor_type().elem_type(), dims));
    }
    return true;
  }

  // An If whose condition is folded: the branch it takes, run like a loop body.
  bool takeBranch(onnx::NodeProto& node) {
    const FoldValue* cond = value(node, 0);
    if (cond == nullptr || cond->v.size() != 1) return false;
    onnx::GraphProto* branch = nullptr;
    for (auto& a : *node.mutable_attribute())
      if (a.name() == (cond->v[0] != 0 ? "then_branch" : "else_branch") && a.has_g()) branch = a.mutable_g();
    if (branch == nullptr || branch->output_size() != node.output_size() || !charge(branch->node_size()))
      return false;
    Propagator child(opsets_, irVersion_, this);
    child.seed(*branch);
    child.runNodes(*branch);
    for (int k = 0; k < node.output_size(); ++k) {
      Binding b;
      if (!node.output(k).empty() && child.take(branch->output(k).name(), b)) bind(node.output(k), b);
    }
    return true;
  }

  const FoldValue* value(const std::string& name) const {
    auto it = vals_.find(name);
    return it == vals_.end() ? nullptr : &it->second;
  }

  void bind(const std::string& name, const Binding& b) {
    put(name, b.type);
    if (b.value) setValue(name, *b.value);
    if (b.seq && charge(static_cast<int64_t>(b.seq->size()))) seqs_[name] = *b.seq;
  }

  bool take(const std::string& name, Binding& b) {
    importFromParent(name);
    auto t = types_.find(name);
    if (t == types_.end()) return false;
    b.type = t->second;
    b.value.reset();
    b.seq.reset();
    if (auto v = vals_.find(name); v != vals_.end()) b.value = v->second;
    if (auto q = seqs_.find(name); q != seqs_.end() && charge(static_cast<int64_t>(q->second.size())))
      b.seq = q->second;
    return true;
  }

  // Every node output whose type the pass improved goes into value_info (or the graph output).
  void writeBack(onnx::GraphProto& g) {
    std::unordered_map<std::string, int> info, outputs;
    for (int i = 0; i < g.value_info_size(); ++i) info.emplace(g.value_info(i).name(), i);
    for (int i = 0; i < g.output_size(); ++i) outputs.emplace(g.output(i).name(), i);
    for (const auto& node : g.node())
      for (const auto& out : node.output()) {
        auto t = types_.find(out);
        if (out.empty() || t == types_.end()) continue;
        auto d = declared_.find(out);
        if (d != declared_.end() && !better(t->second, d->second)) continue;
        if (auto o = outputs.find(out); o != outputs.end()) {
          *g.mutable_output(o->second)->mutable_type() = t->second;
        } else if (auto v = info.find(out); v != info.end()) {
          *g.mutable_value_info(v->second)->mutable_type() = t->second;
        } else {
          info.emplace(out, g.value_info_size());
          onnx::ValueInfoProto* vi = g.add_value_info();
          vi->set_name(out);
          *vi->mutable_type() = t->second;
        }
      }
  }

  std::unordered_map<std::string, int> opsets_;
  int irVersion_;
  const Propagator* parent_;
  int64_t ownBudget_ = kUnrollBudget;
  int64_t* budget_;  // the root's, shared by every child
  std::unordered_map<std::string, onnx::TypeProto> types_, declared_;
  std::unordered_map<std::string, onnx::TypeProto*> typePtr_;
  std::unordered_map<std::string, std::vector<int64_t>> dims_;
  std::unordered_map<std::string, FoldValue> vals_;
  std::unordered_map<std::string, TP> data_;
  std::unordered_map<std::string, const TP*> dataPtr_;
  std::unordered_map<std::string, std::vector<onnx::TypeProto>> seqs_;
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
    Propagator(Propagator::opsetsOf(m), static_cast<int>(m.ir_version())).runModel(*m.mutable_graph());
    return std::string();
  });
  ShapeTable after;
  after.addGraph(model.graph());
  return unresolved - unresolvedCount(model.graph(), after);
}

}  // namespace gp::onnxio
