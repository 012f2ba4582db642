// Runs the built graphplace-cli as a user would: exit code, stdout and stderr.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_paths.h"

namespace gptest {

struct CliRun {
  int code;
  std::string out, err;
};

inline CliRun runCli(const std::string& args) {
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

// A command that must fail as every bad input does: exit code 1, nothing on stdout, and one
// line on stderr that contains `expect`.
inline void expectCliError(const std::string& args, const std::string& expect) {
  const CliRun r = runCli(args);
  EXPECT_EQ(r.code, 1) << args;
  EXPECT_NE(r.err.find(expect), std::string::npos) << args << "\nstderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << args;
}

}  // namespace gptest
