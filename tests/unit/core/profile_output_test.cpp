// From a synthetic ProfileResult (two H100s, as the CUDA plugin would fill it) to the files:
// the cluster JSON loads and the simulator runs on it with the measured link, the calibration
// table loads and overrides the cost model, the summary names the key figures, errors are clear.
#include "profile/profile_output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "graph/graph_builder.h"
#include "sim/simulator.h"
#include "synthetic_profile.h"

using namespace gp;

namespace {

constexpr double kLatency = gptest::kSyntheticLatency, kBandwidth = gptest::kSyntheticBandwidth;
using gptest::bench;
using gptest::h100;
using gptest::twoH100s;

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_profile_" + std::to_string(::getpid()) + "_" + name)).string();
}

}  // namespace

TEST(ProfileOutput, SummaryHasPeaksEfficienciesAndTheFittedLink) {
  const ProfileResult r = twoH100s();
  const ProfileSummary s = summarizeProfile(r);
  ASSERT_EQ(s.kinds.size(), 1u);
  const KindSummary& k = s.kinds[0];
  EXPECT_EQ(k.kind, "H100-80GB-HBM3");
  EXPECT_EQ(k.devices, (std::vector<int>{0, 1}));
  EXPECT_TRUE(k.peakFromTable);
  const auto f32 = static_cast<size_t>(PeakType::F32), f16 = static_cast<size_t>(PeakType::F16);
  EXPECT_NEAR(k.peak[f32], 66.9e12, 0.1e12);
  EXPECT_NEAR(k.bestMatMul[f32], 54e12, 1e9);   // the better device
  EXPECT_NEAR(k.bestMatMul[f16], 700e12, 1e9);  // the bigger GEMM, not the 300 TF small one
  ASSERT_TRUE(k.efficiency[static_cast<size_t>(OpClass::MatMul)]);
  EXPECT_NEAR(*k.efficiency[static_cast<size_t>(OpClass::MatMul)], 54e12 / k.peak[f32], 1e-9);
  ASSERT_TRUE(k.matmulEfficiency[f16]);
  EXPECT_NEAR(*k.matmulEfficiency[f16], 700e12 / k.peak[f16], 1e-9);
  ASSERT_TRUE(k.efficiency[static_cast<size_t>(OpClass::Conv)]);
  EXPECT_NEAR(*k.efficiency[static_cast<size_t>(OpClass::Conv)], 40e12 / k.peak[f32], 1e-9);
  EXPECT_FALSE(k.efficiency[static_cast<size_t>(OpClass::Elementwise)]);  // memory-bound: a bandwidth fraction
  EXPECT_NEAR(*k.bandwidthFraction[static_cast<size_t>(OpClass::Elementwise)], 0.9, 1e-9);
  EXPECT_NEAR(*k.bandwidthFraction[static_cast<size_t>(OpClass::Reduction)], 0.8, 1e-9);
  EXPECT_DOUBLE_EQ(k.memBandwidth, 3e12);
  EXPECT_DOUBLE_EQ(k.launchOverhead, 2.5e-6);
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_NEAR(s.links[0].bandwidth, kBandwidth, 0.01 * kBandwidth);
  EXPECT_NEAR(s.links[0].latency, kLatency, 0.01 * kLatency);
  EXPECT_TRUE(s.links[0].peerAccess);
}

