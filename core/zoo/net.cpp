#include "zoo/net.h"

#include "base/error.h"
#include "graph/flops.h"

namespace gp::zoo {

Net::Net(std::string model) : b_("zoo:" + model), model_(std::move(model)), scope_(model_), typeCounts_(1) {}

Net::Scope::Scope(Net& net, std::string_view name) : net_(net), prevLen_(net.scope_.size()) {
  net_.scope_ += '/';
  net_.scope_ += name;
  net_.enter();
}

Net::Scope::Scope(Net& net, std::string_view prefix, int64_t index) : net_(net), prevLen_(net.scope_.size()) {
  net_.scope_ += '/';
  net_.scope_ += prefix;
  net_.scope_ += '_';
  net_.scope_ += std::to_string(index);
  net_.enter();
}

void Net::enter() {
  if (++depth_ == typeCounts_.size()) typeCounts_.emplace_back();
  typeCounts_[depth_].clear();
}

void Net::leave(size_t prevLen) {
  scope_.resize(prevLen);
  --depth_;
}

std::string Net::uniqueName(std::string_view type) {
  if (b_.numOps() >= kMaxOps)
    throw Error(b_.source(), "the graph would have more than " + std::to_string(kMaxOps) +
                                 " ops; use fewer layers or a shorter sequence");
  std::string name;
  name.reserve(scope_.size() + type.size() + 4);
  name += scope_;
  name += '/';
  name += type;
  auto& counts = typeCounts_[depth_];
  auto it = counts.begin();
  while (it != counts.end() && it->first != type) ++it;
  if (it == counts.end()) {
    counts.emplace_back(std::string(type), 1);
  } else {
    name += '_';
    name += std::to_string(it->second++);
  }
  return name;
}

TensorId Net::input(std::string_view name, Shape shape, DType dtype) {
  return b_.addGraphInput({scope_ + "/" + std::string(name), std::move(shape), dtype});
}

TensorId Net::param(std::string_view name, Shape shape) {
  return b_.addParameter({scope_ + "/" + std::string(name), std::move(shape), DType::F32});
}

TensorId Net::op(std::string_view type, std::vector<TensorId> inputs, Shape out, double flops, int64_t bytesRead) {
  OpDesc d;
  d.name = uniqueName(type);
  d.type = std::string(type);
  d.inputs = std::move(inputs);
  d.outputs.push_back({{}, std::move(out), DType::F32});
  d.flops = flops;
  d.bytesRead = bytesRead;
  return b_.output(b_.addOp(std::move(d)));
}

std::vector<TensorId> Net::opN(std::string_view type, std::vector<TensorId> inputs, std::vector<Shape> outs,
                               double flops, int64_t bytesRead) {
  OpDesc d;
  d.name = uniqueName(type);
  d.type = std::string(type);
  d.inputs = std::move(inputs);
  for (Shape& s : outs) d.outputs.push_back({{}, std::move(s), DType::F32});
  d.flops = flops;
  d.bytesRead = bytesRead;
  OpId id = b_.addOp(std::move(d));
  auto outIds = b_.outputsOf(id);
  return {outIds.begin(), outIds.end()};
}

Shape Net::shapeVec(TensorId t) const {
  auto s = b_.shapeOf(t);
  return {s.begin(), s.end()};
}

int64_t Net::dim(TensorId t, int i) const {
  auto s = b_.shapeOf(t);
  return i < 0 ? s[s.size() - static_cast<size_t>(-i)] : s[static_cast<size_t>(i)];
}

int64_t Net::numel(TensorId t) const {
  return flops::numel(b_.shapeOf(t));
}

Graph Net::build() && {
  return std::move(b_).build(model_);
}

}  // namespace gp::zoo
