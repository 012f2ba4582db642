// `graphplace-cli measure` and `profile --model` as a user runs them, on a machine without a
// GPU: bad arguments and bad models are one-line errors before any GPU work; without a GPU,
// measure ends with exit 1 and the one line that says why.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "cli_runner.h"
#include "base/error.h"
#include "profile/gpu_measure.h"

namespace {

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_measure_" + std::to_string(::getpid()) + "_" + name)).string();
}

void expectUsageError(const std::string& args, const std::string& says) {
  SCOPED_TRACE(args);
  const gptest::CliRun r = gptest::runCli(args);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace

TEST(CliMeasure, BadArgumentsAreOneLineErrors) {
  expectUsageError("measure", "measure needs exactly one MODEL");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --placement p.json --method heft", "not both");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --steps 0", "--steps");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --warmup -1", "--warmup");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --timer sometimes", "--timer wants auto, cupti or events");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --fuse all", "--fuse wants default, none or plan");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --gpus 0,x", "--gpus wants GPU numbers");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --ignore-hash", "--ignore-hash goes with --placement");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --frobnicate", "--frobnicate");
  expectUsageError("measure zoo:rnnlm", "--cluster");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --gpus 0,,1", "--gpus wants GPU numbers");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --gpus 1,1", "--gpus lists GPU 1 twice");
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --warmup x", "--warmup needs a whole number 0 or more");
  // the GPUs are asked before the model is loaded (a large model loads for seconds): without
  // one, that is the line; with one, the model's
  const std::string why = gp::gpuMeasureUnavailable(1);
  expectUsageError("measure /nonexistent/model.onnx --cluster 4xP100-PCIe",
                   why.empty() ? "/nonexistent/model.onnx" : "measure: " + why);
  expectUsageError("measure zoo:rnnlm --cluster 4xP100-PCIe --calibration /nonexistent/cal.json", "/nonexistent/cal.json");
}

TEST(CliMeasure, WithoutAGpuExitsWithOneLine) {
  const std::string why = gp::gpuMeasureUnavailable(1);
  if (why.empty()) GTEST_SKIP() << "a GPU is present: the no-GPU path needs a machine without one";
  const std::string trace = tempPath("trace.json");
  const gptest::CliRun r = gptest::runCli("measure zoo:rnnlm --batch 2 --seq-len 4 --cluster 4xP100-PCIe --method single --trace " + trace);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("error: measure: " + why), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(trace));
  EXPECT_TRUE(r.out.empty()) << r.out;  // no warm-up is a valid choice: the line is still the GPU's
  const gptest::CliRun w = gptest::runCli("measure zoo:rnnlm --cluster 4xP100-PCIe --warmup 0");
  EXPECT_EQ(w.code, 1);
  EXPECT_NE(w.err.find("error: measure: " + why), std::string::npos) << w.err;
}

TEST(CliMeasure, HelpNamesTheCommand) {
  const gptest::CliRun r = gptest::runCli("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("graphplace-cli measure MODEL --cluster"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--model MODEL"), std::string::npos) << r.out;
}

TEST(CliMeasure, ProfileModelNeedsCalibrationAndAGoodModelBeforeProfiling) {
  const std::string out = tempPath("cluster.json"), cal = tempPath("cal.json");
  expectUsageError("profile --out " + out + " --calibration " + out, "need three different files");
  expectUsageError("profile --out " + out + " --model zoo:rnnlm", "profile --model needs --calibration");
  expectUsageError("profile --out " + out + " --calibration " + cal + " --model /nonexistent/model.onnx",
                   "/nonexistent/model.onnx");  // not "no driver": the model is checked first
  expectUsageError("profile --out " + out + " --calibration " + cal + " --model zoo:nosuchmodel", "nosuchmodel");
  expectUsageError("profile --out " + out + " --batch 4", "--batch is a model option");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(cal));
}
