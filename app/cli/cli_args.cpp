#include "cli/cli_args.h"

#include <charconv>
#include <stdexcept>

namespace gp::cli {

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = options.find(name);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

namespace {
bool parseInt64(const std::string& s, int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}
}  // namespace

int Args::intValue(const std::string& name, int fallback) const {
  auto v = value(name);
  if (!v) return fallback;
  int64_t x = 0;
  if (!parseInt64(*v, x) || x <= 0 || x > 1'000'000)
    throw std::invalid_argument(name + " needs a positive integer, got '" + *v + "'");
  return static_cast<int>(x);
}

int Args::countValue(const std::string& name, int fallback) const {
  auto v = value(name);
  if (!v) return fallback;
  int64_t x = 0;
  if (!parseInt64(*v, x) || x < 0 || x > 1'000'000)
    throw std::invalid_argument(name + " needs a whole number 0 or more, got '" + *v + "'");
  return static_cast<int>(x);
}

Args parseArgs(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
               const std::set<std::string>& switchOptions) {
  Args a;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& w = argv[i];
    if (w.rfind("--", 0) != 0 || w == "--") {
      a.positional.push_back(w);
      continue;
    }
    std::string name = w, val;
    bool inlineValue = false;
    if (auto eq = w.find('='); eq != std::string::npos) {
      name = w.substr(0, eq);
      val = w.substr(eq + 1);
      inlineValue = true;
    }
    if (switchOptions.count(name)) {
      if (inlineValue) throw std::invalid_argument(name + " takes no value");
      a.switches.insert(name);
    } else if (valueOptions.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= argv.size()) throw std::invalid_argument(name + " needs a value");
        val = argv[++i];
      }
      auto [it, fresh] = a.options.emplace(name, val);
      if (!fresh && name == "--dim") it->second += "," + val;  // --dim repeats: a list
      else if (!fresh) it->second = val;
    } else {
      throw std::invalid_argument("unknown option " + name);
    }
  }
  return a;
}

std::vector<int64_t> parseShape(const std::string& text) {
  std::vector<int64_t> dims;
  size_t start = 0;
  while (start <= text.size()) {
    size_t x = text.find_first_of("x,", start);
    std::string part = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    int64_t d = 0;
    if (!parseInt64(part, d) || d <= 0 || d > (int64_t{1} << 31))
      throw std::invalid_argument("--input-shape wants dimensions like 1x3x224x224, got '" + text + "'");
    dims.push_back(d);
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (dims.empty() || dims.size() > 8)
    throw std::invalid_argument("--input-shape wants 1 to 8 dimensions, got '" + text + "'");
  return dims;
}

}  // namespace gp::cli
