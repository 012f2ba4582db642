// The model options every command that takes a MODEL accepts (as `info` does), and --cluster.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "cli/cli_args.h"
#include "cluster/cluster.h"
#include "io/model_loader.h"

namespace gp::cli {

// "batch_size=8,sequence=128" -> {batch_size: 8, sequence: 128}; throws std::invalid_argument.
std::map<std::string, int64_t> parseDims(const std::string& text);
// The model options (cli/cli_option_tables.h: modelOptionSpecs) as load options; warnings of the
// import go to stderr.
LoadOptions loadOptionsFrom(const Args& a);
// --cluster's cluster (session/cluster_spec.h), else `fallback`'s (nullptr: --cluster is required).
Cluster clusterFrom(const Args& a, const char* fallback);

}  // namespace gp::cli
