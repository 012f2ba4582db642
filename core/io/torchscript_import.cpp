// TorchScript import. The module's `forward` graph is copied and inlined; every node whose
// kind is in the aten:: namespace (in blocks too: prim::If / prim::Loop bodies) becomes one
// op. Shapes come from running that graph once on zeros of the input shape: a recording
// node (graphplace::record) is inserted after every value-producing node, so what each
// value held is known even inside loops and branches, and FLOPs follow from the real
// argument shapes (torchscript_flops.h). Ops in branches that did not run keep unknown
// shapes and 0 FLOPs; ops in loop bodies count the FLOPs of all iterations.
//
// The run: module in eval mode, no grad, on the CPU; the first tensor argument of forward
// gets zeros of ImportOptions::inputShape (or of the complete tensor type recorded in the
// graph, if any), float unless it feeds an embedding's indices (then int64; the other dtype
// is tried once if the first fails); other arguments take their defaults. It costs one CPU
// inference at that shape. Edges follow values through prim nodes (lists, tuples, the If
// branches and Loop bodies that ran); a mutating op (add_, append) becomes the producer
// that later readers of its first argument depend on.
//
// Names: the module path from the inlined call stack ("layer1/0/conv1") then
// "<aten op>_<index>", index = position among the aten ops in walk order; ops of the root
// module's own forward go under "forward/". Tensors: "<op name>:<i>"; parameters and buffers
// (tensor attributes read with prim::GetAttr) by their dotted attribute path
// ("layer1.0.conv1.weight").
#include "io/torchscript_import.h"

#include <ATen/Parallel.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/runtime/custom_operator.h>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <torch/script.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>

#include "base/error.h"
#include "base/input_limits.h"
#include "io/torch_archive.h"
#include "graph/graph_builder.h"
#include "io/torchscript_flops.h"

