#include "graph/training.h"

#include <algorithm>

#include "base/error.h"
#include "graph/graph_builder.h"

namespace gp {
namespace {

bool isFloat(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 || t == DType::F64 || t == DType::F8 ||
         t == DType::Unknown;
}

constexpr size_t kMaxSavedOperands = 4;       // see addBackwardOf

// Ops whose gradient is computed from their output (relu_grad(dy, y), sigmoid: dy*y*(1-y), ...).
bool savesOutput(std::string_view type) {
  for (std::string_view t : {"Relu", "Relu6", "Sigmoid", "Tanh", "Elu", "Selu", "Softmax", "Exp", "Sqrt", "Rsqrt",
                             "aten::relu", "aten::relu_", "aten::sigmoid", "aten::tanh", "aten::softmax"})
    if (type == t) return true;
  return false;
}
constexpr double kAdamFlopsPerElement = 10;  // two moment updates, bias correction, step
constexpr double kLossFlopsPerElement = 3;   // softmax cross-entropy style reduction

class TrainingDeriver {
 public:
  explicit TrainingDeriver(const Graph& f) : f_(f), b_(f.name()) {}

  Graph run() {
    for (OpId op = 0; op < f_.numOps(); ++op)
      if (f_.role(op) != OpRole::Forward) throw Error(f_.name(), "the graph already has backward ops");
    markRequiresGrad();
    copyForward();
    addLoss();
    addBackward();
    addUpdates();
    b_.setSymbolicDims(f_.symbolicDims());
    return std::move(b_).build(f_.name());
  }

 private:
  // An op name free for a new op, and its auto-named outputs "<name>:0" free too.
  std::string unique(std::string name) const {
    auto isFree = [&](const std::string& n) { return !b_.hasOp(n) && !b_.hasTensor(n + ":0"); };
    if (isFree(name)) return name;
    for (int k = 1;; ++k) {
      std::string n = name + "_" + std::to_string(k);
      if (isFree(n)) return n;
    }
  }

  // requires_[t]: gradients flow into tensor t (a float parameter, or a float activation that
  // depends on one). A graph without parameters (DOT) treats input-less ops as variables.
  void markRequiresGrad() {
    bool anyParam = false;
    for (TensorId t = 0; t < f_.numTensors(); ++t) anyParam |= f_.tensorKind(t) == TensorKind::Parameter;
    requires_.assign(f_.numTensors(), 0);
    for (TensorId t = 0; t < f_.numTensors(); ++t)
      requires_[t] = f_.tensorKind(t) == TensorKind::Parameter && isFloat(f_.dtype(t));
    for (OpId op : f_.topoOrder()) {
      bool in = f_.inputs(op).empty() && !anyParam;
      for (TensorId t : f_.inputs(op)) in |= requires_[t] != 0;
      if (!in) continue;
      for (TensorId t : f_.outputs(op)) requires_[t] = isFloat(f_.dtype(t));
    }
  }

  TensorDesc descOf(TensorId t, std::string name) const {
    TensorDesc d;
    d.name = std::move(name);
    d.dtype = f_.dtype(t);
    d.shapeKnown = f_.hasShape(t);
    if (d.shapeKnown) d.shape.assign(f_.shape(t).begin(), f_.shape(t).end());
    d.bytes = f_.tensorBytes(t);
    return d;
  }

