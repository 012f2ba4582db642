// Every zoo LLM on every multi-server preset: Megatron's-rule plan written in every launch format
// and, where the framework reads it back, read back as the same plan. An export the framework
// cannot express exactly names what it changed; one the framework rejects says why.
#include <gtest/gtest.h>

#include <map>

#include "base/error.h"
#include "optimize/parallel_corpus.h"
#include "launch/launch_formats.h"
#include "parallel/parallel_search.h"
#include "parallel/plan_knobs.h"

using namespace gp;

namespace {

bool multiServer(const std::string& preset) {
  const Cluster c = loadCluster(preset);
  return devicesPerServer(c) < c.numDevices();
}

}  // namespace

TEST(LaunchSweep, EveryZooLlmOnEveryMultiServerPresetRoundTrips) {
  std::vector<std::string> presets;
  for (const std::string& p : clusterPresetNames())
    if (multiServer(p)) presets.push_back(p);
  ASSERT_GE(presets.size(), 5u);
  std::map<std::string, int> exact, inexact, refused;
  std::map<std::string, std::string> firstRefusal;
  for (const ZooEntry& z : zooModels()) {
    if (!z.llm) continue;
    for (const std::string& preset : presets) {
      const auto task = zooParallelTask(z.name, {}, preset, 384, "");
      const ParallelResult r = megatronPlan(task->model, 384);
      ASSERT_TRUE(r.found) << z.name << " on " << preset << ": " << r.note;
      LaunchContext ctx;
      ctx.stack = &task->stack, ctx.globalBatch = 384, ctx.devicesPerServer = devicesPerServer(task->c);
      ctx.model = "zoo:" + z.name, ctx.cluster = preset;
      for (const std::string& format : launchExportFormats()) {
        const std::string where = format + ": " + z.name + " on " + preset + " (" + planChanges({}, r.plan, 384) + ")";
        LaunchFile f;
        try {
          f = exportLaunchConfig(format, r.plan, ctx);
        } catch (const Error& e) {  // the framework's own reason
          EXPECT_NE(std::string(e.what()).find(" ("), std::string::npos) << where << ": " << e.what();
          if (!refused[format]++) firstRefusal[format] = z.name + " on " + preset + ": " + e.what();
          continue;
        }
        for (const std::string& n : f.inexact) EXPECT_FALSE(n.empty()) << where;
        LaunchImport back;
        try {
          back = importLaunchConfig(f.text, format, task->stack, task->c.numDevices());
        } catch (const Error& e) {
          ADD_FAILURE() << where << ": its own export does not read back: " << e.what() << "\n" << f.text;
          continue;
        }
        EXPECT_EQ(back.globalBatch, 384) << where;
        EXPECT_EQ(back.plan.dp, r.plan.dp) << where;
        EXPECT_EQ(back.plan.tp, r.plan.tp) << where;
        EXPECT_EQ(back.plan.pp, r.plan.pp) << where;
        if (!f.inexact.empty()) {
          ++inexact[format];
          continue;
        }
        ++exact[format];
        ParallelPlan runs = r.plan;  // read back as its framework runs it
        runs.training.framework = launchFormatFramework(format);
        EXPECT_TRUE(sameKnobs(runs, back.plan)) << where << ": " << planChanges(runs, back.plan, 384) << "\n" << f.text;
        ASSERT_EQ(back.plan.stages.size(), r.plan.stages.size()) << where;
        for (size_t i = 0; i < r.plan.stages.size(); ++i) {
          EXPECT_EQ(back.plan.stages[i].first, r.plan.stages[i].first) << where;
          EXPECT_EQ(back.plan.stages[i].recompute, r.plan.stages[i].recompute) << where;
        }
      }
    }
  }
  for (const std::string& format : launchExportFormats())
    std::cout << "[          ] " << format << ": " << exact[format] << " exact, " << inexact[format] << " with named changes, "
              << refused[format] << " refused" << (refused[format] ? " (" + firstRefusal[format] + ", ...)" : "") << "\n";
  EXPECT_GT(exact["megatron"], 0);
}
