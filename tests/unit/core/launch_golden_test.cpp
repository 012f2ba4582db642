// Every launch-configuration export of one plan against its committed file in
// tests/data/launch/ (reviewed against the frameworks' documented names and rules: docs/formats.md,
// "Launch configurations"). A change to an export shows here as a changed file; after reviewing
// it, GP_UPDATE_GOLDEN=1 rewrites the files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "launch_test_stack.h"
#include "launch/deepspeed_launch.h"
#include "launch/megatron_launch.h"
#include "launch/nemo_launch.h"
#include "launch/torchtitan_launch.h"
#include "launch/torchtitan_py_launch.h"
#include "test_paths.h"

using namespace gp;

TEST(LaunchGolden, EachFormatIsItsReviewedFile) {
  const LayerStack& st = gptest::launchStack();
  // dp 2 x tp 2 x pp 4 with 8 micro-batches of 2, full recomputation, ZeRO-1 with the gather
  // overlapped, sequence parallelism, FlashAttention-2.
  ParallelPlan p;
  p.dp = 2, p.tp = 2, p.pp = 4, p.microbatches = 8, p.zero = 1, p.overlapParamGather = true, p.sequenceParallel = true;
  p.attention = AttentionImpl::Flash2;
  p.stages = evenStages(st.numLayers(), 4, Recompute::Full);
  LaunchContext ctx = gptest::launchContext(32);
  ctx.stepSeconds = 0.5, ctx.peakGiB = 12.25;
  const std::pair<const char*, LaunchFile> files[] = {{"megatron.sh", exportMegatron(p, ctx)},
                                                      {"nemo.py", exportNemo(p, ctx)},
                                                      {"nemo1.yaml", exportNemo1(p, ctx)},
                                                      {"torchtitan.toml", exportTorchtitan(p, ctx)},
                                                      {"torchtitan.py", exportTorchtitanPython(p, ctx)},
                                                      {"torchtitan_schedule.csv", {torchtitanScheduleCsv(p), {}, {}}},
                                                      {"deepspeed.json", exportDeepSpeed(p, ctx)}};
  const bool update = std::getenv("GP_UPDATE_GOLDEN") != nullptr;
  for (const auto& [name, file] : files) {
    const std::string path = gptest::dataPath(std::string("launch/") + name);
    if (update) std::ofstream(path) << file.text;
    std::ifstream in(path);
    ASSERT_TRUE(in) << path << " is missing (GP_UPDATE_GOLDEN=1 writes it)";
    std::stringstream golden;
    golden << in.rdbuf();
    EXPECT_EQ(file.text, golden.str()) << name << " differs from " << path;
  }
}
