// The parts of the cost model that make its defaults realistic, each against a hand
// derivation: fill time of small GEMMs, the framework's per-op overhead and memory share, the
// bandwidth efficiency, precision (mixed precision halves activation bytes; TF32 math; tensor
// cores need aligned reductions), Winograd for 3x3 convolutions, in-place elementwise ops and
// gradients that read their op's output. And a calibrated time still replaces the roofline.
#include <gtest/gtest.h>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "cost/kernel_shape.h"
#include "fidelity/kernel_workloads.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "graph/precision.h"
#include "graph/training.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

// One device: 10 TFLOP/s f32, 100 f16, 40 tf32; 1 TB/s; 16 GiB; 5 us launch.
Cluster device(const std::string& framework = "\"cuda\"", const std::string& extra = "") {
  return parseClusterJson(R"({"name": "d", "framework": )" + framework + R"(,
    "device_kinds": {"G": {"peak_TFLOPS": {"f32": 10, "f16": 100, "tf32": 40}, "memory_bandwidth_GBps": 1000,
                           "memory_GiB": 16, "launch_overhead_us": 5)" + extra + R"(}},
    "devices": [{"name": "gpu0", "kind": "G"}], "links": []})",
                          "d.json");
}

Graph gemm(int64_t m, int64_t n, int64_t k) { return kernelGraph("gemm", {{"m", m}, {"n", n}, {"k", k}}); }

const CostParams kDefaults;

}  // namespace

TEST(RealisticCosts, SmallGemmsPayAFillTime) {
  const Cluster c = device();
  const double eff = kDefaults.efficiencyOf(OpClass::MatMul), fill = kDefaults.fillTimeOf(OpClass::MatMul);
  const Graph big = gemm(4096, 4096, 4096), small = gemm(64, 64, 64);
  EXPECT_DOUBLE_EQ(CostModel(big, c).opTime(0, 0), 5e-6 + 2.0 * 4096 * 4096 * 4096 / (10e12 * eff) + fill);
  // 64^3: 0.06 us of FLOPs, 48 KiB of memory: the fill time dominates
  EXPECT_DOUBLE_EQ(CostModel(small, c).opTime(0, 0), 5e-6 + 2.0 * 64 * 64 * 64 / (10e12 * eff) + fill);
  EXPECT_GT(fill, 10e-6);
}

TEST(RealisticCosts, BandwidthEfficiencyFromTheKindOrTheDefault) {
  GraphBuilder b("relu");
  TensorId x = b.addGraphInput({"x", {1024, 1024}});
  b.addOp({.name = "r", .type = "Relu", .inputs = {x}, .outputs = {{"y", {1024, 1024}}}, .flops = 1 << 20});
  const Graph g = std::move(b).build("relu");
  const double bytes = 8.0 * 1024 * 1024;
  EXPECT_DOUBLE_EQ(CostModel(g, device()).opTime(0, 0), 5e-6 + bytes / (1000e9 * kDefaults.bandwidthEfficiency));
  EXPECT_DOUBLE_EQ(CostModel(g, device("\"cuda\"", R"(, "bandwidth_efficiency": 0.5)")).opTime(0, 0),
                   5e-6 + bytes / 500e9);
  EXPECT_THROW(device("\"cuda\"", R"(, "bandwidth_efficiency": 1.5)"), Error);
}

