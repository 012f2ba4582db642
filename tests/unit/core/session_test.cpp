// core/session: the decisions every front end shares — cluster specs, a model as a parallel
// task, the method table, the first plan shown, launch files with their companions, and the
// placement search's start.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/error.h"
#include "cost/cost_model.h"
#include "io/model_loader.h"
#include "launch/launch_formats.h"
#include "session/cluster_spec.h"
#include "session/launch_files.h"
#include "session/parallel_methods.h"
#include "session/parallel_task_load.h"
#include "session/placement_start.h"

namespace gp {
namespace {

std::string tempPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SessionCluster, NamesPresetsServersFilesAndThisCpu) {
  EXPECT_EQ(loadClusterSpec("4xP100-PCIe").numDevices(), 4);
  EXPECT_EQ(loadClusterSpec("16x8xH100-IB").numDevices(), 128);
  const Cluster cpu = loadClusterSpec("cpu");
  EXPECT_GE(cpu.numDevices(), 1);
  EXPECT_THROW(loadClusterSpec("no-such-preset"), Error);
}

TEST(SessionMethods, AllRunsTheTableInOrderAndCommasPickSome) {
  const std::vector<ParallelMethod> all = parallelMethodsFrom("all");
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all.front(), ParallelMethod::Megatron);
  EXPECT_EQ(all.back(), ParallelMethod::Dqn);
  EXPECT_EQ(parallelMethodsFrom("exact,recipe,exact"), (std::vector<ParallelMethod>{ParallelMethod::Exact, ParallelMethod::Recipe}));
  EXPECT_EQ(parallelMethodsFrom("random"), std::vector<ParallelMethod>{ParallelMethod::Random});
  for (const ParallelMethodInfo& i : parallelMethodTable()) EXPECT_EQ(parallelMethodsFrom(std::string(i.name)).front(), i.method);
  try {
    parallelMethodsFrom("exact,fast");
    FAIL() << "an unknown method was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--method must be all, or one or more of megatron, dp, recipe, exact, dqn, random"),
              std::string::npos)
        << e.what();
  }
}

TEST(SessionTask, TrainsInTheClustersPrecisionUnlessOneIsStated) {
  const Cluster c = loadClusterSpec("2x8xH100-IB");
  ParallelLoad load;
  const auto mixed = loadParallelTask("zoo:gpt_1_3b", c, load);
  EXPECT_EQ(mixed->stack.activationType, DType::BF16);
  EXPECT_EQ(mixed->globalBatch, defaultParallelBatch("zoo:gpt_1_3b", c));
  load.precision = Precision::FP32;
  load.globalBatch = 64;
  const auto fp32 = loadParallelTask("zoo:gpt_1_3b", c, load);
  EXPECT_EQ(fp32->stack.activationType, DType::F32);
  EXPECT_EQ(fp32->globalBatch, 64);
  EXPECT_EQ(fp32->stack.numLayers(), mixed->stack.numLayers());
}

TEST(SessionTask, ALaunchConfigurationSetsPrecisionAndSequenceAndRefusesAnotherPrecision) {
  const std::string path = tempPath("gp_session_megatron.sh");
  std::ofstream(path) << "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 --seq-length 1024 --fp16\n";
  const Cluster c = loadClusterSpec("2x8xH100-IB");
  ParallelLoad load;
  load.launchConfig = path;
  std::string said;
  const auto task = loadParallelTask("zoo:gpt_1_3b", c, load, &said);
  EXPECT_EQ(task->stack.activationType, DType::F16);
  EXPECT_EQ(task->stack.seqLen, 1024);
  EXPECT_EQ(said, "fp16 (--fp16)");
  load.precision = Precision::BF16;
  try {
    loadParallelTask("zoo:gpt_1_3b", c, load);
    FAIL() << "a precision other than the file's was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), path);
    EXPECT_NE(e.problem().find("trains in fp16 (--fp16), not the bf16 of --precision"), std::string::npos) << e.what();
  }
}