  void copyForward() {
    // Each op owning a parameter is colocated with its parameters' update ops.
    ownerGroup_.assign(f_.numOps(), std::string());
    for (TensorId t = 0; t < f_.numTensors(); ++t) {
      if (f_.tensorKind(t) != TensorKind::Parameter || f_.consumers(t).empty()) continue;
      OpId owner = f_.consumers(t)[0];
      if (ownerGroup_[owner].empty())
        ownerGroup_[owner] = f_.colocGroup(owner) != kNone ? f_.colocGroupNames()[f_.colocGroup(owner)]
                                                           : "params/" + f_.opName(owner);
    }
    for (TensorId t = 0; t < f_.numTensors(); ++t) {
      if (f_.tensorKind(t) == TensorKind::GraphInput) b_.addGraphInput(descOf(t, f_.tensorName(t)));
      else if (f_.tensorKind(t) == TensorKind::Parameter) b_.addParameter(descOf(t, f_.tensorName(t)));
      else b_.tensorRef(f_.tensorName(t));  // same ids, resolved by the producing op below
    }
    for (OpId op = 0; op < f_.numOps(); ++op) {
      OpDesc d;
      d.name = f_.opName(op);
      d.type = std::string(f_.opType(op));
      d.inputs.assign(f_.inputs(op).begin(), f_.inputs(op).end());  // tensor ids are preserved
      for (TensorId t : f_.outputs(op)) d.outputs.push_back(descOf(t, f_.tensorName(t)));
      d.flops = f_.flops(op);
      d.bytesRead = f_.bytesRead(op);
      d.bytesWritten = f_.bytesWritten(op);
      d.paramBytes = f_.paramBytes(op);
      d.colocGroup = !ownerGroup_[op].empty() ? ownerGroup_[op]
                     : f_.colocGroup(op) != kNone ? f_.colocGroupNames()[f_.colocGroup(op)] : std::string();
      d.device = f_.requestedDevice(op);
      d.costEstimated = f_.costEstimated(op);
      b_.addOp(std::move(d));
    }
  }

  void addLoss() {
    OpDesc loss;
    loss.name = unique("loss/Loss");
    loss.type = "Loss";
    double elems = 0;
    for (OpId op = 0; op < f_.numOps(); ++op) {
      if (!f_.fanOut(op).empty()) continue;
      for (TensorId t : f_.outputs(op))
        if (requires_[t] && f_.consumers(t).empty()) {
          loss.inputs.push_back(t);
          elems += f_.hasShape(t) ? static_cast<double>(f_.tensorBytes(t)) / std::max(1, dtypeSize(f_.dtype(t))) : 0;
        }
    }
    if (loss.inputs.empty())
      throw Error(f_.name(), "cannot derive a training step: no output depends on a trainable tensor");
    loss.flops = kLossFlopsPerElement * elems;
    loss.outputs.push_back(TensorDesc{"", {}, DType::F32, true, -1});
    lossInputs_ = loss.inputs;
    lossName_ = loss.name;
    lossFlops_ = loss.flops;
    lossOp_ = b_.addOp(std::move(loss));
  }

  // Gradient contributions per forward tensor, accumulated with AddN when there are several.
  TensorId gradientOf(TensorId t, OpId producerForNaming) {
    auto& parts = contributions_[t];
    if (parts.empty()) return kNone;
    if (parts.size() == 1) return parts[0];
    OpDesc add;
    add.name = unique("gradients/" + (producerForNaming != kNone ? f_.opName(producerForNaming) : f_.tensorName(t)) +
                      "_grad/AddN");
    add.type = "AddN";
    add.inputs = parts;
    const double n = f_.hasShape(t) ? static_cast<double>(f_.tensorBytes(t)) / std::max(1, dtypeSize(f_.dtype(t))) : 0;
    add.flops = static_cast<double>(parts.size() - 1) * n;
    add.outputs.push_back(descOf(t, ""));
    add.role = OpRole::Backward;
    add.forwardOf = producerForNaming;
    OpId id = b_.addOp(std::move(add));
    parts.assign(1, b_.output(id));
    return parts[0];
  }

