#include "session/option_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "graph/seeded_random.h"

namespace gp {
namespace {

bool wholeNumber(const std::string& s, int64_t& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

bool realNumber(const std::string& s, double& out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  size_t used = 0;
  try {
    out = std::stod(s, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == s.size() && std::isfinite(out);
}

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// "a, b or c"
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

std::string wholeRange(const OptionSpec& o) {
  if (o.min == 1 && o.max == 1e6) return "a positive integer";
  if (o.min == 0 && o.max == 1e6) return "a whole number 0 or more";
  return "a whole number " + shortNumber(o.min) + " .. " + shortNumber(o.max);
}

std::string numberRange(const OptionSpec& o) {
  if (o.aboveMin && o.min == 0) return "a positive number";
  if (!o.aboveMin && o.min == 0 && o.max >= 1e9) return "a number >= 0";
  return "a number " + std::string(o.aboveMin ? "above " : "") + shortNumber(o.min) + " .. " + shortNumber(o.max);
}

// Wraps `words` to `width` columns, every line but the first indented by `indent`.
void wrap(std::ostringstream& out, const std::string& words, size_t indent, size_t column, size_t width = 100) {
  std::istringstream in(words);
  for (std::string w; in >> w;) {
    if (column > indent && column + 1 + w.size() > width) {
      out << "\n" << std::string(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out << ' ';
      ++column;
    }
    out << w;
    column += w.size();
  }
}

std::string valueWords(const OptionSpec& o) {
  if (o.type == OptionType::Switch) return "";
  if (!o.value.empty()) return o.value;
  if (o.type == OptionType::Choice) {
    std::string v;
    for (const std::string& c : o.choices) v += (v.empty() ? "" : "|") + c;
    return v;
  }
  return "VALUE";
}

}  // namespace

const OptionSpec* CommandSpec::find(const std::string& n) const {
  for (auto it = options.rbegin(); it != options.rend(); ++it)
    if (it->name == n) return &*it;
  return nullptr;
}

std::vector<OptionSpec> joinOptions(std::initializer_list<std::vector<OptionSpec>> groups) {
  std::vector<OptionSpec> out;
  for (const auto& g : groups)
    for (const OptionSpec& o : g) {
      const auto same = std::find_if(out.begin(), out.end(), [&](const OptionSpec& x) { return x.name == o.name; });
      if (same != out.end()) *same = o;
      else out.push_back(o);
    }
  return out;
}

bool checkOptionValue(const OptionSpec& o, const std::string& text, std::string& why) {
  switch (o.type) {
    case OptionType::Switch:
      why = o.name + " takes no value";
      return false;
    case OptionType::Count: {
      int64_t v = 0;
      if (wholeNumber(text, v) && static_cast<double>(v) >= o.min && static_cast<double>(v) <= o.max) return true;
      why = o.name + " needs " + wholeRange(o) + ", got '" + text + "'";
      return false;
    }
    case OptionType::Number: {
      double v = 0;
      if (realNumber(text, v) && (o.aboveMin ? v > o.min : v >= o.min) && v <= o.max) return true;
      why = o.name + (o.aboveMin && o.min == 0 ? " wants " : " needs ") + numberRange(o) + ", got '" + text + "'";
      return false;
    }
    case OptionType::Seed: {
      uint64_t v = 0;
      if (parseSeed(text, v)) return true;
      why = o.name + " needs a whole number 0 .. 18446744073709551615, got '" + text + "'";
      return false;
    }
    case OptionType::Choice:
      if (std::find(o.choices.begin(), o.choices.end(), text) != o.choices.end()) return true;
      why = o.name + " wants " + listed(o.choices) + ", got '" + text + "'";
      return false;
    case OptionType::Text: return true;
  }
  return true;
}

CommandLine parseCommandLine(const std::vector<std::string>& argv, const CommandSpec& spec) {
  CommandLine a;
  a.spec_ = &spec;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& w = argv[i];
    if (w.rfind("--", 0) != 0 || w == "--") {
      a.positional.push_back(w);
      continue;
    }
    const size_t eq = w.find('=');
    const std::string name = w.substr(0, eq);
    const OptionSpec* o = spec.find(name);
    if (!o) throw std::invalid_argument("unknown option " + name);
    std::string val;
    if (o->type == OptionType::Switch) {
      if (eq != std::string::npos) throw std::invalid_argument(name + " takes no value");
    } else if (eq != std::string::npos) {
      val = w.substr(eq + 1);
    } else {
      if (i + 1 >= argv.size()) throw std::invalid_argument(name + " needs a value");
      val = argv[++i];
    }
    if (o->type != OptionType::Switch)
      if (std::string why; !checkOptionValue(*o, val, why)) throw std::invalid_argument(why);
    auto [it, fresh] = a.given_.emplace(name, val);
    if (!fresh) it->second = o->repeats ? it->second + "," + val : val;
  }
  return a;
}

bool CommandLine::has(const std::string& name) const { return given_.count(name) > 0; }

std::optional<std::string> CommandLine::value(const std::string& name) const {
  const auto it = given_.find(name);
  if (it == given_.end() || spec_->find(name)->type == OptionType::Switch) return std::nullopt;
  return it->second;
}

void CommandLine::erase(const std::string& name) { given_.erase(name); }

const OptionSpec& CommandLine::declared(const std::string& name) const {
  const OptionSpec* o = spec_ ? spec_->find(name) : nullptr;
  if (!o) throw std::logic_error("option " + name + " is not declared for " + (spec_ ? spec_->name : "this command"));
  return *o;
}

std::string CommandLine::text(const std::string& name) const {
  const OptionSpec& o = declared(name);
  if (auto v = value(name)) return *v;
  if (o.fallback.empty()) throw std::logic_error("option " + name + " has no default");
  return o.fallback;
}

int64_t CommandLine::integer(const std::string& name) const {
  int64_t v = 0;
  const std::string t = text(name);
  if (!wholeNumber(t, v)) throw std::logic_error("option " + name + " is not a whole number: " + t);
  return v;
}

double CommandLine::number(const std::string& name) const {
  double v = 0;
  const std::string t = text(name);
  if (!realNumber(t, v)) throw std::logic_error("option " + name + " is not a number: " + t);
  return v;
}

uint64_t CommandLine::seed(const std::string& name) const {
  uint64_t v = 0;
  const std::string t = text(name);
  if (!parseSeed(t, v)) throw std::logic_error("option " + name + " is not a seed: " + t);
  return v;
}

int CommandLine::integer(const std::string& name, int fallback) const {
  return value(name) ? static_cast<int>(integer(name)) : fallback;
}

double CommandLine::number(const std::string& name, double fallback) const { return value(name) ? number(name) : fallback; }

int CommandLine::intValue(const std::string& name, int fallback) const {
  const auto v = value(name);
  if (!v) return fallback;
  int64_t x = 0;
  if (!wholeNumber(*v, x) || x <= 0 || x > 1'000'000) throw std::invalid_argument(name + " needs a positive integer, got '" + *v + "'");
  return static_cast<int>(x);
}

int CommandLine::countValue(const std::string& name, int fallback) const {
  const auto v = value(name);
  if (!v) return fallback;
  int64_t x = 0;
  if (!wholeNumber(*v, x) || x < 0 || x > 1'000'000)
    throw std::invalid_argument(name + " needs a whole number 0 or more, got '" + *v + "'");
  return static_cast<int>(x);
}

std::string commandUsage(const std::string& program, const CommandSpec& spec) {
  std::ostringstream out;
  const std::string lead = "  " + program + " " + spec.name;
  for (const std::string& form : spec.forms) {
    out << lead;
    if (!form.empty()) {
      out << ' ';
      wrap(out, form, lead.size() + 1, lead.size() + 1);
    }
    out << "\n";
  }
  if (!spec.about.empty()) {
    out << "      ";
    wrap(out, spec.about, 6, 6);
    out << "\n";
  }
  std::vector<OptionSpec> own;
  std::vector<std::string> groups;
  for (const OptionSpec& o : spec.options) {
    if (o.group.empty()) own.push_back(o);
    else if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  }
  for (const std::string& g : groups) out << "      [" << g << "]\n";
  out << optionsUsage(own, 6);
  return out.str();
}

std::string optionsUsage(const std::vector<OptionSpec>& options, size_t indent) {
  constexpr size_t kHelpColumn = 40;
  std::ostringstream out;
  for (const OptionSpec& o : options) {
    std::string head = std::string(indent, ' ') + o.name;
    if (const std::string v = valueWords(o); !v.empty()) head += " " + v;
    out << head;
    std::string help = o.help;
    if (!o.fallback.empty()) help += (help.empty() ? "" : " ") + std::string("(default ") + o.fallback + ")";
    if (!help.empty()) {
      if (head.size() + 2 > kHelpColumn) out << "\n" << std::string(kHelpColumn, ' ');
      else out << std::string(kHelpColumn - head.size(), ' ');
      wrap(out, help, kHelpColumn, kHelpColumn);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace gp