TEST(RealisticCosts, FrameworkOverheadAndMemory) {
  const Graph small = gemm(8, 8, 8), big = gemm(4096, 4096, 4096);
  const Cluster cuda = device(), tf = device("\"tf1-graph\""), own = device(
      R"({"name": "mine", "op_overhead_us": 100, "reserved_memory_GiB": 1, "fragmentation": 0.25})");
  const FrameworkSpec tfSpec = frameworkPreset("tf1-graph");
  EXPECT_EQ(tf.framework().name, "tf1-graph");
  EXPECT_GT(tfSpec.opOverhead, 0);
  // a tiny kernel takes the host's per-op time; a big one hides it
  EXPECT_DOUBLE_EQ(CostModel(small, own).opTime(0, 0), 100e-6);
  EXPECT_DOUBLE_EQ(CostModel(big, own).opTime(0, 0), CostModel(big, cuda).opTime(0, 0));
  EXPECT_DOUBLE_EQ(CostModel(small, tf).opTime(0, 0),
                   std::max(tfSpec.opOverhead, CostModel(small, cuda).opTime(0, 0)));
  // usable memory: (16 GiB - 1 GiB) / 1.25 = 12 GiB
  EXPECT_EQ(own.device(0).memCapacity, int64_t{12} << 30);
  EXPECT_EQ(own.device(0).memPhysical, int64_t{16} << 30);
  EXPECT_EQ(cuda.device(0).memCapacity, int64_t{16} << 30);
  // the cluster file round-trips its framework
  const Cluster again = parseClusterJson(own.toJson(), "again.json");
  EXPECT_EQ(again.framework().name, "mine");
  EXPECT_EQ(again.device(0).memCapacity, own.device(0).memCapacity);
  EXPECT_EQ(parseClusterJson(tf.toJson(), "tf.json").framework().opOverhead, tfSpec.opOverhead);
  // errors name the file and field
  try {
    device("\"caffe\"");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown framework 'caffe'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(device(R"({"fragmentation": 3})"), Error);
  EXPECT_THROW(device(R"({"op_overhead_us": -1})"), Error);
  EXPECT_THROW(device(R"({"speed": 1})"), Error);
  try {  // a reserve as large as the device leaves nothing
    device(R"({"reserved_memory_GiB": 16})");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no memory is left for the model"), std::string::npos) << e.what();
  }
}

TEST(RealisticCosts, CalibrationStillReplacesTheRoofline) {
  const Graph g = gemm(1024, 1024, 1024);
  CalibrationTable t;
  const std::vector<std::vector<int64_t>> shapest{{1024, 1024}, {1024, 1024}};
  t.add("MatMul", shapest, DType::F32, "G", 3e-3);
  EXPECT_DOUBLE_EQ(CostModel(g, device("\"pytorch-eager\""), {}, &t).opTime(0, 0), 3e-3);
  // a measured kernel shorter than the host's per-op time waits for the host
  CalibrationTable fast;
  const std::vector<std::vector<int64_t>> shapesfast{{1024, 1024}, {1024, 1024}};
  fast.add("MatMul", shapesfast, DType::F32, "G", 1e-6);
  const Cluster slowHost = device(R"({"op_overhead_us": 50})");
  EXPECT_DOUBLE_EQ(CostModel(g, slowHost, {}, &fast).opTime(0, 0), 50e-6);
  EXPECT_TRUE(CostModel(g, slowHost, {}, &fast).calibrated(0, 0));
}

TEST(RealisticCosts, MixedPrecisionHalvesActivationsAndKeepsParametersF32) {
  GraphBuilder b("mlp");
  TensorId x = b.addGraphInput({"x", {4096, 1024}});
  TensorId w = b.addParameter({"w", {1024, 1024}});
  OpId mm = b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"y", {4096, 1024}}},
                     .flops = 2.0 * 4096 * 1024 * 1024});
  b.addOp({.name = "relu", .type = "Relu", .inputs = {b.output(mm)}, .outputs = {{"r", {4096, 1024}}}, .flops = 1 << 22});
  const Graph f32 = deriveTrainingGraph(std::move(b).build("mlp"));
  const Graph f16 = withPrecision(f32, Precision::FP16);
  for (TensorId t = 0; t < f32.numTensors(); ++t) {
    SCOPED_TRACE(f32.tensorName(t));
    const bool param = f32.tensorKind(t) == TensorKind::Parameter;
    if (f32.dtype(t) != DType::F32 || param) {
      EXPECT_EQ(f16.dtype(t), f32.dtype(t));
      EXPECT_EQ(f16.tensorBytes(t), f32.tensorBytes(t));
    } else {
      EXPECT_EQ(f16.dtype(t), DType::F16);
      EXPECT_EQ(f16.tensorBytes(t) * 2, f32.tensorBytes(t));
    }
  }
  // an update reads its gradient in f16, its f32 parameter and moments as before; the relu reads
  // and writes half the bytes; the matmul reads half of x and all of w
  int updates = 0;
  for (OpId op = 0; op < f32.numOps(); ++op)
    if (f32.role(op) == OpRole::Update) {
      ++updates;
      EXPECT_EQ(f16.bytesRead(op), f32.bytesRead(op) - 1024 * 1024 * 2) << f32.opName(op);  // w's gradient
    }
  EXPECT_EQ(updates, 1);
  const OpId relu = f32.findOp("relu");
  EXPECT_EQ(f16.bytesRead(relu) * 2, f32.bytesRead(relu));
  EXPECT_EQ(f16.bytesRead(mm), f32.bytesRead(mm) - 4096 * 1024 * 2);
  EXPECT_EQ(f16.paramBytes(mm), f32.paramBytes(mm));
  // the matmul runs at the f16 rate
  const Cluster c = device();
  EXPECT_EQ(CostModel(f16, c).opDType(mm), DType::F16);
  EXPECT_LT(CostModel(f16, c).opTime(mm, 0), CostModel(f32, c).opTime(mm, 0) / 3);
  EXPECT_EQ(parsePrecision("bf16"), Precision::BF16);
  EXPECT_THROW(parsePrecision("fp12"), Error);
}

