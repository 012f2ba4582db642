// Evaluation of the shape arithmetic exporters write (onnxio/onnx_fold_eval.h), op by op, on the
// patterns torch.onnx emits: F.pad's reversed pads (Reshape to [-1, 2], Slice with step -1,
// Transpose, Reshape to [-1]), N-D Gather, Expand.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "onnxio/onnx_einsum.h"
#include "onnxio/onnx_fold_eval.h"

namespace {

using gp::onnxio::FoldValue;

struct Env {
  std::map<std::string, FoldValue> vals;
  std::map<std::string, std::vector<int64_t>> shapes;

  void set(const std::string& name, std::vector<int64_t> dims, std::vector<double> v) {
    vals[name] = FoldValue{onnx::TensorProto::INT64, std::move(dims), std::move(v)};
  }
  std::optional<FoldValue> eval(const onnx::NodeProto& n) const {
    const gp::onnxio::FoldInput value = [this](const std::string& t) -> const FoldValue* {
      auto it = vals.find(t);
      return it == vals.end() ? nullptr : &it->second;
    };
    const gp::onnxio::FoldShape shape = [this](const std::string& t) -> const std::vector<int64_t>* {
      auto it = shapes.find(t);
      return it == shapes.end() ? nullptr : &it->second;
    };
    return gp::onnxio::foldNode(n, value, shape);
  }
};

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& ins) {
  onnx::NodeProto n;
  n.set_op_type(op);
  for (const auto& i : ins) n.add_input(i);
  n.add_output("out");
  return n;
}

