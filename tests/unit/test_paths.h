// Paths the tests use: the committed data folder and the built CLI.
#pragma once
#include <string>

namespace gptest {
inline std::string dataPath(const std::string& rel) { return std::string(GP_TEST_DATA_DIR) + "/" + rel; }
inline std::string cliPath() { return GP_CLI_PATH; }
}  // namespace gptest