TEST(RealisticCosts, Tf32MathAndTensorCoreAlignment) {
  const Cluster c = device();
  const double fill = kDefaults.fillTimeOf(OpClass::MatMul);
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const Graph g = gemm(4096, 4096, 4096);
  const Graph tf32 = withPrecision(g, Precision::TF32);
  EXPECT_TRUE(tf32.tf32Math());
  EXPECT_DOUBLE_EQ(CostModel(tf32, c).opTime(0, 0),
                   5e-6 + flops / (40e12 * kDefaults.efficiencyOf(OpClass::MatMul)) + fill);
  // a device without TF32 units lists none: f32 rate
  const Cluster noTf32 = parseClusterJson(R"({"name": "v", "device_kinds": {"V": {"peak_TFLOPS": {"f32": 10},
      "memory_bandwidth_GBps": 1000, "memory_GiB": 16, "launch_overhead_us": 5}}, "devices": [{"name": "gpu0",
      "kind": "V"}], "links": []})", "v.json");
  EXPECT_DOUBLE_EQ(CostModel(tf32, noTf32).opTime(0, 0), CostModel(g, noTf32).opTime(0, 0));
  // f16 with K = 4099 (not a multiple of 8) runs at the f32 rate; K = 4096 at the f16 rate
  const Graph odd = withPrecision(gemm(4096, 4096, 4099), Precision::FP16);
  const Graph even = withPrecision(gemm(4096, 4096, 4096), Precision::FP16);
  EXPECT_EQ(kernelShapeOf(odd, 0).reduction, 4099);
  const double eff = kDefaults.efficiencyOf(OpClass::MatMul);
  EXPECT_NEAR(CostModel(odd, c).opTime(0, 0), 5e-6 + 2.0 * 4096 * 4096 * 4099 / (10e12 * eff) + fill, 1e-12);
  EXPECT_NEAR(CostModel(even, c).opTime(0, 0), 5e-6 + flops / (100e12 * eff) + fill, 1e-12);
}

TEST(RealisticCosts, Tf32ConvolutionsKeepTheirDefaultUnlessTheKindListsTf32) {
  const Graph conv = withPrecision(kernelGraph("conv", {{"n", 16}, {"c", 64}, {"h", 56}, {"w", 56}, {"k", 64}, {"r", 1},
                                                       {"s", 1}, {"stride", 1}, {"pad", 0}}),
                                   Precision::TF32);
  // a profiled "Conv" (measured in f32) does not set the TF32 convolutions' efficiency
  const Cluster profiled = device("\"cuda\"", R"(, "efficiency": {"Conv": 0.6})");
  const CostModel listed(conv, profiled);
  EXPECT_DOUBLE_EQ(CostModel(kernelGraph("conv", {{"n", 1}, {"c", 8}, {"h", 8}, {"w", 8}, {"k", 8}, {"r", 1}, {"s", 1}, {"stride", 1}}),
                             profiled)
                       .kernelComputeRate(0, 0),
                   10e12 * 0.6);  // f32: the kind's listing
  EXPECT_DOUBLE_EQ(listed.kernelComputeRate(0, 0), 40e12 * kDefaults.tf32ConvEfficiency);
  const Cluster tf32Listed = device("\"cuda\"", R"(, "efficiency": {"Conv": 0.6, "Conv.tf32": 0.7})");
  const CostModel typed(conv, tf32Listed);
  EXPECT_DOUBLE_EQ(typed.kernelComputeRate(0, 0), 40e12 * 0.7);
}

