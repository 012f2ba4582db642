#include "cli/cli_args.h"

#include <charconv>
#include <stdexcept>

#include "cli/cli_option_tables.h"

namespace gp::cli {

namespace {
bool parseInt64(const std::string& s, int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}
}  // namespace

Args parseArgs(const std::vector<std::string>& argv, const std::string& command) {
  return parseCommandLine(argv, commandSpec(command));
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
