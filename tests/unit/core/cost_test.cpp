// Cost model: roofline times derived by hand, launch overhead, metadata ops, calibration
// overrides, transfers along multi-hop routes, and the op-class table.
#include <gtest/gtest.h>

#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "sim/lower_bound.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

// Two device kinds: "G" (10 TFLOP/s f32, 100 f16, 1000 GB/s, 5 us launch) and "S" (half of
// everything, 2 us launch), devices gpu0 (G) and gpu1 (S) joined through a switch. `gExtra`
// adds fields to kind G (", \"efficiency\": {...}").
Cluster twoKinds(const std::string& gExtra = "") {
  return parseClusterJson(R"({"name": "two",
    "device_kinds": {
      "G": {"peak_TFLOPS": {"f32": 10, "f16": 100}, "memory_bandwidth_GBps": 1000,
            "memory_GiB": 8, "launch_overhead_us": 5)" + gExtra + R"(},
      "S": {"peak_TFLOPS": {"f32": 5, "f16": 50}, "memory_bandwidth_GBps": 500,
            "memory_GiB": 8, "launch_overhead_us": 2}},
    "devices": [{"name": "gpu0", "kind": "G"}, {"name": "gpu1", "kind": "S"}],
    "switches": [{"name": "sw", "kind": "PCIe-switch"}],
    "links": [{"between": ["gpu0", "sw"], "kind": "PCIe", "bandwidth_GBps": 16, "latency_us": 1},
              {"between": ["gpu1", "sw"], "kind": "PCIe", "bandwidth_GBps": 8, "latency_us": 2}]})",
                          "two");
}

struct Fixture {
  Graph g;
  OpId matmul, relu, reshape, half;
};

Fixture graph() {
  GraphBuilder b("g");
  TensorId a = b.addGraphInput({"a", {1024, 1024}});
  TensorId w = b.addParameter({"w", {1024, 1024}});
  Fixture f;
  f.matmul = b.addOp({.name = "mm",
                      .type = "MatMul",
                      .inputs = {a, w},
                      .outputs = {{"y", {1024, 1024}}},
                      .flops = 2.0 * 1024 * 1024 * 1024});
  TensorId x = b.addGraphInput({"x", {1 << 20}});
  f.relu = b.addOp({.name = "relu", .type = "Relu", .inputs = {x}, .outputs = {{"r", {1 << 20}}}, .flops = 1 << 20});
  f.reshape =
      b.addOp({.name = "reshape", .type = "Reshape", .inputs = {b.output(f.relu)}, .outputs = {{"rs", {1024, 1024}}}});
  TensorId h = b.addGraphInput({"h", {1024, 1024}, DType::F16});
  TensorId hw = b.addParameter({"hw", {1024, 1024}, DType::F16});
  f.half = b.addOp({.name = "mm16",
                    .type = "MatMul",
                    .inputs = {h, hw},
                    .outputs = {{"y16", {1024, 1024}, DType::F16}},
                    .flops = 2.0 * 1024 * 1024 * 1024});
  f.g = std::move(b).build("g");
  return f;
}

constexpr double kMiB4 = 4.0 * 1024 * 1024;  // one 1024x1024 f32 tensor

// The default efficiencies without the fill time and with the whole memory bandwidth, so the
// roofline's mechanics can be derived by hand (realistic_costs_test.cpp tests those two).
CostParams plain() {
  CostParams p;
  p.fillTime.fill(0.0);
  p.bandwidthEfficiency = 1.0;
  return p;
}
const double kMM = CostParams{}.efficiencyOf(OpClass::MatMul);
const double kConv = CostParams{}.efficiencyOf(OpClass::Conv);

}  // namespace