TEST(RealisticCosts, WinogradForF32ThreeByThreeStrideOneConvolutions) {
  const Cluster c = device();
  auto conv = [](int r, int stride) {
    return kernelGraph("conv", {{"n", 16}, {"c", 64}, {"h", 56}, {"w", 56}, {"k", 64}, {"r", r}, {"s", r},
                                {"stride", stride}, {"pad", 1}});
  };
  const Graph k3 = conv(3, 1), k3s2 = conv(3, 2), k1 = conv(1, 1);
  EXPECT_TRUE(kernelShapeOf(k3, 0).winograd);
  EXPECT_FALSE(kernelShapeOf(k3s2, 0).winograd);
  EXPECT_FALSE(kernelShapeOf(k1, 0).winograd);
  EXPECT_EQ(kernelShapeOf(k3, 0).reduction, 64);
  const double eff = kDefaults.efficiencyOf(OpClass::Conv), fill = kDefaults.fillTimeOf(OpClass::Conv);
  EXPECT_NEAR(CostModel(k3, c).opTime(0, 0), 5e-6 + k3.flops(0) / kDefaults.winogradSpeedup / (10e12 * eff) + fill,
              1e-12);
  EXPECT_NEAR(CostModel(k3s2, c).opTime(0, 0), 5e-6 + k3s2.flops(0) / (10e12 * eff) + fill, 1e-12);
  // in f16 the tensor-core kernel runs the direct FLOPs
  const Graph h = withPrecision(k3, Precision::FP16);
  EXPECT_NEAR(CostModel(h, c).opTime(0, 0), 5e-6 + k3.flops(0) / (100e12 * eff) + fill, 1e-12);
  // valid padding (56 -> 54) is stride 1 too
  const Graph valid = kernelGraph("conv", {{"n", 16}, {"c", 64}, {"h", 56}, {"w", 56}, {"k", 64}, {"r", 3}, {"s", 3},
                                           {"stride", 1}, {"pad", 0}});
  EXPECT_EQ(valid.shape(valid.outputs(0)[0])[1], 54);
  EXPECT_TRUE(kernelShapeOf(valid, 0).winograd);
  // backward ops answer for their forward convolution
  const Graph t = deriveTrainingGraph(k3);
  int grads = 0;
  for (OpId op = 0; op < t.numOps(); ++op)
    if (t.opType(op) == "Conv2DGrad") {
      EXPECT_TRUE(kernelShapeOf(t, op).winograd);
      ++grads;
    }
  EXPECT_EQ(grads, 1);  // the weights' gradient (the image is a graph input)
  // a fused kernel led by the convolution keeps Winograd: conv + relu fused is not slower
  GraphBuilder b("convrelu");
  TensorId x = b.addGraphInput({"x", {16, 56, 56, 64}});
  TensorId w = b.addParameter({"w", {3, 3, 64, 64}});
  OpId cv = b.addOp({.name = "c", .type = "Conv2D", .inputs = {x, w}, .outputs = {{"y", {16, 56, 56, 64}}},
                     .flops = k3.flops(0)});
  b.addOp({.name = "r", .type = "Relu", .inputs = {b.output(cv)}, .outputs = {{"z", {16, 56, 56, 64}}}, .flops = 1});
  const Graph cr = std::move(b).build("convrelu");
  const CostModel crCost(cr, c);
  Simulator sim(crCost);
  const Measurement apart = sim.run(Plan::singleDevice(2));
  const Measurement fused = sim.run(Plan{{0, 0}, {}, {0, 0}});
  ASSERT_TRUE(fused.feasible) << fused.problem;
  EXPECT_LT(fused.stepTime, apart.stepTime);
  EXPECT_GE(fused.stepTime, fused.lowerBound);
  EXPECT_DOUBLE_EQ(crCost.kernelFlops(cv), k3.flops(0) / kDefaults.winogradSpeedup);
}

