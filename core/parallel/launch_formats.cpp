#include "parallel/launch_formats.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

#include "base/error.h"
#include "parallel/deepspeed_launch.h"
#include "parallel/megatron_launch.h"
#include "parallel/nemo_launch.h"
#include "parallel/torchtitan_launch.h"
#include "parallel/torchtitan_py_launch.h"

namespace gp {
namespace {

int64_t positive(const std::string& v) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return ec == std::errc() && end == v.data() + v.size() && n > 0 ? n : 0;
}

}  // namespace

const std::vector<std::string>& launchExportFormats() {
  static const std::vector<std::string> formats = {"megatron", "nemo", "nemo1", "torchtitan", "torchtitan-py", "deepspeed"};
  return formats;
}

void checkLaunchExportFormat(const std::string& format) {
  const auto& known = launchExportFormats();
  if (std::find(known.begin(), known.end(), format) != known.end()) return;
  std::string names;
  for (const std::string& f : known) names += (names.empty() ? "" : ", ") + f;
  throw std::invalid_argument("--export writes " + names + ", got '" + format + "'");
}

std::string launchCompanionPath(const std::string& path) {
  const std::filesystem::path out(path);
  return (out.parent_path() / (out.stem().string() + "_schedule.csv")).string();
}

TrainingFramework launchFormatFramework(const std::string& format) {
  checkLaunchExportFormat(format);
  if (format == "deepspeed") return TrainingFramework::DeepSpeed;
  if (format.starts_with("torchtitan")) return TrainingFramework::Torchtitan;
  return TrainingFramework::Megatron;
}

namespace {

LaunchFile exportAs(const std::string& format, const ParallelPlan& p, const LaunchContext& ctx) {
  if (format == "megatron") return exportMegatron(p, ctx);
  if (format == "nemo") return exportNemo(p, ctx);
  if (format == "nemo1") return exportNemo1(p, ctx);
  if (format == "torchtitan") return exportTorchtitan(p, ctx);
  if (format == "torchtitan-py") return exportTorchtitanPython(p, ctx);
  return exportDeepSpeed(p, ctx);
}

}  // namespace

LaunchFile exportLaunchConfig(const std::string& format, const ParallelPlan& p, const LaunchContext& ctx) {
  const TrainingFramework runs = launchFormatFramework(format);
  LaunchFile f = exportAs(format, p, ctx);
  if (p.training.framework != TrainingFramework::Generic && p.training.framework != runs)
    f.inexact.push_back("the plan was costed for " + std::string(trainingFrameworkName(p.training.framework)) + "; " +
                        std::string(trainingFrameworkName(runs)) + " keeps its own buffers (simulate the file for its numbers)");
  return f;
}

std::string launchFormatOf(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return "deepspeed";
  if (isTorchtitanPython(text)) return "torchtitan-py";
  if (isNemoRecipe(text)) return "nemo";
  if (isNemo1Yaml(text)) return "nemo1";
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

int64_t launchConfigSeqLength(const std::string& text) {
  const std::string format = launchFormatOf(text);
  if (format == "deepspeed") return 0;
  if (format == "torchtitan-py") return torchtitanPythonSeqLength(text);
  if (format == "nemo1") {
    const size_t at = text.find("encoder_seq_length:");
    if (at == std::string::npos) return 0;
    std::string v = text.substr(at + 19, text.find_first_of("\n#", at) - at - 19);
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t\r") + 1);
    return positive(v);
  }
  if (format == "nemo") {
    const auto v = pythonAssignments(text, "recipe.");
    const auto it = v.find("data.seq_length");
    return it == v.end() ? 0 : positive(it->second);
  }
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

LaunchImport importLaunchConfig(const std::string& text, const std::string& source, const LayerStack& stack, int devices) {
  const std::string format = launchFormatOf(text);
  LaunchImport r = format == "deepspeed"       ? importDeepSpeed(text, source, stack, devices)
                   : format == "torchtitan"    ? importTorchtitan(text, source, stack, devices)
                   : format == "torchtitan-py" ? importTorchtitanPython(text, source, stack, devices)
                   : format == "nemo"          ? importNemo(text, source, stack, devices)
                   : format == "nemo1"         ? importNemo1(text, source, stack, devices)
                                               : importMegatron(text, source, stack, devices);
  if (r.seqLen > 0 && stack.seqLen > 0 && r.seqLen != stack.seqLen)
    throw Error(source, "the configuration's sequence length is " + std::to_string(r.seqLen) + " but the model was built for " +
                            std::to_string(stack.seqLen) + " tokens (--seq-len)");
  return r;
}

}  // namespace gp
