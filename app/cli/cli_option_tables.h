// Every graphplace-cli command's options, declared once (session/option_table.h): the parser of
// each command, `--help` and the man page (help2man reads --help) all come from these tables,
// and the defaults the commands apply are the ones declared here (most taken from the core's own
// option structs).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "session/option_table.h"

namespace gp::cli {

// The options every command that takes a MODEL accepts (--mode, --input-shape, --batch, ...).
const std::vector<OptionSpec>& modelOptionSpecs();
// The search's options that optimize, pretrain and bench --optimize share (--policy, --seed, ...).
const std::vector<OptionSpec>& optimizeOptionSpecs();
// Every command, in the order --help lists them.
const std::vector<CommandSpec>& commandSpecs();
// One command's declarations; std::logic_error for a name not in the table.
const CommandSpec& commandSpec(const std::string& name);
// The whole usage: what the program does, every command's forms and options, the notes on the
// options several commands share.
void printUsage(std::ostream& out);

}  // namespace gp::cli
