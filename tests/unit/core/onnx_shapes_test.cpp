// ONNX importer, shapes: folding of computed shapes (chains, sequences, loops, branches),
// symbolic dimensions bound by name, ops whose cost is estimated, files over 2 GiB.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "onnx_test_model.h"

#include "base/error.h"
#include "io/model_loader.h"
#include "onnxio/onnx_import.h"
#include "onnxio/onnx_read.h"
#include "test_paths.h"

namespace {

using namespace onnxtest;

TEST(OnnxLayerFlops, SplitLoopsAndFoldedBranchesKeepExactShapes) {
  // torch.split as torch.onnx writes it: a Loop with a constant trip count inserting slices into
  // a sequence, then SequenceAt / ConcatFromSequence; and an If on a condition computed from a
  // shape. The body's and the branch's shapes come out exact.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {6, 4});
  mm.intConstant("trips", 3);
  mm.intConstant("one", 1);
  mm.intConstant("two", 2);
  mm.intConstant("zero", 0);
  mm.intConstant("six", 6);
  mm.node("SequenceEmpty", {}, {"empty"}, "empty");
  auto& loop = mm.node("Loop", {"trips", "", "empty"}, {"parts"}, "split");
  onnx::GraphProto* body = setGraph(loop, "body");
  ModelMaker::fill(body->add_input(), "i", {}, kInt64);
  ModelMaker::fill(body->add_input(), "c_in", {}, onnx::TensorProto_DataType_BOOL);
  auto* seqIn = body->add_input();  // a sequence of float tensors
  seqIn->set_name("seq_in");
  seqIn->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
  ModelMaker::addNode(*body, "Identity", {"c_in"}, {"c_out"});
  ModelMaker::addNode(*body, "Mul", {"i", "two"}, {"start0"});
  ModelMaker::addNode(*body, "Add", {"start0", "two"}, {"end0"});
  ModelMaker::addNode(*body, "Unsqueeze", {"start0", "zero1d"}, {"start"});
  ModelMaker::addNode(*body, "Unsqueeze", {"end0", "zero1d"}, {"end"});
  ModelMaker::addNode(*body, "Slice", {"x", "start", "end", "zero1d"}, {"part"});
  ModelMaker::addNode(*body, "SequenceInsert", {"seq_in", "part"}, {"seq_out"});
  ModelMaker::fill(body->add_output(), "c_out", {}, onnx::TensorProto_DataType_BOOL);
  body->add_output()->set_name("seq_out");
  auto* zero1d = mm.graph().add_initializer();
  zero1d->set_name("zero1d");
  zero1d->set_data_type(kInt64);
  zero1d->add_dims(1);
  zero1d->add_int64_data(0);
  mm.node("SequenceAt", {"parts", "one"}, {"second"}, "at");
  mm.init("w", {4, 5});
  mm.node("MatMul", {"second", "w"}, {"y"}, "matmul");  // [2,4] @ [4,5]
  setInt(mm.node("ConcatFromSequence", {"parts"}, {"joined"}, "concat"), "axis", 0);
  mm.node("Relu", {"joined"}, {"r"}, "relu");  // [6,4]
  mm.node("Shape", {"x"}, {"shape"}, "shape");
  mm.node("Gather", {"shape", "zero"}, {"rows"}, "rows");
  mm.node("Equal", {"rows", "six"}, {"is6"}, "is6");
  auto& ifNode = mm.node("If", {"is6"}, {"picked"}, "if");
  ModelMaker::addNode(*setGraph(ifNode, "then_branch"), "Transpose", {"x"}, {"t"});
  ifNode.mutable_attribute(0)->mutable_g()->add_output()->set_name("t");
  ModelMaker::addNode(*setGraph(ifNode, "else_branch"), "Identity", {"x"}, {"e"});
  ifNode.mutable_attribute(1)->mutable_g()->add_output()->set_name("e");
  mm.node("Sigmoid", {"picked"}, {"s"}, "sigmoid");
  mm.output("y");
  mm.output("r");
  mm.output("s");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "second"), (std::vector<int64_t>{2, 4}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 4 * 5);
  EXPECT_EQ(shapeOf(g, "joined"), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(shapeOf(g, "picked"), (std::vector<int64_t>{4, 6}));  // the then branch: transposed
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "sigmoid")), 24.0);
  EXPECT_EQ(g.numEstimatedOps(), 0) << gp::estimatedCostWarning(g);
}