TEST(SessionStart, DataParallelWhereItFitsElseMegatronsRule) {
  ParallelLoad load;
  const auto small = loadParallelTask("zoo:gpt_1_3b", loadClusterSpec("2x8xH100-IB"), load);
  const StartingPlan s = startingParallelPlan(*small, 64);
  EXPECT_FALSE(s.megatron);
  EXPECT_EQ(s.plan.dp, 16);
  EXPECT_EQ(s.plan.stages.size(), 1u);
  const auto large = loadParallelTask("zoo:gpt_175b", loadClusterSpec("8x8xH100-IB"), load);
  const StartingPlan l = startingParallelPlan(*large, 256);
  EXPECT_TRUE(l.megatron);
  EXPECT_GT(l.plan.tp * l.plan.pp, 1);
  const ParallelResult m = runParallelMethod(ParallelMethod::Megatron, large->model, 256, {});
  EXPECT_EQ(m.plan.tp, l.plan.tp);
  EXPECT_EQ(m.plan.pp, l.plan.pp);
}

TEST(SessionLaunch, TheFormatTableNamesEveryExportAndItsFramework) {
  const auto& table = launchFormatTable();
  ASSERT_EQ(table.size(), launchExportFormats().size());
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].name, launchExportFormats()[i]);
    EXPECT_TRUE(table[i].pattern.starts_with("*.")) << table[i].name;
    EXPECT_EQ(launchFormatFramework(table[i].name), table[i].framework);
  }
  EXPECT_EQ(launchFormatFramework("nemo1"), TrainingFramework::Megatron);
  EXPECT_EQ(launchFormatFramework("torchtitan-py"), TrainingFramework::Torchtitan);
}

TEST(SessionLaunch, TorchtitansPythonExportWritesItsScheduleBesideIt) {
  ParallelLoad load;
  load.globalBatch = 64;
  const auto task = loadParallelTask("zoo:gpt_1_3b", loadClusterSpec("2x8xH100-IB"), load);
  ParallelPlan p;
  p.dp = 4, p.pp = 4;
  p.stages = evenStages(task->stack.numLayers(), 4);
  p.microbatches = 8;
  const ParallelMeasurement m = simulateParallel(task->model, 64, p);
  const std::string path = tempPath("gp_session_titan.py");
  std::filesystem::remove(launchCompanionPath(path));
  writeLaunchExport("torchtitan-py", path, p, launchContextFor(*task, "zoo:gpt_1_3b", 64, m));
  EXPECT_TRUE(std::filesystem::exists(launchCompanionPath(path)));
  const LaunchImport back = readLaunchConfigFile(path, *task);
  EXPECT_EQ(back.plan.pp, 4);
  EXPECT_EQ(back.globalBatch, 64);
  EXPECT_THROW(writeLaunchExport("torchtitan-py", "/nonexistent/dir/x.py", p, launchContextFor(*task, "m", 64, m)), Error);
}

TEST(SessionPlacement, TheStartIsTheBestBaselineAndEveryFeasibleOneIsACandidate) {
  const Graph g = loadModel("zoo:nmt");
  const Cluster c = loadClusterSpec("4xP100-PCIe");
  const CostModel cost(g, c);
  const std::vector<PlacementResult> bs = runBaselines(cost);
  ASSERT_EQ(bs.size(), placementMethods().size());
  const int best = bestBaseline(bs);
  ASSERT_GE(best, 0);
  int feasible = 0;
  for (const PlacementResult& b : bs) {
    feasible += b.measurement.feasible;
    if (b.measurement.feasible) EXPECT_GE(b.measurement.stepTime, bs[static_cast<size_t>(best)].measurement.stepTime);
  }
  OptimizeOptions o;
  startFromBaselines(bs, o);
  ASSERT_TRUE(o.startPlan.has_value());
  EXPECT_EQ(o.startPlan->device, bs[static_cast<size_t>(best)].plan.device);
  EXPECT_EQ(static_cast<int>(o.startCandidates.size()), feasible);
}

}  // namespace
}  // namespace gp