void ints(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

void intAttr(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

TEST(OnnxFold, TorchPadReversesItsPairs) {
  // pads [l0, r0, l1, r1] (last dim first) -> ONNX's [begin..., end...] via reshape/flip/transpose.
  Env env;
  env.set("pads", {6}, {0, 0, 1, 2, 3, 4});
  env.set("shape2", {2}, {-1, 2});
  env.set("start", {1}, {-1});
  env.set("end", {1}, {-9223372036854775807.0});
  env.set("axis0", {1}, {0});
  env.set("step", {1}, {-1});
  env.set("flat", {1}, {-1});
  auto r = env.eval(node("Reshape", {"pads", "shape2"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dims, (std::vector<int64_t>{3, 2}));
  env.vals["pairs"] = *r;
  auto flipped = env.eval(node("Slice", {"pairs", "start", "end", "axis0", "step"}));
  ASSERT_TRUE(flipped);
  EXPECT_EQ(flipped->dims, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(flipped->v, (std::vector<double>{3, 4, 1, 2, 0, 0}));
  env.vals["flipped"] = *flipped;
  auto t = node("Transpose", {"flipped"});
  ints(t, "perm", {1, 0});
  auto transposed = env.eval(t);
  ASSERT_TRUE(transposed);
  EXPECT_EQ(transposed->dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(transposed->v, (std::vector<double>{3, 1, 0, 4, 2, 0}));
  env.vals["transposed"] = *transposed;
  auto out = env.eval(node("Reshape", {"transposed", "flat"}));
  ASSERT_TRUE(out);
  EXPECT_EQ(out->dims, (std::vector<int64_t>{6}));
}

TEST(OnnxFold, ReshapeCopiesZeroDimsUnlessAllowZero) {
  Env env;
  env.set("x", {2, 3}, {1, 2, 3, 4, 5, 6});
  env.set("s", {2}, {0, -1});
  auto r = env.eval(node("Reshape", {"x", "s"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dims, (std::vector<int64_t>{2, 3}));
  auto z = node("Reshape", {"x", "s"});
  intAttr(z, "allowzero", 1);
  EXPECT_FALSE(env.eval(z));  // a 0 dimension and -1: nothing fits 6 elements
  env.set("bad", {2}, {4, -1});
  EXPECT_FALSE(env.eval(node("Reshape", {"x", "bad"})));
}

TEST(OnnxFold, GatherAndSliceOnMatrices) {
  Env env;
  env.set("m", {2, 3}, {1, 2, 3, 4, 5, 6});
  env.set("i", {2}, {2, -3});
  auto g = node("Gather", {"m", "i"});
  intAttr(g, "axis", 1);
  auto r = env.eval(g);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(r->v, (std::vector<double>{3, 1, 6, 4}));
  env.set("oob", {1}, {3});
  auto bad = node("Gather", {"m", "oob"});
  intAttr(bad, "axis", 1);
  EXPECT_FALSE(env.eval(bad));

  env.set("s", {1}, {1});
  env.set("e", {1}, {100});
  env.set("ax", {1}, {-1});
  auto sl = env.eval(node("Slice", {"m", "s", "e", "ax"}));
  ASSERT_TRUE(sl);
  EXPECT_EQ(sl->dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(sl->v, (std::vector<double>{2, 3, 5, 6}));
  env.set("zero", {1}, {0});
  EXPECT_FALSE(env.eval(node("Slice", {"m", "s", "e", "ax", "zero"})));  // step 0
}

TEST(OnnxFold, ExpandBroadcasts) {
  Env env;
  env.set("x", {3, 1}, {1, 2, 3});
  env.set("shape", {3}, {2, 1, 2});
  auto r = env.eval(node("Expand", {"x", "shape"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dims, (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(r->v, (std::vector<double>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  env.set("clash", {2}, {2, 2});
  EXPECT_FALSE(env.eval(node("Expand", {"x", "clash"})));
  env.set("huge", {2}, {100000, 100000});
  EXPECT_FALSE(env.eval(node("Expand", {"x", "huge"})));  // too large to fold
}

TEST(OnnxFold, ModFollowsTheDivisorsSignUnlessFmod) {
  Env env;
  env.set("a", {2}, {-7, 7});
  env.set("b", {}, {3});
  auto r = env.eval(node("Mod", {"a", "b"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->v, (std::vector<double>{2, 1}));
  auto f = node("Mod", {"a", "b"});
  intAttr(f, "fmod", 1);
  EXPECT_EQ(env.eval(f)->v, (std::vector<double>{-1, 1}));
  env.set("z", {}, {0});
  EXPECT_FALSE(env.eval(node("Mod", {"a", "z"})));
}

TEST(OnnxFold, HostileValuesAreNotFolded) {
  Env env;
  env.set("empty", {0, 300}, {});
  env.set("ax0", {1}, {0});
  EXPECT_FALSE(env.eval(node("Squeeze", {"empty", "ax0"})));  // axis 0 has size 0, not 1
  env.set("m", {2, 3}, {1, 2, 3, 4, 5, 6});
  auto t = node("Transpose", {"m"});
  ints(t, "perm", {0, 0});
  EXPECT_FALSE(env.eval(t));  // not a permutation
  env.set("wrap", {5}, {4294967297.0, 4294967295.0, 4294967297.0, 4294967295.0, 4});
  EXPECT_FALSE(env.eval(node("Reshape", {"m", "wrap"})));  // the product overflows
  env.set("col", {3, 1}, {1, 2, 3});
  env.set("row", {3}, {1, 2, 3});
  EXPECT_FALSE(env.eval(node("Add", {"row", "col"})));  // [3] + [3,1] is [3,3]: not folded
  env.set("one", {1, 1}, {2});
  auto r = env.eval(node("Mul", {"one", "row"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dims, (std::vector<int64_t>{1, 3}));  // numpy broadcasting of a single element
  FoldValue nan{onnx::TensorProto::FLOAT, {1}, {std::nan("")}};
  env.vals["nan"] = nan;
  auto cast = node("Cast", {"nan"});
  intAttr(cast, "to", onnx::TensorProto::INT64);
  EXPECT_FALSE(env.eval(cast));
}

// An empty tensor in an elementwise op is never read (a fuzzer input,
// regressions/onnx_model/fold_empty_operand.onnx, read element 0 of one; UBSan in the ASan run
// stops this test on that code). Nothing empty is folded.
TEST(OnnxFold, AnEmptyOperandIsNeverRead) {
  Env env;
  env.set("empty", {0}, {});
  env.set("one", {}, {5});
  env.set("three", {3}, {1, 2, 3});
  EXPECT_FALSE(env.eval(node("Add", {"empty", "one"})));
  EXPECT_FALSE(env.eval(node("Mul", {"one", "empty"})));
  EXPECT_FALSE(env.eval(node("Add", {"empty", "three"})));
  env.set("short", {3}, {1, 2});  // dims that promise more elements than it holds
  EXPECT_FALSE(env.eval(node("Sub", {"three", "short"})));
}

TEST(OnnxFold, SliceWithNegativeStepClampsItsStart) {
  // ONNX: start -10 on length 2 with step -1 clamps to 0: one element.
  Env env;
  env.set("v", {2}, {7, 8});
  env.set("s", {1}, {-10});
  env.set("e", {1}, {-100});
  env.set("ax", {1}, {0});
  env.set("st", {1}, {-1});
  auto r = env.eval(node("Slice", {"v", "s", "e", "ax", "st"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->v, (std::vector<double>{7}));
  env.set("big", {1}, {9.2e18});
  auto whole = env.eval(node("Slice", {"v", "ax", "e", "ax", "big"}));  // a huge positive step
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->v.empty());
}

TEST(OnnxFold, ShapeReadsKnownDims) {
  Env env;
  env.shapes["t"] = {4, 5, 6};
  auto s = node("Shape", {"t"});
  intAttr(s, "start", -2);
  auto r = env.eval(s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->v, (std::vector<double>{5, 6}));
  EXPECT_FALSE(env.eval(node("Shape", {"unknown"})));
}

}  // namespace

// torch.repeat_interleave's export splits a folded vector of repeat counts: each part is known.
TEST(OnnxFold, SplitOfAKnownVectorGivesEveryPart) {
  Env env;
  env.set("x", {4}, {7, 8, 9, 10});
  env.set("sizes", {2}, {1, 3});
  const gp::onnxio::FoldInput value = [&](const std::string& t) -> const FoldValue* {
    auto it = env.vals.find(t);
    return it == env.vals.end() ? nullptr : &it->second;
  };
  onnx::NodeProto n = node("Split", {"x", "sizes"});
  n.add_output("out2");
  auto parts = gp::onnxio::foldSplit(n, value);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].v, (std::vector<double>{7}));
  EXPECT_EQ(parts[1].v, (std::vector<double>{8, 9, 10}));
  EXPECT_EQ(parts[1].dims, (std::vector<int64_t>{3}));
  onnx::NodeProto equal = node("Split", {"x"});
  equal.add_output("out2");
  EXPECT_EQ(gp::onnxio::foldSplit(equal, value)[1].v, (std::vector<double>{9, 10}));
  env.set("bad", {2}, {1, 5});  // more than the vector holds
  EXPECT_TRUE(gp::onnxio::foldSplit(node("Split", {"x", "bad"}), value).empty());
}

// ONNX infers only an Einsum's rank; the equation gives its dims (a mixture of experts' products).
TEST(OnnxFold, EinsumShapesComeFromTheEquation) {
  using gp::onnxio::einsumSpace;
  auto out = [](const std::string& eq, const std::vector<std::vector<int64_t>>& s) {
    auto sp = einsumSpace(eq, s);
    return sp ? sp->output : std::vector<int64_t>{-1};
  };
  EXPECT_EQ(out("btd,edf->btef", {{2, 64, 256}, {4, 256, 512}}), (std::vector<int64_t>{2, 64, 4, 512}));
  EXPECT_EQ(out("bted,bte->btd", {{2, 64, 4, 256}, {2, 64, 4}}), (std::vector<int64_t>{2, 64, 256}));
  EXPECT_EQ(out("...ij,...jk->...ik", {{3, 5, 2, 4}, {4, 6}}), (std::vector<int64_t>{3, 5, 2, 6}));
  EXPECT_EQ(out("ij,jk", {{2, 3}, {3, 4}}), (std::vector<int64_t>{2, 4}));  // implicit: letters used once
  EXPECT_EQ(out("ij,jk->ik", {{2, 3}}), (std::vector<int64_t>{-1}));        // an operand missing
  EXPECT_EQ(out("ijk->i", {{2, 3}}), (std::vector<int64_t>{-1}));           // rank mismatch
  EXPECT_EQ(out("ij->iz", {{2, 3}}), (std::vector<int64_t>{-1}));           // an output letter never seen
}
