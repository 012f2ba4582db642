// The published corpus and the fidelity report: every shipped row parses, names its source and
// runs; bad rows get one-line errors naming the file and row; on a small corpus with a toy
// cluster the simulated values, ratios, summaries and table orders match hand derivations; a
// calibration table and a profiled cluster change what the rows simulate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "cost/cost_model.h"
#include "fidelity/fidelity.h"
#include "fidelity/kernel_workloads.h"
#include "base/error.h"
#include "test_paths.h"

using namespace gp;

namespace {

// A one-device cluster of kind `kind`: 1 TFLOP/s f32, memory so fast it never binds, no launch
// overhead; `memGiB` of memory.
std::string toyClusterJson(const std::string& name, const std::string& kind, double memGiB = 1) {
  return R"({"format": "graphplace-cluster", "version": 1, "name": ")" + name + R"(", "device_kinds": {")" + kind +
         R"(": {"peak_TFLOPS": {"f32": 1}, "memory_bandwidth_GBps": 1e9, "memory_GiB": )" + std::to_string(memGiB) +
         R"(, "launch_overhead_us": 0}}, "devices": [{"name": "gpu0", "kind": ")" + kind +
         R"("}], "switches": [], "links": []})";
}

// The roofline of a square f32 GEMM on the toy device with the default efficiency and fill.
double gemmSeconds(double n) {
  const CostParams p;
  return 2 * n * n * n / (1e12 * p.efficiencyOf(OpClass::MatMul)) + p.fillTimeOf(OpClass::MatMul);
}

std::string gemmRow(const std::string& name, int n, const std::string& published, const std::string& extra = "",
                    const std::string& cluster = "clusters/toy.json") {
  return R"({"name": ")" + name + R"(", "source": "hand-made", "split": "check", "hardware": "toy", "cluster": ")" +
         cluster + R"(", "framework": "cuda", "workload": {"kernel": "gemm", "m": )" + std::to_string(n) +
         R"(, "n": )" + std::to_string(n) + R"(, "k": )" + std::to_string(n) + R"(}, "unit": "ms", "published": )" +
         published + extra + "}";
}

struct Corpus {
  std::filesystem::path dir;
  explicit Corpus(const std::vector<std::string>& rows, double memGiB = 1) {
    dir = std::filesystem::temp_directory_path() / ("gp_fidelity_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "clusters");
    std::ofstream(dir / "clusters" / "toy.json") << toyClusterJson("toy", "T", memGiB);
    std::string text = R"({"format": "graphplace-published", "version": 1, "rows": [)";
    for (size_t i = 0; i < rows.size(); ++i) text += (i ? "," : "") + rows[i];
    std::ofstream(dir / "rows.json") << text << "]}";
  }
  std::string file() const { return (dir / "rows.json").string(); }
  ~Corpus() { std::filesystem::remove_all(dir); }
};

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", seconds * 1e3);
  return buf;
}

}  // namespace

TEST(Fidelity, EveryShippedRowParsesNamesItsSourceAndRuns) {
  const auto rows = loadPublishedCorpus(gptest::dataPath("published"));
  ASSERT_GE(rows.size(), 60u);
  int set = 0, check = 0, tables = 0;
  for (const PublishedRow& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_GT(r.source.size(), 20u);  // a document and where in it, not a word
    EXPECT_FALSE(r.hardware.empty());
    (r.split == RowSplit::Set ? set : check)++;
    tables += r.table.empty() ? 0 : 1;
    EXPECT_TRUE(r.published || !r.table.empty());
  }
  EXPECT_GT(set, 5);
  EXPECT_GT(check, 2 * set);  // most rows only check
  EXPECT_GT(tables, 0);
  const FidelityReport rep = runFidelity(rows);
  for (const FidelityRow& f : rep.rows) EXPECT_FALSE(f.clusterUsed.empty()) << f.row.name;
  EXPECT_GT(rep.check.rows, 30);
  // what docs/simulator-fidelity.md reports: check rows within 1.3x at the median, none beyond 3x
  EXPECT_EQ(rep.check.beyond3x, 0) << rep.check.worstRow;
  EXPECT_LT(rep.check.medianFactor, 1.3);
  EXPECT_LT(std::abs(std::log(rep.check.medianRatio)), std::log(1.3));
  EXPECT_EQ(rep.check.unmatchedOom, 0);
}