TEST(Cost, IntegerMatrixProductsRunAtTheInt8Rate) {
  // QLinearMatMul (uint8 out) and MatMulInteger (int8 in, int32 out) on a kind with an int8 peak.
  GraphBuilder b("q");
  TensorId a = b.addGraphInput({"a", {1024, 1024}, DType::I8});
  TensorId w = b.addParameter({"w", {1024, 1024}, DType::I8});
  const double flops = 2.0 * 1024 * 1024 * 1024;
  OpId mmi = b.addOp({.name = "mmi", .type = "MatMulInteger", .inputs = {a, w},
                      .outputs = {{"acc", {1024, 1024}, DType::I32}}, .flops = flops});
  OpId qmm = b.addOp({.name = "qmm", .type = "QLinearMatMul", .inputs = {a, w},
                      .outputs = {{"q", {1024, 1024}, DType::U8}}, .flops = flops});
  Graph g = std::move(b).build("q");
  Cluster c = parseClusterJson(R"({"name": "int8",
    "device_kinds": {"G": {"peak_TFLOPS": {"f32": 10, "int8": 100}, "memory_bandwidth_GBps": 1000,
                           "memory_GiB": 8, "launch_overhead_us": 5}},
    "devices": [{"name": "gpu0", "kind": "G"}], "links": []})",
                               "int8");
  CostModel cm(g, c, plain());
  EXPECT_EQ(cm.opDType(mmi), DType::I8);
  EXPECT_EQ(cm.opDType(qmm), DType::U8);
  EXPECT_DOUBLE_EQ(cm.opTime(mmi, 0), cm.opTime(qmm, 0));
  EXPECT_LT(cm.opTime(mmi, 0), 5e-6 + flops / (10e12 * kMM));  // faster than at the f32 rate
}

TEST(Cost, ComputeBoundMatMul) {
  Fixture f = graph();
  Cluster c = twoKinds();
  CostModel cm(f.g, c, plain());
  const double flops = 2.0 * 1024 * 1024 * 1024;
  // G: 2.147e9 / (10e12 * kMM) = 307 us of compute vs 12.6 MB / 1 TB/s = 12.6 us of memory.
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 0), 5e-6 + flops / (10e12 * kMM));
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 1), 2e-6 + flops / (5e12 * kMM));
  EXPECT_DOUBLE_EQ(cm.fastestOpTime(f.matmul), cm.opTime(f.matmul, 0));
  // f16 uses the tensor-core peak.
  EXPECT_EQ(cm.opDType(f.half), DType::F16);
  EXPECT_DOUBLE_EQ(cm.opTime(f.half, 0), 5e-6 + flops / (100e12 * kMM));
  // Efficiency is a parameter.
  CostParams p = plain();
  p.efficiency[static_cast<size_t>(OpClass::MatMul)] = 1.0;
  EXPECT_DOUBLE_EQ(CostModel(f.g, c, p).opTime(f.matmul, 0), 5e-6 + flops / 10e12);
}

TEST(Cost, MemoryBoundElementwiseAndLaunchOverhead) {
  Fixture f = graph();
  Cluster c = twoKinds();
  CostModel cm(f.g, c, plain());
  // Relu over 1M f32: reads 4 MiB and writes 4 MiB; 8.4 us at 1 TB/s vs 0.2 us of compute.
  EXPECT_DOUBLE_EQ(cm.opTime(f.relu, 0), 5e-6 + 2 * kMiB4 / 1000e9);
  EXPECT_DOUBLE_EQ(cm.opTime(f.relu, 1), 2e-6 + 2 * kMiB4 / 500e9);
  EXPECT_EQ(cm.opClass(f.relu), OpClass::Elementwise);
  // A metadata-only op launches no kernel.
  EXPECT_EQ(cm.opTime(f.reshape, 0), 0.0);
  // A fused kernel pays one launch: summed FLOPs, boundary bytes only.
  EXPECT_DOUBLE_EQ(cm.fusedTime(1e6, 1'000'000, OpClass::Elementwise, DType::F32, 0), 5e-6 + 1e-6);
  EXPECT_DOUBLE_EQ(cm.fusedTime(1e12, 0, OpClass::MatMul, DType::F32, 0), 5e-6 + 1e12 / (10e12 * kMM));
  EXPECT_DOUBLE_EQ(cm.fusedTime(0, 0, OpClass::Other, DType::Unknown, 1), 2e-6);
}