TEST(OnnxLayerFlops, LoopsRunOnlyWhileTheirConditionIsKnown) {
  // acc grows by x every iteration; 5 iterations when the condition is the constant true, an
  // unknown count when it is a graph input (the result is then estimated, not guessed).
  auto model = [](bool knownCondition, const TempDir& dir) {
    ModelMaker mm;
    mm.input("x", {2, 2});
    if (knownCondition) {
      auto* t = mm.graph().add_initializer();
      t->set_name("go");
      t->set_data_type(onnx::TensorProto_DataType_BOOL);
      t->add_int32_data(1);
    } else {
      mm.input("go", {}, onnx::TensorProto_DataType_BOOL);
    }
    mm.intConstant("trips", 5);
    auto& loop = mm.node("Loop", {"trips", "go", "x"}, {"acc"}, "loop");
    onnx::GraphProto* body = setGraph(loop, "body");
    ModelMaker::fill(body->add_input(), "i", {}, kInt64);
    ModelMaker::fill(body->add_input(), "c_in", {}, onnx::TensorProto_DataType_BOOL);
    body->add_input()->set_name("acc_in");
    body->mutable_input(2)->mutable_type()->mutable_tensor_type()->set_elem_type(kFloat);
    ModelMaker::addNode(*body, "Identity", {"c_in"}, {"c_out"});
    setInt(ModelMaker::addNode(*body, "Concat", {"acc_in", "x"}, {"acc_out"}), "axis", 0);
    ModelMaker::fill(body->add_output(), "c_out", {}, onnx::TensorProto_DataType_BOOL);
    body->add_output()->set_name("acc_out");
    mm.node("Relu", {"acc"}, {"r"}, "relu");
    mm.output("r");
    return gp::importOnnx(mm.save(dir));
  };
  TempDir dir;
  Graph known = model(true, dir);
  EXPECT_EQ(shapeOf(known, "acc"), (std::vector<int64_t>{12, 2}));
  EXPECT_FALSE(known.costEstimated(opNamed(known, "relu")));
  TempDir dir2;
  Graph unknown = model(false, dir2);
  EXPECT_TRUE(unknown.costEstimated(opNamed(unknown, "relu")));
}

TEST(OnnxLayerFlops, ComputedShapesAreFolded) {
  // Reshape / Slice / ConstantOfShape fed by Shape -> Gather -> Div -> Unsqueeze -> Concat:
  // ONNX inference alone leaves these shapes unknown; the folding pass finds them.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  mm.node("Shape", {"x"}, {"shape"}, "shape");
  auto constant = [&](const std::string& name, const std::vector<int64_t>& values) {
    auto& c = mm.node("Constant", {}, {name}, name);
    auto* a = c.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
    a->mutable_t()->set_data_type(kInt64);
    a->mutable_t()->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) a->mutable_t()->add_int64_data(v);
  };
  constant("zero", {0});
  constant("two", {2});
  constant("minus1", {-1});
  mm.node("Gather", {"shape", "zero"}, {"batch"}, "gather_batch");  // [2]
  setInt(mm.node("Concat", {"batch", "minus1"}, {"newshape"}, "concat"), "axis", 0);
  mm.node("Reshape", {"x", "newshape"}, {"flat"}, "reshape");  // [2, 12]
  mm.init("w", {12, 5});
  mm.node("MatMul", {"flat", "w"}, {"y"}, "matmul");
  mm.node("Gather", {"shape", "two"}, {"last"}, "gather_last");         // [4]
  mm.node("Div", {"last", "two"}, {"half"}, "half");                    // [2]
  mm.node("Slice", {"x", "zero", "half", "two"}, {"sliced"}, "slice");  // [2, 3, 2]
  mm.node("Relu", {"sliced"}, {"r"}, "relu");
  mm.node("ConstantOfShape", {"newshape"}, {"zeros"}, "zeros");  // shape [2, -1] is invalid: stays unknown
  mm.output("y");
  mm.output("r");
  mm.output("zeros");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "flat"), (std::vector<int64_t>{2, 12}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 12 * 5);
  EXPECT_EQ(shapeOf(g, "sliced"), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "relu")), 12.0);
  EXPECT_EQ(shapeOf(g, "half"), (std::vector<int64_t>{1}));
}