TEST(ProfileOutput, ClusterFileLoadsAndTheSimulatorRunsOnIt) {
  const ProfileResult r = twoH100s();
  const ProfileSummary s = summarizeProfile(r);
  const std::string path = tempPath("cluster.json");
  writeTextFileAtomically(path, profileClusterJson(r, s, "my-h100s"));
  const Cluster c = loadCluster(path);
  std::filesystem::remove(path);
  EXPECT_EQ(c.name(), "my-h100s");
  ASSERT_EQ(c.numDevices(), 2);
  EXPECT_EQ(c.device(0).name, "gpu0");
  EXPECT_EQ(c.device(1).kind, "H100-80GB-HBM3");
  EXPECT_NEAR(c.device(0).peakFlops(DType::F32), 66.9e12, 0.1e12);
  EXPECT_NEAR(c.device(0).peakFlops(DType::F16), 1070e12, 1e12);
  EXPECT_NEAR(c.device(0).memBandwidth, 3e12, 1e9);
  EXPECT_NEAR(c.device(0).launchOverhead, 2.5e-6, 1e-12);
  EXPECT_NEAR(static_cast<double>(c.device(0).memCapacity), 85'520'809'984.0, 1e-5 * 85'520'809'984.0);
  EXPECT_NEAR(c.routeBandwidth(0, 1), kBandwidth, 0.01 * kBandwidth);
  EXPECT_NEAR(c.routeLatency(1, 0), kLatency, 0.01 * kLatency);
  EXPECT_EQ(c.channel(c.route(0, 1).front()).kind, "P2P");
  EXPECT_FALSE(c.description().empty());
  ASSERT_GE(c.sources().size(), 2u);
  EXPECT_NE(c.sources()[1].find("TFLOP/s"), std::string::npos) << c.sources()[1];

  // a producer on gpu0 and its consumer on gpu1: the 100 MB tensor takes latency + bytes / bandwidth
  GraphBuilder b("two");
  OpId a = b.addOp({.name = "a", .type = "MatMul", .outputs = {{"t", {25'000'000}}}, .flops = 1e9});
  b.addOp({.name = "b", .type = "MatMul", .inputs = {b.output(a)}, .outputs = {{"u", {1}}}, .flops = 1e9});
  Graph g = std::move(b).build("two");
  CostModel cost(g, c);
  Simulator sim(cost);
  Measurement m = sim.run(Plan{{0, 1}, {}, {}});
  ASSERT_TRUE(m.feasible) << m.problem;
  EXPECT_EQ(m.commBytes, 100'000'000);
  const TimelineEvent* transfer = nullptr;
  for (const TimelineEvent& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Transfer) transfer = &e;
  ASSERT_NE(transfer, nullptr);
  EXPECT_NEAR(transfer->end - transfer->start, kLatency + 1e8 / kBandwidth, 0.01 * (1e8 / kBandwidth));
  EXPECT_GT(m.stepTime, transfer->end);
}

TEST(ProfileOutput, CalibrationTableLoadsAndOverridesTheRoofline) {
  const ProfileResult r = twoH100s();
  const ProfileSummary s = summarizeProfile(r);
  const CalibrationTable t = profileCalibration(r, s);
  EXPECT_EQ(t.size(), 6u);  // 3 GEMMs, conv, add, sum; not the copy (calibrate = false)
  const std::string path = tempPath("calibration.json");
  writeTextFileAtomically(path, profileCalibrationJson(r, t));
  const CalibrationTable loaded = CalibrationTable::load(path);
  std::filesystem::remove(path);
  ASSERT_EQ(loaded.size(), t.size());
  const std::vector<std::vector<int64_t>> shapes = {{4096, 4096}, {4096, 4096}};
  const auto f32 = loaded.lookup("MatMul", shapes, DType::F32, "H100-80GB-HBM3");
  ASSERT_TRUE(f32);
  // the median over the kind's two devices, launch included
  const double gemm = 2 * 4096.0 * 4096 * 4096;
  EXPECT_NEAR(*f32, 0.5 * (gemm / 50e12 + gemm / 54e12) + 3e-6, 1e-12);

  // the cost model uses it for a matching op on the profiled cluster
  const std::string cpath = tempPath("cluster2.json");
  writeTextFileAtomically(cpath, profileClusterJson(r, s, "c"));
  const Cluster c = loadCluster(cpath);
  std::filesystem::remove(cpath);
  GraphBuilder b("mm");
  TensorId x = b.addGraphInput({"x", {4096, 4096}});
  TensorId w = b.addParameter({"w", {4096, 4096}});
  b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"y", {4096, 4096}}}, .flops = gemm});
  Graph g = std::move(b).build("mm");
  CostModel cost(g, c, {}, &loaded);
  EXPECT_TRUE(cost.calibrated(0, 1));
  EXPECT_DOUBLE_EQ(cost.opTime(0, 1), *f32);
}

