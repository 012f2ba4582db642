// The model options every command that takes a MODEL accepts (as `info` does).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "cli/cli_args.h"
#include "io/model_loader.h"

namespace gp::cli {

// --mode inference|training, --input-shape 1x3x224x224, --batch N, --seq-len N, --layers N,
// --hidden N, --graph-seed N (zoo models), --dim NAME=VALUE[,NAME=VALUE] (repeatable).
// Warnings of the import go to stderr.
const std::set<std::string>& modelOptions();
// "batch_size=8,sequence=128" -> {batch_size: 8, sequence: 128}; throws std::invalid_argument.
std::map<std::string, int64_t> parseDims(const std::string& text);
LoadOptions loadOptionsFrom(const Args& a);

}  // namespace gp::cli