TEST(RealisticCosts, ElementwiseOpsWriteOverAnInputNoOneElseReads) {
  // x -> exp -> relu -> sum (which reads x too): the relu writes over exp's output (its only
  // reader), so x, ya and yr are never live at once
  GraphBuilder b("chain");
  TensorId x = b.addGraphInput({"x", {1024, 1024}});
  OpId a = b.addOp({.name = "a", .type = "Exp", .inputs = {x}, .outputs = {{"ya", {1024, 1024}}}, .flops = 1});
  OpId r = b.addOp({.name = "r", .type = "Relu", .inputs = {b.output(a)}, .outputs = {{"yr", {1024, 1024}}}, .flops = 1});
  b.addOp({.name = "s", .type = "Sum", .inputs = {b.output(r), x}, .outputs = {{"z", {1}}}, .flops = 1});
  const Graph g = std::move(b).build("chain");
  const Cluster c = device();
  const CostModel cost(g, c);
  Simulator sim(cost);
  const Measurement m = sim.run(Plan::singleDevice(g.numOps()));
  const int64_t t = int64_t{4} << 20;
  EXPECT_EQ(m.devices[0].peakMemory, 2 * t + 4);  // x, ya = yr (one buffer), z
  // a relu whose input has another reader allocates its own output
  GraphBuilder b2("fork");
  TensorId x2 = b2.addGraphInput({"x", {1024, 1024}});
  OpId a2 = b2.addOp({.name = "a", .type = "Exp", .inputs = {x2}, .outputs = {{"ya", {1024, 1024}}}, .flops = 1});
  OpId r2 = b2.addOp({.name = "r", .type = "Relu", .inputs = {b2.output(a2)}, .outputs = {{"yr", {1024, 1024}}}, .flops = 1});
  b2.addOp({.name = "s", .type = "MatMul", .inputs = {b2.output(r2), b2.output(a2)}, .outputs = {{"z", {1024, 1024}}},
            .flops = 1});
  const Graph g2 = std::move(b2).build("fork");
  const CostModel cost2(g2, c);
  Simulator sim2(cost2);
  EXPECT_EQ(sim2.run(Plan::singleDevice(g2.numOps())).devices[0].peakMemory, 3 * t);

  // Two devices: ya (gpu0) is also sent to gpu1. r on gpu0 writes over ya after the transfer
  // (d delays it); m on gpu1 reads its copy later still (e delays it), and that copy is then
  // freed whole, so n's 3 MiB-wide output fits beside nothing but ym.
  GraphBuilder b3("two");
  TensorId x3 = b3.addGraphInput({"x", {1024, 1024}});
  OpId a3 = b3.addOp({.name = "a", .type = "Exp", .inputs = {x3}, .outputs = {{"ya", {1024, 1024}}}, .flops = 1});
  OpId d3 = b3.addOp({.name = "d", .type = "MatMul", .inputs = {x3, x3}, .outputs = {{"yd", {1024, 1024}}}, .flops = 1e12});
  b3.addOp({.name = "r", .type = "Add", .inputs = {b3.output(a3), b3.output(d3)}, .outputs = {{"yr", {1024, 1024}}},
            .flops = 1});
  OpId e3 = b3.addOp({.name = "e", .type = "MatMul", .inputs = {x3, x3}, .outputs = {{"ye", {1024, 1024}}}, .flops = 2e12});
  OpId m3op = b3.addOp({.name = "m", .type = "MatMul", .inputs = {b3.output(a3), b3.output(e3)}, .outputs = {{"ym", {4}}},
                        .flops = 1});
  b3.addOp({.name = "n", .type = "Exp", .inputs = {b3.output(m3op)}, .outputs = {{"yn", {3072, 1024}}}, .flops = 1});
  const Graph g3 = std::move(b3).build("two");
  const Cluster pair = parseClusterJson(R"({"name": "pair", "device_kinds": {"G": {"peak_TFLOPS": {"f32": 10},
      "memory_bandwidth_GBps": 1000, "memory_GiB": 16, "launch_overhead_us": 5}}, "devices": [{"name": "gpu0",
      "kind": "G"}, {"name": "gpu1", "kind": "G"}], "switches": [{"name": "sw", "kind": "switch"}],
      "links": [{"between": ["gpu0", "sw"], "kind": "l", "bandwidth_GBps": 10, "latency_us": 1},
                {"between": ["gpu1", "sw"], "kind": "l", "bandwidth_GBps": 10, "latency_us": 1}]})",
                                        "pair.json");
  const CostModel cost3(g3, pair);
  Simulator sim3(cost3);
  const Measurement m3 = sim3.run(Plan{{0, 0, 0, 1, 1, 1}, {}, {}});
  ASSERT_TRUE(m3.feasible) << m3.problem;
  // gpu1: x + ye + the received ya = 3t while e runs; at n: ym (16 bytes) + yn (3t)
  EXPECT_EQ(m3.devices[1].peakMemory, 3 * t + 16);
  // gpu0: x, ya, yd live while d runs; r wrote over ya
  EXPECT_EQ(m3.devices[0].peakMemory, 3 * t);
}