TEST(ProfileOutput, UnknownArchitectureUsesTheBestMeasuredGemmAsPeak) {
  ProfileResult r = twoH100s();
  r.devices.resize(1);
  r.peers.clear();
  r.devices[0].gpu.name = "NVIDIA Future GPU";
  r.devices[0].gpu.ccMajor = 13;
  const ProfileSummary s = summarizeProfile(r);
  const KindSummary& k = s.kinds[0];
  EXPECT_FALSE(k.peakFromTable);
  EXPECT_NEAR(k.peak[static_cast<size_t>(PeakType::F32)], 50e12, 1e9);
  EXPECT_NEAR(*k.efficiency[static_cast<size_t>(OpClass::MatMul)], 1.0, 1e-12);
  EXPECT_EQ(k.peak[static_cast<size_t>(PeakType::F64)], 0.0);  // not measured: left out of the file
  const Cluster c = parseClusterJson(profileClusterJson(r, s, "one"), "one.json");
  EXPECT_EQ(c.numDevices(), 1);
  EXPECT_EQ(c.numChannels(), 0);
  EXPECT_DOUBLE_EQ(c.device(0).peakFlops(DType::F64), c.device(0).peakFlops(DType::F32));
}

TEST(ProfileOutput, SummaryTextAndReportJson) {
  const ProfileResult r = twoH100s();
  const ProfileSummary s = summarizeProfile(r);
  const std::string text = profileSummaryText(r, s);
  for (const char* want :
       {"profiled 2 GPU(s) on testhost", "H100-80GB-HBM3", "GEMM", "f32 54 TFLOP/s", "f16 700 TFLOP/s",
        "memory bandwidth 3000 GB/s", "launch overhead 2.5 us", "gpu0 <-> gpu1", "P2P"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  const auto j = nlohmann::json::parse(profileReportJson(r, s));
  EXPECT_EQ(j["timer"], "cupti");
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"][0]["benchmarks"].size(), 7u);
  EXPECT_EQ(j["kinds"][0]["matmul_TFLOPS"]["f16"], 700);
  EXPECT_TRUE(j["kinds"][0]["efficiency"].contains("MatMul"));
  EXPECT_NEAR(j["links"][0]["bandwidth_GBps"].get<double>(), 400, 4);
  EXPECT_EQ(j["links"][0]["fits"].size(), 2u);
}

TEST(ProfileOutput, MissingMeasurementsAreClearErrors) {
  auto expectError = [](const ProfileResult& r, const std::string& want) {
    try {
      summarizeProfile(r);
      FAIL() << "no error for " << want;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  expectError(ProfileResult{}, "no GPU was profiled");
  ProfileResult noPeers = twoH100s();
  noPeers.peers.clear();
  expectError(noPeers, "no transfers were measured between gpu0 and gpu1");
  ProfileResult unmeasured = twoH100s();
  for (auto& d : unmeasured.devices) d.measured = false;
  expectError(unmeasured, "no GPU of kind H100-80GB-HBM3 was measured");
  ProfileResult flat = twoH100s();
  for (auto& p : flat.peers)
    for (auto& x : p.samples) x.bytes = 4096;
  expectError(flat, "gpu0 <-> gpu1: need transfers of at least 2 distinct sizes");
  ProfileResult oneWay = twoH100s();  // one direction measured: used for both
  oneWay.peers.pop_back();
  EXPECT_EQ(summarizeProfile(oneWay).links.size(), 1u);
  EXPECT_THROW(writeTextFileAtomically("/nonexistent-dir/x.json", "{}"), Error);
}

// The measured GEMM / conv efficiencies go into device_kinds.K.efficiency (MatMul = f32, the
// other GEMM types as "MatMul.f16", Conv), load back, and set a MatMul op's simulated time:
// FLOPs / the measured best FLOP/s instead of FLOPs / (peak x the 0.7 default).
TEST(ProfileOutput, ClusterFileCarriesTheMeasuredEfficiencies) {
  const ProfileResult r = twoH100s();
  const ProfileSummary s = summarizeProfile(r);
  const KindSummary& k = s.kinds[0];
  const auto f32 = static_cast<size_t>(PeakType::F32), f16 = static_cast<size_t>(PeakType::F16);
  const std::string text = profileClusterJson(r, s, "measured");
  const auto j = nlohmann::ordered_json::parse(text);
  const auto& eff = j["device_kinds"]["H100-80GB-HBM3"]["efficiency"];
  std::vector<std::string> keys;
  for (auto it = eff.begin(); it != eff.end(); ++it) keys.push_back(it.key());
  // no Elementwise / Reduction: their bandwidth fractions are not FLOP efficiencies
  EXPECT_EQ(keys, (std::vector<std::string>{"MatMul", "MatMul.f16", "Conv"}));

  const Cluster c = parseClusterJson(text, "measured.json");
  const DeviceSpec& d = c.device(1);
  EXPECT_NEAR(d.efficiency(OpClass::MatMul, DType::F32), 54e12 / k.peak[f32], 1e-3);
  EXPECT_NEAR(d.efficiency(OpClass::MatMul, DType::F16), 700e12 / k.peak[f16], 1e-3);
  EXPECT_NEAR(d.efficiency(OpClass::Conv, DType::F32), 40e12 / k.peak[f32], 1e-3);
  EXPECT_EQ(d.efficiency(OpClass::Elementwise, DType::F32), 0.0);

  // one uncalibrated 4096^3 f32 MatMul on gpu0: launch + FLOPs / 54 TFLOP/s (compute-bound:
  // 2.5 ms against 67 us of memory traffic), within the files' 4 significant digits
  const double gemm = 2 * 4096.0 * 4096 * 4096;
  GraphBuilder b("mm");
  TensorId x = b.addGraphInput({"x", {4096, 4096}});
  TensorId w = b.addParameter({"w", {4096, 4096}});
  b.addOp({.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"y", {4096, 4096}}}, .flops = gemm});
  Graph g = std::move(b).build("mm");
  CostModel cost(g, c);
  Simulator sim(cost);
  const Measurement m = sim.run(Plan::singleDevice(1));
  ASSERT_TRUE(m.feasible) << m.problem;
  const double fill = CostParams{}.fillTimeOf(OpClass::MatMul);
  const double measured = 2.5e-6 + gemm / 54e12 + fill;
  EXPECT_NEAR(m.stepTime, measured, 2e-3 * measured);
  EXPECT_LE(m.lowerBound, m.stepTime);
  // without the efficiencies the default MatMul efficiency of the 66.9 TFLOP/s peak: faster
  // than this H100 measured
  auto stripped = j;
  stripped["device_kinds"]["H100-80GB-HBM3"].erase("efficiency");
  const Cluster plain = parseClusterJson(stripped.dump(), "plain.json");
  CostModel plainCost(g, plain);
  const double byDefault =
      2.5e-6 + gemm / (plain.device(0).peakFlops(DType::F32) * CostParams{}.efficiencyOf(OpClass::MatMul)) + fill;
  EXPECT_NEAR(plainCost.opTime(0, 0), byDefault, 1e-12);
  EXPECT_LT(byDefault / m.stepTime, 0.95);
}

TEST(ProfileOutput, EfficiencyAbovePeakIsClampedToOne) {
  ProfileResult r = twoH100s();
  for (auto& dev : r.devices)
    for (auto& kb : dev.kernels)
      if (kb.opClass == OpClass::MatMul && kb.dtype == DType::F32) kb.kernelSeconds = kb.flops / 70e12;  // > 66.9 peak
  const ProfileSummary s = summarizeProfile(r);
  EXPECT_GT(*s.kinds[0].efficiency[static_cast<size_t>(OpClass::MatMul)], 1.0);  // the report keeps the raw figure
  const Cluster c = parseClusterJson(profileClusterJson(r, s, "fast"), "fast.json");
  EXPECT_DOUBLE_EQ(c.device(0).efficiency(OpClass::MatMul, DType::F32), 1.0);
}