TEST(Fidelity, RatiosSummaryAndOrderOnASmallCorpus) {
  const double s = gemmSeconds(1000);  // 2.2222 ms + fill
  Corpus c({gemmRow("half", 1000, ms(s / 0.5)), gemmRow("same", 1000, ms(s)), gemmRow("double", 1000, ms(s / 2)),
            gemmRow("quad", 1000, ms(s / 4)),
            R"({"name": "tput", "source": "hand-made", "split": "set", "hardware": "toy", "cluster": "clusters/toy.json",
                "framework": "cuda", "workload": {"kernel": "gemm", "m": 1000, "n": 1000, "k": 1000},
                "unit": "items/s", "items_per_step": 10, "published": )" +
                ms(10 / s / 1e3) + "}"});
  const FidelityReport r = runFidelity(loadPublishedCorpus(c.file()));
  ASSERT_EQ(r.rows.size(), 5u);
  EXPECT_NEAR(*r.rows[0].simulated, s * 1e3, 1e-9);
  EXPECT_NEAR(r.rows[0].ratio, 0.5, 1e-9);
  EXPECT_NEAR(r.rows[1].ratio, 1.0, 1e-9);
  EXPECT_NEAR(r.rows[3].ratio, 4.0, 1e-9);
  EXPECT_NEAR(*r.rows[4].simulated, 10 / s, 1e-6);  // a throughput: items / step
  EXPECT_NEAR(r.rows[4].ratio, 1.0, 1e-9);
  // check rows: ratios 0.5 1 2 4 -> median sqrt(1 * 2); misses x2 x1 x2 x4 -> median x2, worst x4
  EXPECT_EQ(r.check.rows, 4);
  EXPECT_NEAR(r.check.medianRatio, std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(r.check.medianFactor, 2.0, 1e-9);
  EXPECT_NEAR(r.check.worstFactor, 4.0, 1e-9);
  EXPECT_EQ(r.check.worstRow, "quad");
  EXPECT_EQ(r.check.beyond3x, 1);
  EXPECT_EQ(r.set.rows, 1);
}

TEST(Fidelity, TableOrdersAndOutOfMemory) {
  const std::string fastFirst = R"(, "table": "t1")", oom = R"(, "table": "t3")";
  Corpus c({gemmRow("t1-small", 100, "1", fastFirst), gemmRow("t1-big", 1000, "5", fastFirst),
            gemmRow("t2-small", 100, "5", R"(, "table": "t2")"), gemmRow("t2-big", 1000, "1", R"(, "table": "t2")"),
            gemmRow("t3-small", 100, "1", oom), gemmRow("t3-huge", 20000, "\"OOM\"", oom)},
           /*memGiB=*/1);
  const FidelityReport r = runFidelity(loadPublishedCorpus(c.file()));
  ASSERT_EQ(r.tables.size(), 3u);
  EXPECT_TRUE(r.tables[0].agrees) << r.tables[0].disagreement;
  EXPECT_FALSE(r.tables[1].agrees);
  EXPECT_NE(r.tables[1].disagreement.find("t2-big"), std::string::npos);
  EXPECT_TRUE(r.tables[2].agrees) << r.tables[2].disagreement;  // 3 x 20000^2 f32 = 4.5 GiB: out of memory
  EXPECT_FALSE(r.rows[5].simulated.has_value());
  EXPECT_NE(r.rows[5].simulatedProblem.find("GiB"), std::string::npos);
}

TEST(Fidelity, CalibrationAndAProfiledClusterOverrideTheDefaults) {
  Corpus c({gemmRow("g", 1000, "2")});
  const auto rows = loadPublishedCorpus(c.file());
  const double base = *runFidelity(rows).rows[0].simulated;
  // a measured time for the GEMM's signature on kind T replaces the roofline
  const Graph g = kernelGraph("gemm", {{"m", 1000}, {"n", 1000}, {"k", 1000}});
  CalibrationTable t;
  const std::vector<std::vector<int64_t>> shapest{{1000, 1000}, {1000, 1000}};
  t.add("MatMul", shapest, DType::F32, "T", 7e-3);
  FidelityOptions o;
  o.calibration = &t;
  EXPECT_NEAR(*runFidelity(rows, o).rows[0].simulated, 7.0, 1e-9);
  // a profiled cluster whose kind names the same GPU runs the row at its own speed
  const Cluster profiled = parseClusterJson(
      R"({"name": "profiled", "device_kinds": {"Tesla-T": {"peak_TFLOPS": {"f32": 2}, "memory_bandwidth_GBps": 1e9,
          "memory_GiB": 1, "launch_overhead_us": 0, "efficiency": {"MatMul": 0.5}}}, "devices": [{"name": "gpu0",
          "kind": "Tesla-T"}], "switches": [], "links": []})",
      "profiled.json");
  FidelityOptions p;
  p.profiled = &profiled;
  const FidelityRow row = runFidelity(rows, p).rows[0];
  EXPECT_EQ(row.clusterUsed, "profiled");
  EXPECT_EQ(runFidelity(rows, p).rowsOnProfiled, 1);
  EXPECT_NEAR(*row.simulated, (2e9 / (2e12 * 0.5) + CostParams{}.fillTimeOf(OpClass::MatMul)) * 1e3, 1e-9);
  EXPECT_NE(*row.simulated, base);
  EXPECT_TRUE(sameDeviceKind("V100-SXM2-16GB", "Tesla-V100-SXM2-16GB"));
  EXPECT_FALSE(sameDeviceKind("V100-SXM2-16GB", "A100-SXM4-40GB"));
}

