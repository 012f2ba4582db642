// Command-line parsing for graphplace-cli: positional words plus --flag / --flag VALUE options.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gp::cli {

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // "--json" -> "" for switches
  std::set<std::string> switches;

  bool has(const std::string& name) const { return options.count(name) || switches.count(name); }
  std::optional<std::string> value(const std::string& name) const;
  // Integer option, validated (throws std::invalid_argument with a clear message).
  int intValue(const std::string& name, int fallback) const;
  // The same, but 0 is allowed (counts such as warm-up steps).
  int countValue(const std::string& name, int fallback) const;
};

// `valueOptions`: options that take a value; `switchOptions`: options without one. Anything
// else starting with "--" is an error (std::invalid_argument).
Args parseArgs(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
               const std::set<std::string>& switchOptions);

// "1x3x224x224" -> {1, 3, 224, 224}; throws std::invalid_argument on anything else.
std::vector<int64_t> parseShape(const std::string& text);

}  // namespace gp::cli
