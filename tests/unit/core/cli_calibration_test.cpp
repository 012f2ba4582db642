// graphplace-cli --calibration TABLE.json: evaluate charges a calibrated op the table's time
// (step times with and without the table, derived by hand), the outputs say which table was used
// and how many op times it measured, baseline and bench take it too, a table naming none of the
// cluster's device kinds warns in one line, a bad table is a one-line error (exit code 1). And a
// cluster file's per-kind efficiency sets the roofline the CLI uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "cost/calibration.h"
#include "graph/graph_builder.h"
#include "io/json_io.h"

using namespace gp;

namespace {

constexpr double kMatMulFlops = 2.0 * 1024 * 1024 * 1024;
constexpr double kTableSeconds = 1.234e-3;
constexpr const char* kKind = "P100-PCIe-16GB";  // the kind of the 4xP100-PCIe preset

// A temp folder with model.json (mm: 1024^3 f32 MatMul -> relu), table.json (mm on kKind),
// other.json (mm on an H100 kind only) and bad.json.
struct Files {
  std::filesystem::path dir;
  std::string model, table, other, bad;

  Files() {
    dir = std::filesystem::temp_directory_path() / ("gp_cli_calibration_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    model = (dir / "model.json").string();
    table = (dir / "table.json").string();
    other = (dir / "other.json").string();
    bad = (dir / "bad.json").string();
    GraphBuilder b("mmrelu");
    TensorId x = b.addGraphInput({"x", {1024, 1024}});
    TensorId w = b.addParameter({"w", {1024, 1024}});
    OpId mm = b.addOp(
        {.name = "mm", .type = "MatMul", .inputs = {x, w}, .outputs = {{"y", {1024, 1024}}}, .flops = kMatMulFlops});
    b.addOp(
        {.name = "relu", .type = "Relu", .inputs = {b.output(mm)}, .outputs = {{"r", {1024, 1024}}}, .flops = 1 << 20});
    writeGraphJson(std::move(b).build("mmrelu"), model);
    const std::vector<std::vector<int64_t>> shapes{{1024, 1024}, {1024, 1024}};
    CalibrationTable t;
    t.add("MatMul", shapes, DType::F32, kKind, kTableSeconds);
    std::ofstream(table) << t.toJson();
    CalibrationTable o;
    o.add("MatMul", shapes, DType::F32, "H100-80GB-HBM3", 1e-6);
    std::ofstream(other) << o.toJson();
    std::ofstream(bad) << R"({"format": "graphplace-calibration", "entries": [)";
  }
  ~Files() { std::filesystem::remove_all(dir); }
};

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

// The cost model's time of one op on the cluster's first device: CostParams' defaults (fill
// time, bandwidth efficiency) and the cluster's framework overhead, efficiency `eff`.
double roofline(const Cluster& c, double flops, double bytes, OpClass cls, double eff) {
  const CostParams p;
  const DeviceSpec& d = c.device(0);
  const double bw = d.bandwidthEfficiency > 0 ? d.bandwidthEfficiency : p.bandwidthEfficiency;
  return std::max(c.framework().opOverhead,
                  d.launchOverhead + std::max(flops / (d.peakFlops(DType::F32) * eff) + p.fillTimeOf(cls),
                                              bytes / (d.memBandwidth * bw)));
}

double stepMs(const gptest::CliRun& r) {
  return nlohmann::json::parse(r.out)["step_time_ms"].get<double>();
}

}  // namespace

TEST(CliCalibration, EvaluateChargesTheTablesTime) {
  Files f;
  const Cluster c = loadCluster("4xP100-PCIe");
  // by hand, the single-device plan on gpu0 runs mm then relu
  const CostParams p;
  const double mmRoofline =
      roofline(c, kMatMulFlops, 3 * 4.0 * (1 << 20), OpClass::MatMul, p.efficiencyOf(OpClass::MatMul));
  const double relu =
      roofline(c, 1 << 20, 2 * 4.0 * (1 << 20), OpClass::Elementwise, p.efficiencyOf(OpClass::Elementwise));

  gptest::CliRun plain = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NEAR(stepMs(plain), (mmRoofline + relu) * 1e3, 1e-9);
  EXPECT_TRUE(nlohmann::json::parse(plain.out)["calibration"].is_null());

  gptest::CliRun cal = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe --json --calibration " + f.table);
  ASSERT_EQ(cal.code, 0) << cal.err;
  EXPECT_TRUE(cal.err.empty()) << cal.err;
  EXPECT_NEAR(stepMs(cal), (kTableSeconds + relu) * 1e3, 1e-9);
  const auto j = nlohmann::json::parse(cal.out)["calibration"];
  EXPECT_EQ(j["file"], f.table);
  EXPECT_EQ(j["entries"], 1);
  EXPECT_EQ(j["calibrated_op_times"], 1);  // mm on the one kind
  EXPECT_EQ(j["op_times"], 2);             // 2 ops x 1 kind

  gptest::CliRun text = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe --calibration " + f.table);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("calibration: " + f.table + " (1 of 2 op times measured)\n"), std::string::npos) << text.out;
  gptest::CliRun plainText = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe");
  ASSERT_EQ(plainText.code, 0) << plainText.err;
  EXPECT_EQ(plainText.out.find("\ncalibration: "), std::string::npos) << plainText.out;
}

TEST(CliCalibration, BaselineAndBenchUseTheTable) {
  Files f;
  gptest::CliRun base =
      gptest::runCli("baseline " + f.model + " --cluster 4xP100-PCIe --method single --json --calibration " + f.table);
  ASSERT_EQ(base.code, 0) << base.err;
  const auto b = nlohmann::json::parse(base.out);
  EXPECT_EQ(b["calibration"]["calibrated_op_times"], 1);
  gptest::CliRun basePlain = gptest::runCli("baseline " + f.model + " --cluster 4xP100-PCIe --method single --json");
  ASSERT_EQ(basePlain.code, 0) << basePlain.err;
  const auto p = nlohmann::json::parse(basePlain.out);
  // the P100's roofline for mm (0.29 ms + launch) becomes the table's 1.234 ms
  EXPECT_GT(b["results"][0]["step_time_ms"].get<double>(), p["results"][0]["step_time_ms"].get<double>() + 0.5);

  gptest::CliRun bench = gptest::runCli("bench --models " + f.model + " --json --calibration " + f.table);
  ASSERT_EQ(bench.code, 0) << bench.err;
  const auto j = nlohmann::json::parse(bench.out);
  EXPECT_EQ(j["calibration"]["file"], f.table);
  EXPECT_EQ(j["models"][0]["calibrated_op_times"], 1);
  EXPECT_EQ(j["models"][0]["op_times"], 2);
  gptest::CliRun benchText = gptest::runCli("bench --models " + f.model + " --calibration " + f.table);
  ASSERT_EQ(benchText.code, 0) << benchText.err;
  EXPECT_NE(benchText.out.find("calibration: " + f.table + " (1 of 2 op times measured)"), std::string::npos)
      << benchText.out;
}

TEST(CliCalibration, TableOfOtherKindsWarnsInOneLine) {
  Files f;
  gptest::CliRun plain = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe --json");
  gptest::CliRun r = gptest::runCli("evaluate " + f.model + " --cluster 4xP100-PCIe --json --calibration " + f.other);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("graphplace-cli: warning: " + f.other + ": ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("H100-80GB-HBM3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(kKind), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("calibrates nothing"), std::string::npos) << r.err;
  EXPECT_DOUBLE_EQ(stepMs(r), stepMs(plain));
  EXPECT_EQ(nlohmann::json::parse(r.out)["calibration"]["calibrated_op_times"], 0);
  // a matching table does not warn (EvaluateChargesTheTablesTime checks its stderr is empty)
}

TEST(CliCalibration, BadTableIsOneLineAndExitCode1) {
  Files f;
  const std::string missing = (f.dir / "missing.json").string();
  struct Case {
    std::string args, expected;
  };
  const Case cases[] = {
      {"evaluate " + f.model + " --cluster 4xP100-PCIe --calibration " + missing, missing},
      {"evaluate " + f.model + " --cluster 4xP100-PCIe --calibration " + f.bad, f.bad + ": not valid JSON"},
      {"evaluate " + f.model + " --cluster 4xP100-PCIe --calibration " + f.model, f.model + ": "},
      {"baseline " + f.model + " --cluster 4xP100-PCIe --calibration " + f.bad, f.bad + ": not valid JSON"},
      {"optimize " + f.model + " --cluster 4xP100-PCIe --calibration " + f.bad, f.bad + ": not valid JSON"},
      {"bench --models " + f.model + " --calibration " + f.bad, f.bad + ": not valid JSON"},
      {"evaluate " + f.model + " --cluster 4xP100-PCIe --calibration ''", "--calibration needs"},
  };
  for (const Case& c : cases) {
    gptest::CliRun r = gptest::runCli(c.args);
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_EQ(lines(r.err), 1) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// A cluster file that lists a MatMul efficiency of 1 for its kind: mm takes FLOPs / peak.
TEST(CliCalibration, ClusterKindEfficiencySetsTheRoofline) {
  Files f;
  const Cluster p100 = loadCluster("4xP100-PCIe");
  auto j = nlohmann::ordered_json::parse(p100.toJson());
  j["device_kinds"][kKind]["efficiency"] = {{"MatMul", 1.0}};
  const std::string path = (f.dir / "cluster.json").string();
  std::ofstream(path) << j.dump();
  const double relu = roofline(p100, 1 << 20, 2 * 4.0 * (1 << 20), OpClass::Elementwise,
                               CostParams{}.efficiencyOf(OpClass::Elementwise));
  gptest::CliRun r = gptest::runCli("evaluate " + f.model + " --cluster " + path + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NEAR(stepMs(r), (roofline(p100, kMatMulFlops, 3 * 4.0 * (1 << 20), OpClass::MatMul, 1.0) + relu) * 1e3, 1e-9);
  j["device_kinds"][kKind]["efficiency"] = {{"MatMul", 1.5}};
  std::ofstream(path) << j.dump();
  gptest::CliRun bad = gptest::runCli("evaluate " + f.model + " --cluster " + path);
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("efficiency: field 'MatMul' must be in [0.01, 1], got 1.5"), std::string::npos) << bad.err;
}