TEST(RealisticCosts, ActivationGradientsReadTheOutput) {
  GraphBuilder b("act");
  TensorId x = b.addGraphInput({"x", {8, 8}});
  TensorId w = b.addParameter({"w", {8, 8}});
  OpId mm = b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"y", {8, 8}}}, .flops = 1024});
  OpId relu = b.addOp({.name = "relu", .type = "Relu", .inputs = {b.output(mm)}, .outputs = {{"r", {8, 8}}}, .flops = 64});
  b.addOp({.name = "sig", .type = "Sigmoid", .inputs = {b.output(relu)}, .outputs = {{"s", {8, 8}}}, .flops = 64});
  const Graph t = deriveTrainingGraph(std::move(b).build("act"));
  for (const char* name : {"gradients/relu_grad", "gradients/sig_grad"}) {
    const OpId gop = t.findOp(name);
    ASSERT_NE(gop, kNone) << name;
    const OpId fwd = t.forwardOf(gop);
    bool readsOutput = false, readsInput = false;
    for (TensorId in : t.inputs(gop)) {
      readsOutput |= in == t.outputs(fwd)[0];
      readsInput |= in == t.inputs(fwd)[0];
    }
    EXPECT_TRUE(readsOutput) << name;
    EXPECT_FALSE(readsInput) << name;
  }
  // a MatMul's gradient still reads its saved operands
  const OpId mmGrad = t.findOp("gradients/mm_grad");
  ASSERT_NE(mmGrad, kNone);
  bool readsX = false;
  for (TensorId in : t.inputs(mmGrad)) readsX |= in == t.inputs(t.findOp("mm"))[0];
  EXPECT_TRUE(readsX);
}

TEST(RealisticCosts, PrecisionTravelsWithTheModel) {
  // TF32 math survives graph JSON; the other precisions are in the tensors' dtypes
  const Graph tf32 = withPrecision(gemm(64, 64, 64), Precision::TF32);
  const std::string text = graphToJson(tf32);
  EXPECT_NE(text.find("\"math\": \"tf32\""), std::string::npos);
  EXPECT_TRUE(parseGraphJson(text, "g.json").tf32Math());
  EXPECT_FALSE(parseGraphJson(graphToJson(gemm(64, 64, 64)), "g.json").tf32Math());
  try {
    std::string bad = text;
    bad.replace(bad.find("\"tf32\""), 6, "\"tf99\"");
    parseGraphJson(bad, "g.json");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("g.json: field 'math' must be"), std::string::npos) << e.what();
  }
  // a placement made for one precision names another graph than the fp32 model
  LoadOptions fp32, fp16;
  fp16.precision = Precision::FP16;
  EXPECT_NE(modelSha256("zoo:resnet50", fp32), modelSha256("zoo:resnet50", fp16));
  EXPECT_EQ(modelSha256("zoo:resnet50", fp32), modelSha256("zoo:resnet50", LoadOptions{}));
  const Graph loaded = loadModel("zoo:resnet50", fp16);
  EXPECT_EQ(loaded.dtype(loaded.outputs(loaded.findOp("resnet50/stem/conv1/Conv2D"))[0]), DType::F16);
}