  // Gradient op(s) of one forward op: one per distinct input that needs a gradient, together
  // about twice the forward FLOPs; each reads the output gradients and the op's other inputs
  // (saved activations and weights), so those stay live until the backward pass.
  void addBackwardOf(std::span<const TensorId> ins, std::string_view type, OpId forwardOp,
                     const std::vector<TensorId>& gradOuts, const std::string& name, double forwardFlops) {
    std::vector<TensorId> distinct;
    for (TensorId t : ins)
      if (std::find(distinct.begin(), distinct.end(), t) == distinct.end()) distinct.push_back(t);
    std::vector<TensorId> targets;
    for (TensorId t : distinct)
      if (requires_[t]) targets.push_back(t);
    if (targets.empty()) return;
    const double flopsEach = 2.0 * forwardFlops / static_cast<double>(targets.size());
    for (size_t k = 0; k < targets.size(); ++k) {
      TensorId x = targets[k];
      OpDesc g;
      g.name = unique("gradients/" + name + "_grad" + (targets.size() > 1 ? "/d" + std::to_string(k) : ""));
      g.type = std::string(type) + "Grad";
      g.inputs = gradOuts;
      // Ops like MatMul/Conv/Mul need their other operands (saved activations, weights) for
      // a gradient; wide ops (Concat, AddN, ...) only route the output gradient.
      // Activations whose derivative is a function of their output save the output instead
      // (as TensorFlow's and PyTorch's gradients do), so their input may be overwritten.
      if (forwardOp != kNone && forwardOp < f_.numOps() && savesOutput(type) && f_.outputs(forwardOp).size() == 1)
        g.inputs.push_back(f_.outputs(forwardOp)[0]);
      else if (distinct.size() <= kMaxSavedOperands)
        for (TensorId t : distinct)
          if (t != x || distinct.size() == 1) g.inputs.push_back(t);
      g.outputs.push_back(descOf(x, ""));
      g.flops = flopsEach;
      g.role = OpRole::Backward;
      g.forwardOf = forwardOp;
      g.costEstimated = forwardOp != kNone && forwardOp < f_.numOps() && f_.costEstimated(forwardOp);
      OpId id = b_.addOp(std::move(g));
      contributions_[x].push_back(b_.output(id));
    }
  }

  void addBackward() {
    contributions_.assign(f_.numTensors(), {});
    addBackwardOf(lossInputs_, "Loss", lossOp_, {}, lossName_, lossFlops_);
    auto topo = f_.topoOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      OpId op = *it;
      std::vector<TensorId> gradOuts;
      for (TensorId t : f_.outputs(op)) {
        TensorId g = gradientOf(t, op);
        if (g != kNone) gradOuts.push_back(g);
      }
      if (gradOuts.empty()) continue;
      addBackwardOf(f_.inputs(op), f_.opType(op), op, gradOuts, f_.opName(op), f_.flops(op));
    }
  }

  void addUpdates() {
    for (TensorId p = 0; p < f_.numTensors(); ++p) {
      if (f_.tensorKind(p) != TensorKind::Parameter || f_.consumers(p).empty()) continue;
      TensorId g = gradientOf(p, kNone);
      if (g == kNone) continue;
      OpId owner = f_.consumers(p)[0];
      OpDesc u;
      u.name = unique("update/" + f_.tensorName(p) + "/ApplyAdam");
      u.type = "ApplyAdam";
      u.inputs = {p, g};
      const double n = static_cast<double>(f_.tensorBytes(p)) / std::max(1, dtypeSize(f_.dtype(p)));
      u.flops = kAdamFlopsPerElement * n;
      u.bytesRead = 4 * f_.tensorBytes(p);     // param, gradient, two moments
      u.bytesWritten = 3 * f_.tensorBytes(p);  // param, two moments
      u.paramBytes = 2 * f_.tensorBytes(p);    // Adam's moments live with the update
      u.colocGroup = ownerGroup_[owner];
      u.role = OpRole::Update;
      u.forwardOf = owner;
      b_.addOp(std::move(u));
    }
  }

  const Graph& f_;
  GraphBuilder b_;
  std::vector<uint8_t> requires_;
  std::vector<std::string> ownerGroup_;
  std::vector<std::vector<TensorId>> contributions_;
  OpId lossOp_ = kNone;
  std::vector<TensorId> lossInputs_;
  std::string lossName_;
  double lossFlops_ = 0;
};

}  // namespace

Graph deriveTrainingGraph(const Graph& forward) { return TrainingDeriver(forward).run(); }

}  // namespace gp