TEST(OnnxLayerFlops, LongShapeChainsFoldInOnePass) {
  // Twelve blocks, each reshaping by a shape computed from the previous block's output: every
  // block's shape is known only once the one before it is resolved.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  auto constant = [&](const std::string& name, int64_t value) {
    auto& c = mm.node("Constant", {}, {name}, name);
    auto* a = c.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
    a->mutable_t()->set_data_type(kInt64);
    a->mutable_t()->add_dims(1);
    a->mutable_t()->add_int64_data(value);
  };
  constant("zero", 0);
  constant("minus1", -1);
  std::string cur = "x";
  for (int i = 0; i < 12; ++i) {
    const std::string k = std::to_string(i);
    mm.node("Shape", {cur}, {"s" + k}, "shape" + k);
    mm.node("Gather", {"s" + k, "zero"}, {"b" + k}, "gather" + k);
    setInt(mm.node("Concat", {"b" + k, "minus1"}, {"ns" + k}, "concat" + k), "axis", 0);
    mm.node("Reshape", {cur, "ns" + k}, {"r" + k}, "reshape" + k);
    mm.node("Relu", {"r" + k}, {"a" + k}, "relu" + k);
    cur = "a" + k;
  }
  mm.init("w", {12, 5});
  mm.node("MatMul", {cur, "w"}, {"y"}, "matmul");
  mm.output("y");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(g.numEstimatedOps(), 0);
  for (int i = 0; i < 12; ++i) EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "relu" + std::to_string(i))), 24.0) << i;
  EXPECT_EQ(shapeOf(g, "y"), (std::vector<int64_t>{2, 5}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 12 * 5);
}

TEST(OnnxImport, UnknownShapesOpenWithEstimatedCost) {
  // x has no shape: nothing can say what Relu and MatMul cost, yet the model opens.
  Graph g = gp::importOnnx(gptest::dataPath("malformed/missing_shape.onnx"));
  EXPECT_EQ(g.numOps(), 2);
  EXPECT_TRUE(g.costEstimated(opNamed(g, "relu")));
  EXPECT_TRUE(g.costEstimated(opNamed(g, "matmul")));
  EXPECT_GT(g.flops(opNamed(g, "matmul")), 0);  // from the weight's shape
  const std::string warning = gp::estimatedCostWarning(g);
  EXPECT_NE(warning.find("2 ops have shapes"), std::string::npos) << warning;
  EXPECT_NE(warning.find("'relu' (Relu)"), std::string::npos) << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);

  // strides 0: libonnx's inference must not run (it divides by them); the pool's output stays
  // unknown and is sized like its input.
  Graph pool = gp::importOnnx(gptest::dataPath("malformed/zero_strides.onnx"));
  const OpId p = opNamed(pool, "pool");
  EXPECT_TRUE(pool.costEstimated(p));
  EXPECT_EQ(pool.bytesWritten(p), 16 * 4);

  // A model whose shapes are all known has nothing estimated.
  Graph mlp = gp::importOnnx(gptest::dataPath("onnx/mlp.onnx"));
  EXPECT_EQ(mlp.numEstimatedOps(), 0);
  EXPECT_EQ(gp::estimatedCostWarning(mlp), "");
}

TEST(OnnxImport, SymbolicDimsAreBoundByName) {
  const std::string path = gptest::dataPath("onnx/mlp.onnx");
  Graph g1 = gp::importOnnx(path);
  ASSERT_EQ(g1.symbolicDims().size(), 1u);
  EXPECT_EQ(g1.symbolicDims()[0].name, "batch");
  EXPECT_EQ(g1.symbolicDims()[0].value, 1);
  EXPECT_FALSE(g1.symbolicDims()[0].bound);

  gp::ImportOptions o;
  o.dims["batch"] = 8;
  Graph g8 = gp::importOnnx(path, o);
  EXPECT_EQ(shapeOf(g8, "input"), (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(shapeOf(g8, "output"), (std::vector<int64_t>{8, 10}));
  EXPECT_TRUE(g8.symbolicDims()[0].bound);
  EXPECT_EQ(g8.symbolicDims()[0].value, 8);
  EXPECT_NEAR(g8.totalFlops(), 8 * g1.totalFlops(), 1e-6 * g8.totalFlops());
  // training derivation keeps them
  EXPECT_EQ(gp::loadModel(path, gp::LoadOptions{gp::GraphMode::Training, o, {}}).symbolicDims().size(), 1u);

  gp::ImportOptions typo;
  typo.dims["batch_size"] = 8;
  try {
    gp::importOnnx(path, typo);
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": --dim batch_size", 0), 0u) << what;
    EXPECT_NE(what.find("(they have: batch)"), std::string::npos) << what;
  }
}

void appendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

