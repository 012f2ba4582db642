// The model options every command that takes a MODEL accepts (as `info` does).
#pragma once
#include <set>
#include <string>

#include "cli/cli_args.h"
#include "io/model_loader.h"

namespace gp::cli {

// --mode inference|training, --input-shape 1x3x224x224, --batch N, --seq-len N
const std::set<std::string>& modelOptions();
LoadOptions loadOptionsFrom(const Args& a);

}  // namespace gp::cli