TEST(Cost, FastestDeviceDependsOnLaunchOverhead) {
  // A tiny op is launch-bound: the slower device with the smaller launch overhead wins.
  GraphBuilder b("tiny");
  TensorId x = b.addGraphInput({"x", {16}});
  OpId op = b.addOp({.name = "add", .type = "Add", .inputs = {x, x}, .outputs = {{"y", {16}}}, .flops = 16});
  Graph g = std::move(b).build("tiny");
  CostModel cm(g, twoKinds(), plain());
  EXPECT_LT(cm.opTime(op, 1), cm.opTime(op, 0));
  EXPECT_DOUBLE_EQ(cm.fastestOpTime(op), cm.opTime(op, 1));
  EXPECT_NEAR(cm.opTime(op, 1), 2e-6, 1e-9);
}

TEST(Cost, CalibrationOverridesRoofline) {
  Fixture f = graph();
  Cluster c = twoKinds();
  CalibrationTable t;
  std::vector<std::vector<int64_t>> shapes{{1024, 1024}, {1024, 1024}};
  t.add("MatMul", shapes, DType::F32, "G", 123e-6);
  t.add("MatMul", shapes, DType::F32, "H100", 1e-6);  // another kind: not used here
  EXPECT_EQ(CalibrationTable::signature("MatMul", shapes, DType::F32, "G"), "MatMul|[1024,1024][1024,1024]|f32|G");
  EXPECT_EQ(CalibrationTable::signature(f.g, f.matmul, DType::F32, "G"), "MatMul|[1024,1024][1024,1024]|f32|G");
  CostModel cm(f.g, c, plain(), &t);
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 0), 123e-6);
  EXPECT_TRUE(cm.calibrated(f.matmul, 0));
  EXPECT_FALSE(cm.calibrated(f.matmul, 1));  // kind S has no entry: roofline
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 1), 2e-6 + 2.0 * 1024 * 1024 * 1024 / (5e12 * kMM));
  EXPECT_FALSE(cm.calibrated(f.half, 0));  // f16 signature differs
  EXPECT_EQ(cm.numCalibrated(), 1);

  // The file round-trips, and add() replaces an entry of the same signature.
  CalibrationTable u = CalibrationTable::parse(t.toJson(), "calib.json");
  EXPECT_EQ(u.size(), 2u);
  EXPECT_EQ(u.lookup("MatMul", shapes, DType::F32, "G"), 123e-6);
  EXPECT_EQ(u.toJson(), t.toJson());
  u.add("MatMul", shapes, DType::F32, "G", 7e-6);
  EXPECT_EQ(u.size(), 2u);
  EXPECT_EQ(u.lookup("MatMul|[1024,1024][1024,1024]|f32|G"), 7e-6);
  EXPECT_FALSE(u.lookup("MatMul", shapes, DType::F16, "G"));
}

