// Opening a TorchScript file runs its code, so the import runs in a child process: the graph
// that comes back equals an import in this process, and a module that never ends, allocates
// without end or loops while it loads is stopped at its bound with a one-line error.
// (Fixtures: tests/data/make_fixtures.py, hostile_torchscript.)
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/input_limits.h"
#include "error_text.h"
#include "io/json_io.h"
#include "io/torchscript_import.h"
#include "io/torchscript_plugin.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace {

gp::ImportOptions shaped(std::vector<int64_t> shape) {
  gp::ImportOptions o;
  o.inputShape = std::move(shape);
  return o;
}

std::string errorOf(const std::string& path, const gp::ImportOptions& o) {
  return gptest::errorOf([&] { gp::importTorchScriptViaPlugin(path, o); });
}

}  // namespace

// The plugin's imports first: this test program links a second copy of the importer, and once
// that copy has registered its recording op in this process, a child forked from it records
// through that copy instead of the plugin's.
TEST(TorchScriptIsolation, TheChildGivesTheSameGraphAsAnImportInThisProcess) {
  struct Case {
    std::string file;
    std::vector<int64_t> shape;
  };
  const std::vector<Case> cases = {{"torchscript/resnet18.pt", {1, 3, 224, 224}},
                                   {"torchscript/control_flow.pt", {2, 32}},
                                   {"torchscript/lstm.pt", {2, 10, 32}}};
  std::vector<std::string> fromChild;
  for (const Case& c : cases)
    fromChild.push_back(gp::graphToJson(gp::importTorchScriptViaPlugin(gptest::dataPath(c.file), shaped(c.shape))));
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string here = gp::graphToJson(gp::importTorchScript(gptest::dataPath(cases[i].file), shaped(cases[i].shape)));
    EXPECT_GT(here.size(), 1000u) << cases[i].file;
    EXPECT_EQ(fromChild[i], here) << cases[i].file;
  }
}

TEST(TorchScriptIsolation, ErrorsFromTheChildAreTheImportersOneLineErrors) {
  const std::string path = gptest::dataPath("malformed/no_forward.pt");
  EXPECT_EQ(errorOf(path, shaped({1, 3})), path + ": the module has no forward method");
  const std::string missing = gptest::dataPath("torchscript/resnet18.pt");
  EXPECT_EQ(errorOf(missing, {}), missing + ": input shape unknown; pass --input-shape, e.g. 1x3x224x224");
}

// A forward that loops forever, and a file whose __setstate__ loops forever as LibTorch loads it.
TEST(TorchScriptIsolation, CodeThatNeverEndsIsStoppedAtTheTimeLimit) {
  gptest::ScopedEnv seconds(gp::kTorchScriptSecondsVariable, "2");
  for (const char* file : {"malformed/endless_loop.pt", "malformed/setstate_loop.pt"}) {
    const std::string path = gptest::dataPath(file);
    const auto start = std::chrono::steady_clock::now();
    const std::string e = errorOf(path, shaped({1, 4}));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(e, path + ": importing it ran longer than 2 s, over the limit (set GRAPHPLACE_TORCHSCRIPT_SECONDS to allow more)");
    EXPECT_GE(took, 2.0) << file;
    EXPECT_LT(took, 30.0) << file;
  }
}

// A forward that keeps 4 MiB more on every turn of an endless loop.
TEST(TorchScriptIsolation, CodeThatAllocatesWithoutEndIsStoppedAtTheMemoryLimit) {
  gptest::ScopedEnv memory(gp::kTorchScriptMemoryVariable, "256");
  gptest::ScopedEnv seconds(gp::kTorchScriptSecondsVariable, "120");
  const std::string path = gptest::dataPath("malformed/memory_hog.pt");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(errorOf(path, shaped({1, 4})),
            path + ": importing it took more than 256 MiB of memory, over the limit (set GRAPHPLACE_TORCHSCRIPT_MEMORY_MB to allow more)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60.0);
}
