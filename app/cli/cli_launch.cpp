#include "cli/cli_launch.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "base/error.h"
#include "base/file_text.h"
#include "parallel/megatron_launch.h"

namespace gp::cli {

void checkExportFormat(const std::string& format) {
  if (format != "megatron") throw std::invalid_argument("--export writes megatron, got '" + format + "'");
}

int64_t configSeqLength(const std::string& path) {
  const std::vector<std::string> w = shellWords(readFileText(path, "launch configuration"));
  for (size_t i = 0; i < w.size(); ++i) {
    std::string v;
    if (w[i] == "--seq-length" && i + 1 < w.size()) v = w[i + 1];
    else if (w[i].starts_with("--seq-length=")) v = w[i].substr(13);
    else continue;
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && n > 0) return n;
  }
  return 0;
}

LaunchImport readLaunchConfig(const std::string& path, const LayerStack& stack, int devices) {
  LaunchImport r = importMegatron(readFileText(path, "launch configuration"), path, stack, devices);
  if (r.seqLen > 0 && stack.seqLen > 0 && r.seqLen != stack.seqLen)
    throw Error(path, "--seq-length " + std::to_string(r.seqLen) + " but the model was built for " + std::to_string(stack.seqLen) +
                          " tokens (--seq-len)");
  return r;
}

void writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p, const LaunchContext& ctx,
                       std::ostream& err) {
  checkExportFormat(format);
  const LaunchFile f = exportMegatron(p, ctx);
  writeTextFileAtomically(path, f.text);
  for (const std::string& n : f.inexact) err << "graphplace-cli: " << path << ": not exactly expressible in " << format << ": " << n << "\n";
}

}  // namespace gp::cli
