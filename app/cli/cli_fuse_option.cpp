#include "cli/cli_fuse_option.h"

#include <optional>
#include <stdexcept>

#include "fusion/fuser.h"

namespace gp::cli {

FuseMode checkFuseOption(const std::string& fuse) {
  const std::optional<FuseMode> mode = parseFuse(fuse);
  if (!mode) throw std::invalid_argument("--fuse wants default, none or plan, got '" + fuse + "'");
  return *mode;
}

std::string applyFuseOption(const Graph& g, Plan& plan, FuseMode fuse, const std::string& planName) {
  if (fuse == FuseMode::None) {
    plan.fusionGroup.clear();
    return "";
  }
  if (fuse == FuseMode::Default) {
    plan.fusionGroup = defaultFusion(g, plan.device);
    return " + default fusion";
  }
  if (const std::string why = fusionProblem(g, plan); !why.empty()) throw std::invalid_argument(planName + ": " + why);
  return "";
}

}  // namespace gp::cli
