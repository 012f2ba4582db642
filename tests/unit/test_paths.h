// Paths the tests use: the committed data folder and the built CLI.
#pragma once
#include <cstdlib>
#include <string>

namespace gptest {
inline std::string dataPath(const std::string& rel) { return std::string(GP_TEST_DATA_DIR) + "/" + rel; }
// $GP_CLI when set (a packed build run elsewhere: scripts/gpu-check.sh --run-packed), else the build's.
inline std::string cliPath() {
  const char* env = std::getenv("GP_CLI");
  return env && *env ? env : GP_CLI_PATH;
}
}  // namespace gptest
