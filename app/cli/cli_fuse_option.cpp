#include "cli/cli_fuse_option.h"

#include <stdexcept>

#include "fusion/fuser.h"

namespace gp::cli {

std::string checkFuseOption(const std::string& fuse) {
  if (fuse != "default" && fuse != "none" && fuse != "plan")
    throw std::invalid_argument("--fuse wants default, none or plan, got '" + fuse + "'");
  return fuse;
}

std::string applyFuseOption(const Graph& g, Plan& plan, const std::string& fuse, const std::string& planName) {
  if (fuse == "none") {
    plan.fusionGroup.clear();
    return "";
  }
  if (fuse == "default") {
    plan.fusionGroup = defaultFusion(g, plan.device);
    return " + default fusion";
  }
  checkFuseOption(fuse);
  if (const std::string why = fusionProblem(g, plan); !why.empty()) throw std::invalid_argument(planName + ": " + why);
  return "";
}

}  // namespace gp::cli
