// A command's options declared once — name, type, range, default, help — from which its parser,
// its usage text and its defaults all come (as Megatron-Core derives its flags from its config
// dataclasses). A value is checked against its declaration when the command line is read: a
// fraction given for a whole number, a number out of range or an unknown choice is a one-line
// std::invalid_argument naming the flag.
//
//   static const CommandSpec spec{"explain", {"MODEL --cluster PRESET|FILE"}, "the critical path ...",
//                                 {{"--top", OptionType::Count, "N", "moves to list", 1, 1e6, "10"}}};
//   const CommandLine a = parseCommandLine(argv, spec);
//   const int64_t top = a.integer("--top");   // the given value, else the declared 10
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gp {

enum class OptionType {
  Switch,  // no value: given or not
  Count,   // a whole number in [min, max]; a fraction is refused
  Number,  // a number in [min, max] (above min when `aboveMin`)
  Seed,    // a whole number 0 .. 2^64 - 1
  Choice,  // one of `choices`
  Text,    // anything: a file, a list, a form the reader checks
};

struct OptionSpec {
  std::string name;   // "--seed"
  OptionType type = OptionType::Text;
  std::string value;  // what the usage shows after the name ("N", "FILE"); a Choice's is its choices
  std::string help;   // one short phrase for the usage text
  double min = 0, max = 1e6;
  std::string fallback;  // the value when not given, as text; empty: none
  std::vector<std::string> choices;
  bool aboveMin = false;  // Number: min itself is refused
  bool repeats = false;   // given again, the values join with commas (--dim a=1 --dim b=2)
  // A group several commands share ("model options"): a command's usage names the group once
  // instead of listing its options (optionsUsage lists them).
  std::string group;
};

// One command (or one command's family of subcommands): the forms its usage shows ("MODEL
// --cluster PRESET|FILE", without the program and command name), what it does, its options.
// Where two options share a name, the later declaration wins (a command narrows a shared group).
struct CommandSpec {
  std::string name;                 // "optimize", "costmodel"
  std::vector<std::string> forms;   // "train DATASET --out MODEL.pt": each a usage line after the name
  std::string about;                // a sentence or two
  std::vector<OptionSpec> options;  // in the order the usage lists them
  // The declaration of `name`, null when the command has no such option.
  const OptionSpec* find(const std::string& name) const;
};

// `a` then `b`: a command's options built from shared groups and its own.
std::vector<OptionSpec> joinOptions(std::initializer_list<std::vector<OptionSpec>> groups);

// A command line read against its command's declarations.
class CommandLine {
 public:
  std::vector<std::string> positional;

  bool has(const std::string& name) const;
  // The text given, nullopt when not given (the default is not applied: see text()).
  std::optional<std::string> value(const std::string& name) const;
  // Given, else declared default; std::logic_error when the option is undeclared or has neither
  // (a program error, not the user's).
  std::string text(const std::string& name) const;
  int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  uint64_t seed(const std::string& name) const;
  // The given integer, else `fallback` (a default the command computes from other options).
  int integer(const std::string& name, int fallback) const;
  double number(const std::string& name, double fallback) const;
  // The given integer, else `fallback`; std::invalid_argument naming the option unless it is
  // 1 .. 1,000,000 (intValue) or 0 .. 1,000,000 (countValue), whatever its declaration allows.
  int intValue(const std::string& name, int fallback) const;
  int countValue(const std::string& name, int fallback) const;
  const CommandSpec& spec() const { return *spec_; }

  // Forgets a given option (a command that reads another's options first).
  void erase(const std::string& name);

 private:
  friend CommandLine parseCommandLine(const std::vector<std::string>&, const CommandSpec&);
  const OptionSpec& declared(const std::string& name) const;
  const CommandSpec* spec_ = nullptr;
  std::map<std::string, std::string> given_;
};

// Words not starting with "--" (and "--" itself) are positional; --name VALUE and --name=VALUE
// both work. std::invalid_argument for an unknown option, a missing value, a value a switch
// cannot take, or a value its declaration refuses.
CommandLine parseCommandLine(const std::vector<std::string>& argv, const CommandSpec& spec);
// Whether `text` is a valid value of `o`; else `why` gets the one-line error.
bool checkOptionValue(const OptionSpec& o, const std::string& text, std::string& why);

// The usage of one command: its forms under `program`, wrapped to 100 columns, then each option
// with its value, help and default (a shared group's options by the group's name, once).
std::string commandUsage(const std::string& program, const CommandSpec& spec);
// Each option of `options` on its own line(s), indented by `indent`.
std::string optionsUsage(const std::vector<OptionSpec>& options, size_t indent);

}  // namespace gp