TEST(Cost, CalibrationFileErrors) {
  auto errorOf = [](const std::string& text) -> std::string {
    try {
      CalibrationTable::parse(text, "cal.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string head = R"({"format": "graphplace-calibration", "version": 1, "entries": [)";
  const std::string ok =
      R"({"op_type": "Relu", "input_shapes": [[4], null], "dtype": "f32", "device_kind": "G", "seconds": 1e-6})";
  EXPECT_EQ(CalibrationTable::parse(head + ok + "]}", "cal.json").lookup("Relu|[4]?|f32|G"), 1e-6);
  EXPECT_NE(errorOf("nope").find("cal.json: not valid JSON"), std::string::npos);
  EXPECT_NE(errorOf(R"({"entries": []})").find("field 'format'"), std::string::npos);
  EXPECT_NE(errorOf(head + ok + "," + ok + "]}").find("entries[1]: duplicate signature Relu|[4]?|f32|G"),
            std::string::npos);
  EXPECT_NE(
      errorOf(head + R"({"op_type": "Relu", "input_shapes": [], "dtype": "f99", "device_kind": "G", "seconds": 1}]})")
          .find("entries[0]: unknown dtype 'f99'"),
      std::string::npos);
  EXPECT_NE(
      errorOf(head + R"({"op_type": "Relu", "input_shapes": [], "dtype": "f32", "device_kind": "G", "seconds": -1}]})")
          .find("entries[0]: field 'seconds' must be >= 0"),
      std::string::npos);
  EXPECT_NE(
      errorOf(head +
              R"({"op_type": "Relu", "input_shapes": [["a"]], "dtype": "f32", "device_kind": "G", "seconds": 1}]})")
          .find("array of integers or null"),
      std::string::npos);
  EXPECT_THROW(CalibrationTable::load("/nonexistent/cal.json"), Error);
}

// A device kind's own efficiencies (cluster file) replace CostParams' for that kind only:
// "Class.type" before "Class", other classes and kinds keep the defaults.
TEST(Cost, KindEfficiencyReplacesTheDefault) {
  Fixture f = graph();
  Cluster c = twoKinds(R"(, "efficiency": {"MatMul": 0.9, "MatMul.f16": 0.5, "Elementwise": 0.01})");
  CostModel cm(f.g, c, plain());
  const double flops = 2.0 * 1024 * 1024 * 1024;
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 0), 5e-6 + flops / (10e12 * 0.9));  // the default without the listing
  EXPECT_DOUBLE_EQ(cm.opTime(f.half, 0), 5e-6 + flops / (100e12 * 0.5));   // the f16 entry
  EXPECT_DOUBLE_EQ(cm.opTime(f.matmul, 1), 2e-6 + flops / (5e12 * kMM));   // kind S lists none
  // Relu at 1% of 10 TFLOP/s: 1M FLOPs take 10 us, more than its 8.4 us of memory traffic.
  EXPECT_DOUBLE_EQ(cm.opTime(f.relu, 0), 5e-6 + (1 << 20) / (10e12 * 0.01));
  EXPECT_DOUBLE_EQ(cm.opTime(f.relu, 1), 2e-6 + 2 * kMiB4 / 500e9);
  EXPECT_DOUBLE_EQ(cm.efficiency(OpClass::MatMul, DType::F64, 0), 0.9);  // no "MatMul.f64": the class
  EXPECT_DOUBLE_EQ(cm.efficiency(OpClass::Conv, DType::F32, 0), kConv);    // unlisted class: default
  EXPECT_DOUBLE_EQ(cm.efficiency(OpClass::MatMul, DType::F16, 1), kMM);
  EXPECT_DOUBLE_EQ(cm.fusedTime(1e12, 0, OpClass::MatMul, DType::F16, 0), 5e-6 + 1e12 / (100e12 * 0.5));
  // CostParams still set the default for kinds without a listing, never override one.
  CostParams p = plain();
  p.efficiency[static_cast<size_t>(OpClass::MatMul)] = 1.0;
  CostModel cp(f.g, c, p);
  EXPECT_DOUBLE_EQ(cp.opTime(f.matmul, 0), 5e-6 + flops / (10e12 * 0.9));
  EXPECT_DOUBLE_EQ(cp.opTime(f.matmul, 1), 2e-6 + flops / 5e12);
  // The simulated step of the single-device plan is the sum of its ops' times, and the bound
  // uses the same efficiencies (never above the step).
  Simulator sim(cm);
  for (int dev : {0, 1}) {
    Measurement m = sim.run(Plan::singleDevice(f.g.numOps(), dev));
    ASSERT_TRUE(m.feasible) << m.problem;
    double sum = 0;
    for (OpId op = 0; op < f.g.numOps(); ++op) sum += cm.opTime(op, dev);
    EXPECT_NEAR(m.stepTime, sum, 1e-12);
    EXPECT_LE(m.lowerBound, m.stepTime);
  }
  EXPECT_DOUBLE_EQ(lowerBound(cm), sim.run(Plan::singleDevice(f.g.numOps())).lowerBound);
}

// The fused bound allows for a kernel charged at the rate of its heaviest op, which may be far
// above a lighter op's own (a slow Elementwise fused into a fast MatMul), and for a calibrated
// op alone in its group (the simulator charges it its measured time). mm -> relu -> relu2.
TEST(Cost, LowerBoundStaysBelowFusedAndCalibratedSteps) {
  GraphBuilder b("mmrelu");
  TensorId a = b.addGraphInput({"a", {1024, 1024}});
  TensorId w = b.addParameter({"w", {1024, 1024}});
  OpId mm = b.addOp({.name = "mm", .type = "MatMul", .inputs = {a, w}, .outputs = {{"y", {1024, 1024}}}, .flops = 2e9});
  OpId relu = b.addOp(
      {.name = "relu", .type = "Relu", .inputs = {b.output(mm)}, .outputs = {{"r", {1024, 1024}}}, .flops = 1e9});
  b.addOp({.name = "relu2", .type = "Relu", .inputs = {b.output(relu)}, .outputs = {{"r2", {1024, 1024}}}, .flops = 1});
  Graph g = std::move(b).build("mmrelu");
  const double relu2 = 5e-6 + 2 * kMiB4 / 1000e9;  // memory-bound on G

  Cluster c = twoKinds(R"(, "efficiency": {"MatMul": 1, "Elementwise": 0.01})");
  CostModel cm(g, c, plain());
  Simulator sim(cm);
  // mm + relu as one kernel on G: 3e9 FLOPs at 10 TFLOP/s x 1.0 = 300 us (memory 12.6 us) + 5 us
  Measurement fused = sim.run(Plan{{0, 0, 0}, {}, {0, 0, -1}});
  ASSERT_TRUE(fused.feasible) << fused.problem;
  EXPECT_NEAR(fused.stepTime, 5e-6 + 3e9 / 10e12 + relu2, 1e-12);
  // bound: mm 200 us + relu at its group's best rate (the MatMul's) 100 us + relu2; counting
  // relu at its own rate would give 200 + min(10 ms on G, 400 us on S) + relu2 > the step
  EXPECT_NEAR(fused.lowerBound, 3e9 / 10e12 + relu2, 1e-12);
  EXPECT_LE(fused.lowerBound, fused.stepTime);

  Cluster plainCluster = twoKinds();
  CalibrationTable t;
  const std::vector<std::vector<int64_t>> shapes{{1024, 1024}, {1024, 1024}};
  t.add("MatMul", shapes, DType::F32, "G", 1e-6);
  CostModel cal(g, plainCluster, plain(), &t);
  Simulator csim(cal);
  // mm alone in group 0 runs as itself (1 us measured), relu + relu2 as one Elementwise kernel:
  // 5 us + (1e9 + 1) / (10 TFLOP/s x 0.5)
  Measurement m = csim.run(Plan{{0, 0, 0}, {}, {0, 1, 1}});
  ASSERT_TRUE(m.feasible) << m.problem;
  EXPECT_NEAR(m.stepTime, 1e-6 + 5e-6 + (1e9 + 1) / 5e12, 1e-12);
  // mm counts its measured 1 us, not its 200 us of arithmetic (which would exceed the step)
  EXPECT_NEAR(m.lowerBound, 1e-6 + (1e9 + 1) / 5e12, 1e-12);
  EXPECT_LE(m.lowerBound, m.stepTime);
}

TEST(Cost, TransferAlongMultiHopRoute) {
  Fixture f = graph();
  Cluster two = twoKinds();
  CostModel cm(f.g, two, plain());
  EXPECT_EQ(cm.transferTime(1'000'000, 0, 0), 0.0);
  // gpu0 -> sw -> gpu1: 1 + 2 us, bottleneck 8 GB/s.
  EXPECT_DOUBLE_EQ(cm.transferTime(8'000'000, 0, 1), 3e-6 + 1e-3);
  EXPECT_DOUBLE_EQ(cm.transferTime(8'000'000, 1, 0), 3e-6 + 1e-3);

  Cluster p100 = loadCluster("4xP100-PCIe");
  CostModel pm(f.g, p100, plain());
  // gpu0 -> plx0 -> cpu0 -> plx1 -> gpu2: four 1.5 us PCIe 3.0 x16 hops at 15.75 GB/s.
  EXPECT_DOUBLE_EQ(pm.transferTime(15'750'000, 0, 2), 6e-6 + 1e-3);
  EXPECT_DOUBLE_EQ(pm.transferTime(15'750'000, 0, 1), 3e-6 + 1e-3);
  Cluster dgx = loadCluster("8xV100-DGX1");
  CostModel dm(f.g, dgx, plain());
  EXPECT_LT(dm.transferTime(100'000'000, 0, 3), dm.transferTime(100'000'000, 0, 1));  // NVLink x2 vs x1
  EXPECT_LT(dm.transferTime(100'000'000, 0, 1), dm.transferTime(100'000'000, 0, 7));  // NVLink vs PCIe+QPI
}

TEST(Cost, ClassifyOpTable) {
  struct Case {
    const char* type;
    OpClass cls;
  };
  const Case cases[] = {
      {"MatMul", OpClass::MatMul},
      {"Gemm", OpClass::MatMul},
      {"BatchMatMulV2", OpClass::MatMul},
      {"Einsum", OpClass::MatMul},
      {"aten::linear", OpClass::MatMul},
      {"aten::addmm", OpClass::MatMul},
      {"MatMulGrad", OpClass::MatMul},
      {"Conv", OpClass::Conv},
      {"Conv2D", OpClass::Conv},
      {"DepthwiseConv2dNative", OpClass::Conv},
      {"aten::_convolution", OpClass::Conv},
      {"Conv2DGrad", OpClass::Conv},
      {"ConvTranspose", OpClass::Conv},
      {"Relu", OpClass::Elementwise},
      {"aten::relu_", OpClass::Elementwise},
      {"Add", OpClass::Elementwise},
      {"AddV2", OpClass::Elementwise},
      {"BiasAdd", OpClass::Elementwise},
      {"Gelu", OpClass::Elementwise},
      {"AddN", OpClass::Elementwise},
      {"ApplyAdam", OpClass::Elementwise},
      {"TanhGrad", OpClass::Elementwise},
      {"Sum", OpClass::Reduction},
      {"ReduceMean", OpClass::Reduction},
      {"Softmax", OpClass::Reduction},
      {"Loss", OpClass::Reduction},
      {"LossGrad", OpClass::Reduction},
      {"MaxPool", OpClass::Reduction},
      {"aten::max_pool2d", OpClass::Reduction},
      {"FusedBatchNorm", OpClass::Normalization},
      {"FusedBatchNormV3", OpClass::Normalization},
      {"BatchNormalization", OpClass::Normalization},
      {"LayerNorm", OpClass::Normalization},
      {"aten::layer_norm", OpClass::Normalization},
      {"GatherV2", OpClass::DataMovement},
      {"ConcatV2", OpClass::DataMovement},
      {"Transpose", OpClass::DataMovement},
      {"StridedSlice", OpClass::DataMovement},
      {"Pack", OpClass::DataMovement},
      {"aten::cat", OpClass::DataMovement},
      {"aten::embedding", OpClass::DataMovement},
      {"LSTM", OpClass::Recurrent},
      {"aten::lstm", OpClass::Recurrent},
      {"BlockLSTM", OpClass::Recurrent},
      {"SomethingElse", OpClass::Other},
      {"Op", OpClass::Other},
  };
  for (const Case& c : cases) EXPECT_EQ(classifyOp(c.type), c.cls) << c.type;
  EXPECT_TRUE(isMetadataOp("Reshape"));
  EXPECT_TRUE(isMetadataOp("aten::view"));
  EXPECT_TRUE(isMetadataOp("prim::ListConstruct"));
  EXPECT_TRUE(isMetadataOp("ExpandDims"));
  EXPECT_FALSE(isMetadataOp("Transpose"));
  EXPECT_FALSE(isMetadataOp("MatMul"));
  EXPECT_EQ(opClassName(OpClass::Normalization), "Normalization");
}
