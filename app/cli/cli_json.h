// The JSON every command's --json prints: one line, invalid UTF-8 replaced.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace gp::cli {

std::string dump(const nlohmann::ordered_json& j);

}  // namespace gp::cli