namespace gp {
namespace {

namespace jit = torch::jit;
using ts::ArgValue;

// ---------------------------------------------------------------- values seen at run time

DType toDType(c10::ScalarType t) {
  using S = c10::ScalarType;
  // clang-format off
  static const std::unordered_map<S, DType> table = {
      {S::Float, DType::F32}, {S::Half, DType::F16},  {S::BFloat16, DType::BF16}, {S::Double, DType::F64},
      {S::Long, DType::I64},  {S::Int, DType::I32},   {S::Short, DType::I16},     {S::Char, DType::I8},
      {S::Byte, DType::U8},   {S::Bool, DType::Bool}, {S::ComplexFloat, DType::Complex64}};
  // clang-format on
  auto it = table.find(t);
  return it == table.end() ? DType::Unknown : it->second;
}

void addTensor(ArgValue& a, const at::Tensor& t) {
  a.shapes.emplace_back(t.sizes().begin(), t.sizes().end());
  a.dtypes.push_back(toDType(t.scalar_type()));
}

ArgValue toArg(const c10::IValue& v) {
  ArgValue a;
  using K = ArgValue::Kind;
  if (v.isTensor()) {
    if (v.toTensor().defined()) {
      a.kind = K::Tensor;
      addTensor(a, v.toTensor());
    }
  } else if (v.isInt()) {
    a.kind = K::Int;
    a.ints = {v.toInt()};
  } else if (v.isBool()) {
    a.kind = K::Bool;
    a.ints = {v.toBool() ? 1 : 0};
  } else if (v.isDouble()) {
    a.kind = K::Double;
    a.number = v.toDouble();
  } else if (v.isIntList()) {
    a.kind = K::IntList;
    for (int64_t i : v.toIntList()) a.ints.push_back(i);
  } else if (v.isList() || v.isTuple()) {
    // Tensor lists (also List[Optional[Tensor]] and tuples of tensors): the tensors in them.
    a.kind = K::TensorList;
    auto visit = [&](const c10::IValue& e) {
      if (e.isTensor() && e.toTensor().defined()) addTensor(a, e.toTensor());
    };
    if (v.isList()) {
      for (const c10::IValue& e : v.toListRef()) visit(e);
    } else {
      for (const c10::IValue& e : v.toTupleRef().elements()) visit(e);
    }
    if (a.shapes.empty()) a.kind = K::Other;
  } else if (!v.isNone()) {
    a.kind = K::Other;
  }
  return a;
}

// What the recording op saw: the last value of each instrumented jit::Value and how often
// it was produced (loop bodies run many times).
struct Recording {
  std::vector<ArgValue> values;
  std::vector<int64_t> counts;
};
thread_local Recording* tlsRecording = nullptr;

c10::Symbol recordSymbol() {
  static const c10::Symbol s = c10::Symbol::fromQualString("graphplace::record");
  return s;
}

void registerRecordOp() {
  // CONSERVATIVE aliasing marks the op as having side effects, so nothing removes it.
  static const jit::RegisterOperators reg({jit::Operator(
      "graphplace::record(Any x, int id) -> ()",
      [](jit::Stack& stack) {
        const int64_t id = stack.back().toInt();
        stack.pop_back();
        if (Recording* r = tlsRecording; r && id >= 0 && id < static_cast<int64_t>(r->values.size())) {
          r->values[id] = toArg(stack.back());
          ++r->counts[id];
        }
        stack.pop_back();
      },
      c10::AliasAnalysisKind::CONSERVATIVE)});
}

// One line out of a LibTorch error message: the interpreter's "RuntimeError: ..." line when
// there is one, else the first non-empty line.
std::string oneLine(const std::string& msg) {
  std::string_view m = msg;
  if (auto at = m.rfind("Error: ");
      at != std::string_view::npos && m.find("Traceback") != std::string_view::npos)
    m.remove_prefix(at + 7);
  while (!m.empty() && (m.front() == '\n' || m.front() == ' ')) m.remove_prefix(1);
  m = m.substr(0, m.find('\n'));
  if (m.ends_with(" here:")) m.remove_suffix(6);  // the compiler's "... found '(' here:" + source
  while (!m.empty() && (m.back() == ':' || m.back() == ' ')) m.remove_suffix(1);
  return std::string(m.substr(0, 300));
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t;
  for (int64_t d : s) t += (t.empty() ? "" : "x") + std::to_string(d);
  return t.empty() ? "scalar" : t;
}

// ---------------------------------------------------------------- loading

jit::Module loadModule(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(path, "no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(path, "is a directory, not a TorchScript file");
  checkTorchArchive(path);
  try {
    return jit::load(path, c10::Device(c10::kCPU));
  } catch (const c10::Error& e) {
    throw Error(path, "not a readable TorchScript archive (" + oneLine(e.what_without_backtrace()) + ")");
  } catch (const std::exception& e) {
    throw Error(path, "not a readable TorchScript archive (" + oneLine(e.what()) + ")");
  }
}

// ---------------------------------------------------------------- the importer

class TorchScriptImporter {
 public:
  TorchScriptImporter(std::string path, jit::Module module, const ImportOptions& options)
      : path_(std::move(path)), module_(std::move(module)), options_(options), b_(path_) {}

  Graph run();

 private:
  void prepareGraph(const jit::Method& forward);
  void collect(jit::Block* block);
  void instrument();
  std::vector<c10::IValue> makeInputs(const jit::Method& forward, c10::ScalarType dtype);
  c10::ScalarType guessInputDType() const;
  void execute(const jit::Method& forward);

  const std::string& scopeOf(const jit::Node* node);
  std::optional<std::string> moduleOfValue(const jit::Value* v, int depth) const;
  std::optional<std::pair<std::string, c10::IValue>> attributeOf(const jit::Value* v) const;
  std::vector<TensorId> sources(const jit::Value* v);
  std::vector<TensorId> computeSources(const jit::Value* v);
  ArgValue argOf(const jit::Value* v) const;
  int64_t runsOf(const jit::Node* node) const;
  int64_t runsOf(const jit::Block* block) const;
  void addGraphInputs();
  void walk(jit::Block* block);
  void addOp(jit::Node* node);

  std::string path_;
  jit::Module module_;
  const ImportOptions& options_;
  GraphBuilder b_;
  std::shared_ptr<jit::Graph> graph_;
  std::vector<jit::Node*> nodes_;                            // non-constant nodes, walk order
  std::unordered_map<const jit::Value*, int64_t> valueIds_;  // instrumented values
  std::unordered_map<const jit::Block*, int64_t> blockIds_;  // If/Loop blocks (after values)
  std::vector<c10::IValue> inputs_;                          // what forward ran on (no self)
  std::vector<std::string> inputNames_;                      // forward's argument names
  Recording rec_;
  std::unordered_map<const jit::Value*, std::vector<TensorId>> sources_;
  std::unordered_map<const jit::Value*, TensorId> writtenBy_;  // in-place / mutating ops
  std::unordered_map<std::string, TensorId> params_;
  std::unordered_map<const jit::Node*, OpId> opOf_;
  std::unordered_map<const jit::Node*, std::string> scopes_;
  int32_t atenIndex_ = 0;
};

// The graph a call runs, as jit::Inline finds it; nullptr for a call it would not inline.
jit::Graph* calleeGraph(const jit::Node* n) {
  jit::Function* f = nullptr;
  if (n->kind() == c10::prim::CallFunction) {
    if (auto type = n->input(0)->type()->cast<c10::FunctionType>()) f = type->function();
  } else if (n->kind() == c10::prim::CallMethod) {
    if (auto cls = n->input(0)->type()->cast<c10::ClassType>()) f = cls->findMethod(n->s(c10::attr::name));
  }
  jit::GraphFunction* g = f ? jit::tryToGraphFunction(*f) : nullptr;
  return g ? g->graph().get() : nullptr;
}

constexpr int kMaxCallDepth = 1000;

// How many nodes `block` has once every call in it is inlined, counted without inlining (each
// function once), saturating just above `cap`: a module whose functions call each other in a
// deep tree would otherwise grow exponentially inside jit::Inline before the op limit sees it.
// Calls nested deeper than kMaxCallDepth (which would overflow the stack here and in
// jit::Inline) are an error.
int64_t inlinedNodes(const std::string& path, const jit::Block* block,
                     std::unordered_map<const jit::Graph*, int64_t>& memo, int64_t cap, int depth = 0) {
  if (depth > kMaxCallDepth)
    throw Error(path, "forward nests calls and blocks more than " + std::to_string(kMaxCallDepth) + " deep");
  int64_t total = 0;
  for (const jit::Node* n : block->nodes()) {
    int64_t size = 1;
    if (jit::Graph* callee = calleeGraph(n)) {
      auto [it, added] = memo.try_emplace(callee, cap + 1);  // a cycle counts as over the cap
      if (added) it->second = inlinedNodes(path, callee->block(), memo, cap, depth + 1);
      size = it->second;
    }
    for (const jit::Block* sub : n->blocks())
      size = std::min(cap + 1, size + inlinedNodes(path, sub, memo, cap, depth + 1));
    total = std::min(cap + 1, total + size);
  }
  return total;
}

void TorchScriptImporter::prepareGraph(const jit::Method& forward) {
  graph_ = forward.graph()->copy();
  std::unordered_map<const jit::Graph*, int64_t> memo;
  const int64_t inlined = inlinedNodes(path_, graph_->block(), memo, maxModelOps());
  if (inlined > maxModelOps())
    throw Error(path_, "forward would have more than " + std::to_string(maxModelOps()) +
                           " nodes once its calls are inlined, over the limit (" + maxOpsHint() + ")");
  jit::Inline(*graph_);
  collect(graph_->block());
  checkModelOps(path_, static_cast<int64_t>(nodes_.size()), "nodes");
}

void TorchScriptImporter::collect(jit::Block* block) {
  for (jit::Node* n : block->nodes()) {
    if (n->kind() == c10::prim::Constant) continue;
    nodes_.push_back(n);
    for (const jit::Value* o : n->outputs()) valueIds_.emplace(o, static_cast<int64_t>(valueIds_.size()));
    for (jit::Block* sub : n->blocks()) collect(sub);
  }
}

// A graphplace::record(value, id) after every node, for each of its outputs.
void TorchScriptImporter::instrument() {
  registerRecordOp();
  auto record = [&](jit::Value* v, int64_t id) {
    jit::Node* rec = graph_->create(recordSymbol(), 0);
    if (v) rec->addInput(v);
    return std::make_pair(rec, id);
  };
  auto finish = [&](std::pair<jit::Node*, int64_t> r) {
    jit::WithInsertPoint guard(r.first);
    jit::Value* id = graph_->insertConstant(r.second);
    if (r.first->inputs().empty()) r.first->addInput(id);  // a block marker records its own id
    r.first->addInput(id);
  };
  for (jit::Node* n : nodes_) {
    jit::Node* after = n;
    for (jit::Value* o : n->outputs()) {
      auto r = record(o, valueIds_.at(o));
      r.first->insertAfter(after);
      finish(r);
      after = r.first;
    }
    // Which If branches and Loop bodies ran: a marker at the start of each block.
    if (n->kind() == c10::prim::If || n->kind() == c10::prim::Loop) {
      for (jit::Block* blk : n->blocks()) {
        const auto id = static_cast<int64_t>(valueIds_.size() + blockIds_.size());
        blockIds_.emplace(blk, id);
        auto r = record(nullptr, id);
        blk->prependNode(r.first);
        finish(r);
      }
    }
  }
}

// Token ids: an input that feeds an embedding's index argument is an integer tensor.
c10::ScalarType TorchScriptImporter::guessInputDType() const {
  if (graph_->inputs().size() < 2) return c10::kFloat;
  for (const jit::Use& u : graph_->inputs()[1]->uses()) {
    const c10::Symbol k = u.user->kind();
    if ((k == c10::aten::embedding || k == c10::aten::embedding_bag) && u.offset == 1) return c10::kLong;
    if (k == c10::aten::one_hot && u.offset == 0) return c10::kLong;
  }
  return c10::kFloat;
}

std::vector<c10::IValue> TorchScriptImporter::makeInputs(const jit::Method& forward, c10::ScalarType dtype) {
  const auto& args = forward.function().getSchema().arguments();
  std::vector<c10::IValue> in;
  bool fedTensor = false;
  inputNames_.clear();
  for (size_t i = 1; i < args.size(); ++i) {
    const c10::Argument& a = args[i];
    inputNames_.push_back(a.name());
    const bool isTensor = a.type()->kind() == c10::TypeKind::TensorType;
    if (isTensor && !fedTensor) {
      std::vector<int64_t> shape = options_.inputShape;
      c10::ScalarType t = dtype;
      if (shape.empty() && i < graph_->inputs().size()) {
        // Recorded in the graph (a module traced and kept with complete tensor types).
        if (auto tt = graph_->inputs()[i]->type()->cast<c10::TensorType>()) {
          if (auto sizes = tt->sizes().concrete_sizes()) shape = *sizes;
          if (tt->scalarType()) t = *tt->scalarType();
        }
      }
      if (shape.empty()) throw Error(path_, "input shape unknown; pass --input-shape, e.g. 1x3x224x224");
      in.emplace_back(at::zeros(shape, at::TensorOptions().dtype(t)));
      fedTensor = true;
    } else if (a.default_value()) {
      in.push_back(*a.default_value());
    } else if (a.type()->kind() == c10::TypeKind::OptionalType) {
      in.emplace_back();
    } else {
      throw Error(path_, "forward argument '" + a.name() + "' (" + a.type()->annotation_str() +
                             ") needs a value; graphplace feeds only one tensor input");
    }
  }
  return in;
}

void TorchScriptImporter::execute(const jit::Method& forward) {
  instrument();
  jit::Code code(graph_, "forward");
  const c10::ScalarType first = guessInputDType();
  std::string firstError;
  for (c10::ScalarType dtype : {first, first == c10::kFloat ? c10::kLong : c10::kFloat}) {
    inputs_ = makeInputs(forward, dtype);
    rec_.values.assign(valueIds_.size() + blockIds_.size(), ArgValue{});
    rec_.counts.assign(valueIds_.size() + blockIds_.size(), 0);
    jit::Stack stack;
    stack.push_back(module_._ivalue());
    stack.insert(stack.end(), inputs_.begin(), inputs_.end());
    try {
      tlsRecording = &rec_;
      jit::InterpreterState(code).run(stack);
      tlsRecording = nullptr;
      return;
    } catch (const c10::Error& e) {
      tlsRecording = nullptr;
      if (firstError.empty()) firstError = oneLine(e.what_without_backtrace());
    } catch (const std::exception& e) {
      tlsRecording = nullptr;
      if (firstError.empty()) firstError = oneLine(e.what());
    }
  }
  std::string shape = options_.inputShape.empty() ? "recorded" : shapeText(options_.inputShape);
  throw Error(path_, "running forward on a " + shape + " input failed: " + firstError);
}

// Module instance names along the node's inlined call stack ("layer1/0/conv1").
std::optional<std::string> callStackScope(const jit::Node* node) {
  auto cs = node->callstack();
  if (!cs) return std::nullopt;
  std::optional<std::string> scope;
  for (const jit::InlinedCallStackEntry& e : (*cs)->vec()) {
    const auto& info = std::get<2>(e);
    if (!info) continue;
    std::string name = info->instance_name();
    if (name.empty() || name == "SELF" || name == "INSTANCE_NAME_UNKNOWN") {
      if (!scope) scope = "";
      continue;
    }
    scope = scope && !scope->empty() ? *scope + "/" + name : name;
  }
  return scope;
}

// The module a node belongs to. LibTorch 1.13 keeps the inlined call stack on most nodes,
// but nodes inside If/Loop bodies (and some If nodes) lose its outer frames. Those take the
// scope of their block's owner; a top-level node without one takes the module whose
// attributes it reads (`self.training`, `self.num_batches_tracked`), and an If / Loop the
// scope of the node that computed its condition.
const std::string& TorchScriptImporter::scopeOf(const jit::Node* node) {
  if (auto it = scopes_.find(node); it != scopes_.end()) return it->second;
  std::optional<std::string> own = callStackScope(node);
  std::string scope;
  if (const jit::Node* owner = node->owningBlock()->owningNode()) {
    scope = scopeOf(owner);
    if (own && !own->empty() && *own != scope && !own->starts_with(scope + "/"))
      scope = scope.empty() ? *own : scope + "/" + *own;
  } else if (own) {
    scope = *own;
  } else if (auto s = std::find_if(node->inputs().begin(), node->inputs().end(),
                                   [&](const jit::Value* in) { return moduleOfValue(in, 0).has_value(); });
             s != node->inputs().end()) {
    scope = *moduleOfValue(*s, 0);
  } else if ((node->kind() == c10::prim::If || node->kind() == c10::prim::Loop) && !node->inputs().empty()) {
    // The condition is computed just before, in the same function.
    const jit::Node* cond = node->inputs().back()->node();
    if (cond->kind() != c10::prim::Param && cond->kind() != c10::prim::Constant) scope = scopeOf(cond);
  }
  return scopes_.emplace(node, std::move(scope)).first->second;
}

// The module path ("layer1/0/bn1") of the object whose attribute a value reads, looking
// back through a few prim nodes (not through aten ops).
std::optional<std::string> TorchScriptImporter::moduleOfValue(const jit::Value* v, int depth) const {
  const jit::Node* n = v->node();
  if (n->kind() == c10::prim::GetAttr) {
    auto owner = attributeOf(n->input(0));
    if (!owner || !owner->second.isObject()) return std::nullopt;
    std::string path = owner->first;
    std::replace(path.begin(), path.end(), '.', '/');
    return path;
  }
  if (depth >= 4 || n->kind().is_aten() || n->kind() == c10::prim::Param) return std::nullopt;
  for (const jit::Value* in : n->inputs())
    if (auto s = moduleOfValue(in, depth + 1)) return s;
  return std::nullopt;
}

// The module attribute a value reads (a prim::GetAttr chain from `self`): dotted path and value.
std::optional<std::pair<std::string, c10::IValue>> TorchScriptImporter::attributeOf(
    const jit::Value* v) const {
  if (v == graph_->inputs()[0]) return std::make_pair(std::string(), module_._ivalue());
  const jit::Node* n = v->node();
  if (n->kind() != c10::prim::GetAttr) return std::nullopt;
  auto parent = attributeOf(n->input(0));
  if (!parent || !parent->second.isObject()) return std::nullopt;
  const auto obj = parent->second.toObject();
  const std::string& name = n->s(c10::attr::name);
  auto slot = obj->type()->findAttributeSlot(name);
  if (!slot) return std::nullopt;
  return std::make_pair(parent->first.empty() ? name : parent->first + "." + name, obj->getSlot(*slot));
}

std::vector<TensorId> TorchScriptImporter::sources(const jit::Value* v) {
  if (auto w = writtenBy_.find(v); w != writtenBy_.end()) return {w->second};
  auto it = sources_.find(v);
  if (it != sources_.end()) return it->second;
  std::vector<TensorId> s = computeSources(v);
  sources_.emplace(v, s);
  return s;
}

// The tensors a value carries data from: the aten op that made it, graph inputs and
// parameters; through prim nodes (lists, tuples, casts, If/Loop results) to their inputs.
std::vector<TensorId> TorchScriptImporter::computeSources(const jit::Value* v) {
  std::vector<TensorId> out;
  auto add = [&](const std::vector<TensorId>& s) {
    for (TensorId t : s)
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  const jit::Node* n = v->node();
  const c10::Symbol k = n->kind();
  if (k == c10::prim::Param) {
    if (n->owningBlock() == graph_->block()) return out;  // graph inputs are pre-registered
    const jit::Node* owner = n->owningBlock()->owningNode();
    // Loop body inputs: (iteration, carried...) <- loop inputs (max trips, cond, initial...).
    if (owner && owner->kind() == c10::prim::Loop && v->offset() >= 1)
      add(sources(owner->input(v->offset() + 1)));
    return out;
  }
  if (k == c10::prim::Constant) return out;
  if (auto op = opOf_.find(n); op != opOf_.end())
    return {b_.output(op->second, static_cast<int>(v->offset()))};
  if (k == c10::prim::GetAttr) {
    auto attr = attributeOf(v);
    if (!attr) return out;
    auto param = [&](const std::string& name, const at::Tensor& t) {
      auto [it, isNew] = params_.emplace(name, kNone);
      if (isNew) {
        std::vector<int64_t> shape(t.sizes().begin(), t.sizes().end());
        it->second = b_.addParameter({name, std::move(shape), toDType(t.scalar_type())});
      }
      out.push_back(it->second);
    };
    const c10::IValue& val = attr->second;
    if (val.isTensor() && val.toTensor().defined()) param(attr->first, val.toTensor());
    if (val.isList()) {
      const auto& list = val.toListRef();
      for (size_t i = 0; i < list.size(); ++i)
        if (list[i].isTensor() && list[i].toTensor().defined())
          param(attr->first + "." + std::to_string(i), list[i].toTensor());
    }
    return out;
  }
  if (k == c10::prim::If) {
    // The branches that ran; all of them when the If never ran.
    const bool ran =
        std::any_of(n->blocks().begin(), n->blocks().end(), [&](auto* b) { return runsOf(b) > 0; });
    for (const jit::Block* blk : n->blocks())
      if (!ran || runsOf(blk) > 0) add(sources(blk->outputs()[v->offset()]));
    return out;
  }
  if (k == c10::prim::Loop) {
    // After one iteration or more the result is the body's; else the initial value.
    const jit::Block* body = n->blocks()[0];
    if (runsOf(body) == 0) add(sources(n->input(v->offset() + 2)));
    if (runsOf(body) > 0 || runsOf(n) == 0) add(sources(body->outputs()[v->offset() + 1]));
    return out;
  }
  for (const jit::Value* in : n->inputs()) add(sources(in));
  return out;
}

ArgValue TorchScriptImporter::argOf(const jit::Value* v) const {
  if (v->node()->kind() == c10::prim::Constant) {
    auto iv = jit::toIValue(v);
    return iv ? toArg(*iv) : ArgValue{};
  }
  if (v->node()->kind() == c10::prim::Param && v->node()->owningBlock() == graph_->block()) {
    const size_t i = v->offset();
    return i >= 1 && i - 1 < inputs_.size() ? toArg(inputs_[i - 1]) : ArgValue{};
  }
  auto it = valueIds_.find(v);
  return it == valueIds_.end() ? ArgValue{} : rec_.values[it->second];
}

int64_t TorchScriptImporter::runsOf(const jit::Node* node) const {
  if (node->outputs().empty()) return 0;
  return rec_.counts[valueIds_.at(node->outputs()[0])];
}

int64_t TorchScriptImporter::runsOf(const jit::Block* block) const {
  auto it = blockIds_.find(block);
  return it == blockIds_.end() ? 0 : rec_.counts[it->second];
}

void TorchScriptImporter::addGraphInputs() {
  const auto& args = graph_->inputs();
  for (size_t i = 1; i < args.size(); ++i) {
    TensorDesc d;
    d.name = i - 1 < inputNames_.size() ? inputNames_[i - 1] : args[i]->debugName();
    if (i - 1 < inputs_.size()) {
      ArgValue a = toArg(inputs_[i - 1]);
      if (a.isTensor()) {
        d.shape = a.shapes.front();
        d.dtype = a.dtypes.front();
      } else {
        d.shapeKnown = false;
        d.dtype = DType::Unknown;
      }
    }
    sources_[args[i]] = {b_.addGraphInput(std::move(d))};
  }
}

void TorchScriptImporter::walk(jit::Block* block) {
  for (jit::Node* n : block->nodes()) {
    if (n->kind() == recordSymbol()) continue;
    if (n->kind().is_aten()) addOp(n);
    for (jit::Block* sub : n->blocks()) walk(sub);
  }
}

void TorchScriptImporter::addOp(jit::Node* node) {
  const std::string scope = scopeOf(node);
  OpDesc op;
  op.type = node->kind().toQualString();
  op.name = (scope.empty() ? std::string("forward") : scope) + "/" + node->kind().toUnqualString() + "_" +
            std::to_string(atenIndex_++);
  std::vector<ArgValue> args, results;
  for (const jit::Value* in : node->inputs()) {
    for (TensorId t : sources(in))
      if (std::find(op.inputs.begin(), op.inputs.end(), t) == op.inputs.end()) op.inputs.push_back(t);
    args.push_back(argOf(in));
  }
  const int64_t runs = runsOf(node);
  for (const jit::Value* o : node->outputs()) {
    ArgValue a = runs > 0 ? argOf(o) : ArgValue{};
    op.outputs.push_back(ts::resultTensor(a));
    results.push_back(std::move(a));
  }
  op.flops =
      runs > 0 ? ts::atenFlops(node->kind().toUnqualString(), args, results) * static_cast<double>(runs) : 0;
  const OpId id = b_.addOp(std::move(op));
  opOf_.emplace(node, id);
  // A mutating op (add_, append, copy_, ...): later readers of its first input read its result.
  if (const c10::FunctionSchema* schema = node->maybeSchema();
      schema && !schema->arguments().empty() && !node->inputs().empty() && !node->outputs().empty()) {
    const auto* alias = schema->arguments()[0].alias_info();
    if (alias && alias->isWrite() && runs > 0) writtenBy_[node->input(0)] = b_.output(id, 0);
  }
}

Graph TorchScriptImporter::run() {
  auto forward = module_.find_method("forward");
  if (!forward) throw Error(path_, "the module has no forward method");
  module_.eval();
  try {
    prepareGraph(*forward);
  } catch (const c10::Error& e) {
    throw Error(path_, "cannot inline forward: " + oneLine(e.what_without_backtrace()));
  }
  execute(*forward);
  addGraphInputs();
  walk(graph_->block());
  return std::move(b_).build(std::filesystem::path(path_).stem().string());
}

// LibTorch warnings (deprecations and the like) are not for our users' stderr.
class SilentWarnings : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
};

}  // namespace

Graph importTorchScript(const std::string& path, const ImportOptions& options) {
  SilentWarnings silent;
  c10::Warning::WarningHandlerGuard warnings(&silent);
  torch::NoGradGuard noGrad;
  if (options.threads > 0) {
    at::set_num_threads(options.threads);
  } else {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (at::get_num_threads() < cores) at::set_num_threads(cores);
  }
  jit::Module module = loadModule(path);
  try {
    return TorchScriptImporter(path, std::move(module), options).run();
  } catch (const c10::Error& e) {
    throw Error(path, oneLine(e.what_without_backtrace()));
  }
}

}  // namespace gp
