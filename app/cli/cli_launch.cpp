#include "cli/cli_launch.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

#include "base/error.h"
#include "base/file_text.h"
#include "parallel/deepspeed_launch.h"
#include "parallel/megatron_launch.h"
#include "parallel/nemo_launch.h"
#include "parallel/torchtitan_launch.h"
#include "parallel/torchtitan_py_launch.h"

namespace gp::cli {
namespace {

// The configuration's framework: a JSON object is DeepSpeed's, assignments to
// config.parallelism torchtitan's Python configuration, a TOML table header ("[training]")
// torchtitan's TOML, anything else a Megatron-LM argument list.
std::string formatOf(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return "deepspeed";
  if (isTorchtitanPython(text)) return "torchtitan-py";
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const size_t s = line.find_first_not_of(" \t");
    if (s != std::string::npos && line[s] == '[' && line.find(']') != std::string::npos && line.find("--") == std::string::npos)
      return "torchtitan";
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "megatron";
}

int64_t positive(const std::string& v) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return ec == std::errc() && end == v.data() + v.size() && n > 0 ? n : 0;
}

}  // namespace

void checkExportFormat(const std::string& format) {
  if (format != "megatron" && format != "nemo" && format != "nemo1" && format != "torchtitan" && format != "torchtitan-py" &&
      format != "deepspeed")
    throw std::invalid_argument("--export writes megatron, nemo, nemo1, torchtitan, torchtitan-py or deepspeed, got '" + format +
                                "'");
}

int64_t configSeqLength(const std::string& path) {
  const std::string text = readFileText(path, "launch configuration");
  const std::string format = formatOf(text);
  if (format == "deepspeed") return 0;
  if (format == "torchtitan-py") return torchtitanPythonSeqLength(text);
  if (format == "torchtitan") {  // [training] seq_len = N
    bool training = false;
    size_t at = 0;
    while (at < text.size()) {
      const size_t end = text.find('\n', at);
      std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
      line.erase(0, line.find_first_not_of(" \t"));
      if (line.starts_with("[")) training = line.starts_with("[training]");
      else if (training && line.starts_with("seq_len")) {
        const size_t eq = line.find('=');
        if (eq != std::string::npos) {
          std::string v = line.substr(eq + 1);
          v.erase(0, v.find_first_not_of(" \t"));
          v = v.substr(0, v.find_first_of(" \t#"));
          return positive(v);
        }
      }
      if (end == std::string::npos) break;
      at = end + 1;
    }
    return 0;
  }
  const std::vector<std::string> w = shellWords(text);
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "--seq-length" && i + 1 < w.size()) return positive(w[i + 1]);
    if (w[i].starts_with("--seq-length=")) return positive(w[i].substr(13));
  }
  return 0;
}

LaunchImport readLaunchConfig(const std::string& path, const LayerStack& stack, int devices) {
  const std::string text = readFileText(path, "launch configuration");
  const std::string format = formatOf(text);
  LaunchImport r = format == "deepspeed"    ? importDeepSpeed(text, path, stack, devices)
                   : format == "torchtitan" ? importTorchtitan(text, path, stack, devices)
                   : format == "torchtitan-py" ? importTorchtitanPython(text, path, stack, devices)
                                            : importMegatron(text, path, stack, devices);
  if (r.seqLen > 0 && stack.seqLen > 0 && r.seqLen != stack.seqLen)
    throw Error(path, "the configuration's sequence length is " + std::to_string(r.seqLen) + " but the model was built for " +
                          std::to_string(stack.seqLen) + " tokens (--seq-len)");
  return r;
}

void writeLaunchExport(const std::string& format, const std::string& path, const ParallelPlan& p, const LaunchContext& ctx,
                       std::ostream& err) {
  checkExportFormat(format);
  const LaunchFile f = format == "deepspeed"    ? exportDeepSpeed(p, ctx)
                       : format == "torchtitan" ? exportTorchtitan(p, ctx)
                       : format == "torchtitan-py" ? exportTorchtitanPython(p, ctx)
                       : format == "nemo"       ? exportNemo(p, ctx)
                       : format == "nemo1"      ? exportNemo1(p, ctx)
                                                : exportMegatron(p, ctx);
  if (!f.companion.empty()) {  // the schedule the .py names: written first, so the .py never names a missing file
    const std::filesystem::path out(path);
    writeTextFileAtomically((out.parent_path() / (out.stem().string() + "_schedule.csv")).string(), f.companion);
  }
  writeTextFileAtomically(path, f.text);
  for (const std::string& n : f.inexact) err << "graphplace-cli: " << path << ": not exactly expressible in " << format << ": " << n << "\n";
}

}  // namespace gp::cli
