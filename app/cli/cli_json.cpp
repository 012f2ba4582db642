#include "cli/cli_json.h"

namespace gp::cli {

std::string dump(const nlohmann::ordered_json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace gp::cli
