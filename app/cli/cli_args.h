// Command-line parsing for graphplace-cli: each command's options are declared once
// (cli/cli_option_tables.h) and read by session/option_table.h's parser.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "session/option_table.h"

namespace gp::cli {

using Args = CommandLine;

// `argv` read against the declarations of `command` (cli/cli_option_tables.h).
Args parseArgs(const std::vector<std::string>& argv, const std::string& command);

// "1x3x224x224" -> {1, 3, 224, 224}; throws std::invalid_argument on anything else.
std::vector<int64_t> parseShape(const std::string& text);

}  // namespace gp::cli
