#include "cli/cli_model_options.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <stdexcept>

#include "graph/precision.h"
#include "session/cluster_spec.h"
#include "graph/seeded_random.h"

namespace gp::cli {

std::map<std::string, int64_t> parseDims(const std::string& text) {
  std::map<std::string, int64_t> dims;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--dim takes NAME=VALUE (e.g. --dim batch_size=8), got '" + item + "'");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || v < 1 || v > (int64_t{1} << 40))
      throw std::invalid_argument("--dim " + name + ": the value must be a positive integer, got '" + value + "'");
    dims[name] = v;
    start = end + 1;
  }
  return dims;
}

LoadOptions loadOptionsFrom(const Args& a) {
  LoadOptions o;
  if (auto m = a.value("--mode")) {
    if (*m == "inference") o.mode = GraphMode::Inference;
    else if (*m == "training") o.mode = GraphMode::Training;
    else throw std::invalid_argument("--mode must be 'inference' or 'training', got '" + *m + "'");
  }
  if (auto s = a.value("--input-shape")) o.import.inputShape = parseShape(*s);
  if (auto d = a.value("--dim")) o.import.dims = parseDims(*d);
  o.warn = [](const std::string& warning) { std::cerr << "graphplace-cli: warning: " << warning << "\n"; };
  if (auto p = a.value("--precision")) o.precision = parsePrecision(*p, "--precision");
  o.zoo.batch = a.intValue("--batch", 0);
  o.zoo.seqLen = a.intValue("--seq-len", 0);
  o.zoo.layers = a.intValue("--layers", 0);
  o.zoo.hidden = a.intValue("--hidden", 0);
  if (auto s = a.value("--graph-seed"); s && !parseSeed(*s, o.zoo.seed))
    throw std::invalid_argument("--graph-seed needs a whole number 0 .. 18446744073709551615, got '" + *s + "'");
  return o;
}

Cluster clusterFrom(const Args& a, const char* fallback) {
  auto spec = a.value("--cluster");
  if (spec && !spec->empty()) return loadClusterSpec(*spec);
  if (fallback) return loadClusterSpec(fallback);
  throw std::invalid_argument("needs --cluster PRESET|FILE");
}

}  // namespace gp::cli
