// Net: a thin layer over GraphBuilder for the zoo generators. It keeps a current scope
// path (the model name at the root), names ops "<scope>/<Type>" with a TensorFlow-style
// "_N" suffix when a scope holds several ops of one type, and names parameters and graph
// inputs "<scope>/<name>". Output tensors are named "<op name>:<index>".
//
//   Net net("resnet50");
//   Net::Scope s(net, "stage2");           // ops below land in "resnet50/stage2/..."
//   TensorId y = net.op("Relu", {x}, net.shape(x), numel);
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph_builder.h"

namespace gp::zoo {

using Shape = std::vector<int64_t>;

class Net {
 public:
  // The most ops a generated forward graph may have (its training step has about 2.5x as
  // many); op() and opN() throw gp::Error("zoo:MODEL", ...) beyond it.
  static constexpr int32_t kMaxOps = 200000;

  explicit Net(std::string model);
  Net(const Net&) = delete;
  Net& operator=(const Net&) = delete;

  // RAII scope: appends "/name" to the current scope for its lifetime.
  class Scope {
   public:
    Scope(Net& net, std::string_view name);
    Scope(Net& net, std::string_view prefix, int64_t index);  // "prefix_<index>"
    ~Scope() { net_.leave(prevLen_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Net& net_;
    size_t prevLen_;
  };

  const std::string& model() const { return model_; }
  const std::string& scope() const { return scope_; }

  TensorId input(std::string_view name, Shape shape, DType dtype = DType::F32);
  TensorId param(std::string_view name, Shape shape);
  // One op with one output; returns the output tensor. bytesRead -1: sum of input bytes.
  TensorId op(std::string_view type, std::vector<TensorId> inputs, Shape out, double flops, int64_t bytesRead = -1);
  // One op with several outputs.
  std::vector<TensorId> opN(std::string_view type, std::vector<TensorId> inputs, std::vector<Shape> outs, double flops,
                            int64_t bytesRead = -1);

  std::span<const int64_t> shape(TensorId t) const { return b_.shapeOf(t); }
  Shape shapeVec(TensorId t) const;
  int64_t dim(TensorId t, int i) const;  // i < 0 counts from the back
  int64_t numel(TensorId t) const;
  int64_t bytes(TensorId t) const { return b_.bytesOf(t); }
  int32_t numOps() const { return b_.numOps(); }

  Graph build() &&;

 private:
  void enter();
  void leave(size_t prevLen);
  std::string uniqueName(std::string_view type);

  GraphBuilder b_;
  std::string model_;
  std::string scope_;
  // Per open scope level, how many ops of each type it holds so far (a scope is filled
  // while it is open; GraphBuilder still rejects a duplicate if one is ever reopened).
  std::vector<std::vector<std::pair<std::string, int>>> typeCounts_;
  size_t depth_ = 0;
};

}  // namespace gp::zoo