TEST(OnnxImport, OverTwoGigabytesOpensWithoutReadingWeights) {
  // A real > 2 GiB model: x[1,4] @ w[4,N] with w's 2 GiB of raw data inline, written as a
  // sparse file (the zeros take no disk space).
  TempDir dir;
  const std::string big = dir.file("huge.onnx");
  const uint64_t n = (uint64_t{1} << 29) + 16;  // w's columns
  const uint64_t raw = 4 * n * 4;               // float bytes: 2 GiB + 256
  ModelMaker mm;
  mm.input("x", {1, 4});
  mm.node("MatMul", {"x", "w"}, {"y"}, "matmul");
  mm.output("y");
  onnx::ModelProto model;
  {
    TempDir tmp;
    std::ifstream in(mm.save(tmp), std::ios::binary);
    ASSERT_TRUE(model.ParseFromIstream(&in));
  }
  const std::string graph = model.graph().SerializeAsString();
  model.clear_graph();
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(kFloat);
  w.add_dims(4);
  w.add_dims(static_cast<int64_t>(n));
  std::string tensorHead = w.SerializeAsString();
  tensorHead.push_back(static_cast<char>(9 << 3 | 2));  // raw_data
  appendVarint(tensorHead, raw);
  const uint64_t tensorLen = tensorHead.size() + raw;
  std::string graphHead = graph;
  graphHead.push_back(static_cast<char>(5 << 3 | 2));  // initializer
  appendVarint(graphHead, tensorLen);
  std::string bytes = model.SerializeAsString();
  bytes.push_back(static_cast<char>(7 << 3 | 2));  // graph
  appendVarint(bytes, graphHead.size() + tensorLen);
  bytes += graphHead + tensorHead;
  { std::ofstream(big, std::ios::binary) << bytes; }
  std::error_code ec;
  fs::resize_file(big, bytes.size() + raw, ec);
  if (ec) GTEST_SKIP() << "cannot make a sparse 2 GiB file here: " << ec.message();
  ASSERT_GT(fs::file_size(big), uint64_t{1} << 31);
  Graph g = gp::importOnnx(big);
  ASSERT_EQ(g.numOps(), 1);
  EXPECT_DOUBLE_EQ(g.flops(0), 2.0 * 4 * static_cast<double>(n));
  EXPECT_EQ(g.totalParamBytes(), static_cast<int64_t>(raw));

  // The same file cut short: a clear error, not a crash.
  fs::resize_file(big, bytes.size() + raw - 100, ec);
  ASSERT_FALSE(ec);
  try {
    gp::importOnnx(big);
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(big + ": not a valid ONNX model", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(OnnxImport, StrippedReadKeepsSmallInitializers) {
  // The large-file path on a small file: large initializers lose their data, small integer
  // ones (shape constants) keep it, and the model imports the same.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  mm.init("w", {12, 300});
  auto* big = mm.graph().mutable_initializer(0);
  big->set_raw_data(std::string(12 * 300 * 4, '\1'));
  mm.intConstant("unused", 7);
  auto* shape = mm.graph().add_initializer();
  shape->set_name("newshape");
  shape->set_data_type(kInt64);
  shape->add_dims(2);
  shape->add_int64_data(2);
  shape->add_int64_data(12);
  mm.node("Reshape", {"x", "newshape"}, {"flat"}, "reshape");
  mm.node("MatMul", {"flat", "w"}, {"y"}, "matmul");
  mm.output("y");
  const std::string path = mm.save(dir);
  const onnx::ModelProto full = gp::onnxio::readOnnxModel(path);
  const onnx::ModelProto stripped = gp::onnxio::readOnnxModel(path, 0);
  EXPECT_EQ(full.graph().initializer(0).raw_data().size(), 12u * 300 * 4);
  EXPECT_TRUE(stripped.graph().initializer(0).raw_data().empty());
  EXPECT_EQ(stripped.graph().initializer(0).dims_size(), 2);
  EXPECT_EQ(stripped.graph().initializer(2).int64_data_size(), 2);
  EXPECT_EQ(stripped.graph().node_size(), 2);
  EXPECT_THROW(gp::onnxio::stripInitializerData(reinterpret_cast<const uint8_t*>("\x3a\xff"), 2),
               std::runtime_error);
}

// Models that parse but are inconsistent (random dims, attributes, op types, inputs) must
// import or fail with gp::Error; libonnx's shape inference crashes on some of them, which the
// importer keeps out of the process (see onnxio/onnx_infer.h).

}  // namespace