TEST(Fidelity, BadRowsGetOneLineErrors) {
  const std::string head = R"({"format": "graphplace-published", "version": 1, "rows": [)";
  const std::string ok = R"("name": "r", "source": "s", "split": "set", "hardware": "h", "cluster": "2xK80",
      "framework": "cuda", "unit": "ms", "published": 1)";
  const std::string gemm = R"("workload": {"kernel": "gemm", "m": 1, "n": 1, "k": 1})";
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases{
      {"{", "c.json: not valid JSON"},
      {R"({"format": "x", "version": 1, "rows": []})", "c.json: field 'format' must be \"graphplace-published\""},
      {head + "{" + ok + "}]}", "c.json: rows[0] ('r'): field 'workload' must be an object"},
      {head + "{" + ok + "," + gemm + R"(, "split": "train"})" + "]}", "field 'split' must be"},
      {head + "{" + ok + R"(, "workload": {"kernel": "fft"}})" + "]}", "unknown kernel 'fft'"},
      {head + "{" + ok + R"(, "workload": {"kernel": "gemm", "m": 1, "n": 1}})" + "]}", "missing field 'k'"},
      {head + "{" + ok + R"(, "workload": {"kernel": "gemm", "m": -4, "n": 1, "k": 1}})" + "]}",
       "field 'm' must be a whole number >= 0"},
      {head + "{" + ok + R"(, "workload": {"model": "resnet50"}})" + "]}", "must name a zoo model"},
      {head + "{" + ok + "," + gemm + R"(, "published": "fast"})" + "]}", "field 'published' must be a positive"},
      {head + "{" + ok + "," + gemm + R"(, "published": "OOM"})" + "]}", "an \"OOM\" row needs a 'table'"},
      {head + "{" + ok + "," + gemm + R"(, "unit": "furlongs"})" + "]}", "field 'unit' must be"},
      {head + "{" + ok + "," + gemm + R"(, "unit": "images/s"})" + "]}", "needs 'items_per_step'"},
      {head + "{" + ok + "," + gemm + R"(, "precision": "fp12"})" + "]}", "unknown precision 'fp12'"},
      {head + "{" + ok + "," + gemm + R"(, "colour": "red"})" + "]}", "unknown field 'colour'"},
  };
  for (const Case& c : cases) {
    try {
      parsePublishedCorpus(c.text, "c.json");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(c.expected), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos);
      EXPECT_EQ(m.rfind("c.json", 0), 0u) << m;
    }
  }
  Corpus dup({gemmRow("same", 10, "1"), gemmRow("same", 10, "1")});
  try {
    loadPublishedCorpus(dup.file());
    ADD_FAILURE() << "a name used twice was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 'same': name already used"), std::string::npos) << e.what();
  }
  // a row whose framework is unknown fails when it runs, naming the file and row
  Corpus badFramework({R"({"name": "fw", "source": "s", "split": "set", "hardware": "h", "cluster": "clusters/toy.json",
      "framework": "caffe", "workload": {"kernel": "gemm", "m": 1, "n": 1, "k": 1}, "unit": "ms", "published": 1})"});
  try {
    runFidelity(loadPublishedCorpus(badFramework.file()));
    ADD_FAILURE() << "an unknown framework ran";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rows.json: row 'fw': framework: unknown framework 'caffe'"), std::string::npos) << m;
    EXPECT_EQ(m.find("row 'fw'"), m.rfind("row 'fw'")) << m;  // named once
  }
}

TEST(Fidelity, CliPrintsRowsSummaryAndJson) {
  Corpus c({gemmRow("g1", 1000, ms(gemmSeconds(1000))), gemmRow("g2", 500, "1")});
  auto text = gptest::runCli("fidelity --corpus " + c.file());
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("g1"), std::string::npos);
  EXPECT_NE(text.out.find("check rows: 2"), std::string::npos) << text.out;
  auto js = gptest::runCli("fidelity --json --corpus " + c.dir.string());
  ASSERT_EQ(js.code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  ASSERT_EQ(j["rows"].size(), 2u);
  for (const char* key : {"name", "source", "split", "unit", "published", "simulated"})
    EXPECT_TRUE(j["rows"][0].contains(key)) << key;
  EXPECT_NEAR(j["rows"][0]["ratio"].get<double>(), 1.0, 1e-6);
  EXPECT_EQ(j["summary"]["check"]["rows"], 2);
  // a profiled cluster of the rows' kind runs them
  const auto prof = c.dir / "clusters" / "prof.json";
  std::ofstream(prof) << toyClusterJson("my-gpus", "Tesla-T");
  auto onProfiled = gptest::runCli("fidelity --json --corpus " + c.file() + " --cluster " + prof.string());
  ASSERT_EQ(onProfiled.code, 0) << onProfiled.err;
  EXPECT_EQ(nlohmann::json::parse(onProfiled.out)["summary"]["rows_on_profiled"], 2);
  EXPECT_EQ(nlohmann::json::parse(onProfiled.out)["rows"][0]["cluster"], "my-gpus");
  auto bad = gptest::runCli("fidelity --corpus /nonexistent/rows.json");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("/nonexistent/rows.json"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1);
}
