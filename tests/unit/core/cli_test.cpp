// graphplace-cli as a user runs it: exit codes, one-line errors, --json output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "io/json_io.h"
#include "test_graphs.h"
#include "test_paths.h"

namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun runCli(const std::string& args) {
  auto dir = std::filesystem::temp_directory_path();
  auto errPath = dir / ("gp_cli_err_" + std::to_string(::getpid()) + ".txt");
  std::string cmd = gptest::cliPath() + " " + args + " 2>" + errPath.string();
  CliRun r{};
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return {-1, "", "popen failed"};
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(errPath);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  std::filesystem::remove(errPath);
  return r;
}

std::string writeTemp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(Cli, InfoJsonIsOneObjectWithTheKeys) {
  std::string path = writeTemp("gp_cli_mlp.json", gp::graphToJson(gptest::smallMlp()));
  CliRun r = runCli("info " + path + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["ops"], 4);
  EXPECT_EQ(j["edges"], 2);
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 2.0 * 32 * 64 * 128 + 32 * 128 + 2.0 * 32 * 128 * 10);
  EXPECT_EQ(j["param_bytes"], (64 * 128 + 128 * 10) * 4);
  EXPECT_EQ(j["op_types"]["MatMul"], 2);
  EXPECT_EQ(j["mode"], "inference");
  EXPECT_EQ(j["scope_depth"], 1);
  std::filesystem::remove(path);
}

TEST(Cli, TrainingModeDerivesBackward) {
  std::string path = writeTemp("gp_cli_mlp2.json", gp::graphToJson(gptest::smallMlp()));
  CliRun r = runCli("info " + path + " --mode training --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "training");
  EXPECT_GT(j["backward_ops"].get<int>(), 0);
  EXPECT_EQ(j["update_ops"], 2);
  std::filesystem::remove(path);
}

TEST(Cli, BadInputIsOneLineNamingTheFileAndExitCode1) {
  std::string bad = writeTemp("gp_cli_bad.json", "{\"format\": \"graphplace-graph\", \"ops\": [");
  const std::pair<std::string, std::string> cases[] = {
      {"info " + bad, bad + ": not valid JSON"},
      {"info /nonexistent/model.onnx", "/nonexistent/model.onnx: no such file"},
      {"info " + bad.substr(0, bad.rfind('/')), "is a directory"},
      {"info model.xyz", "model.xyz: "},
      {"info zoo:nosuchmodel", "zoo:nosuchmodel"},
      {"info " + bad + " --mode sideways", "--mode must be"},
      {"info zoo:resnet50 --batch -3", "--batch needs a positive integer"},
      {"info x.pt --input-shape 1xAx3", "--input-shape"},
      {"info", "exactly one MODEL"},
      {"frobnicate", "unknown command"},
      {"zoo export resnet50", "--out"},
  };
  for (const auto& [args, expect] : cases) {
    CliRun r = runCli(args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find(expect), std::string::npos) << args << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  std::filesystem::remove(bad);
}
