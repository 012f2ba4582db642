#include "launch/launch_formats.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "base/error.h"
#include "launch/deepspeed_launch.h"
#include "launch/megatron_launch.h"
#include "launch/launch_precision.h"
#include "launch/nemo_launch.h"
#include "launch/torchtitan_launch.h"
#include "launch/torchtitan_py_launch.h"

namespace gp {

// Marks a description for Qt's lupdate (scripts/update_translations.sh reads this file); the
// text itself is the English.
#define QT_TRANSLATE_NOOP(context, text) text

namespace {

bool anyText(const std::string&) { return true; }
int64_t noSeqLength(const std::string&) { return 0; }

}  // namespace

const std::vector<LaunchFormat>& launchFormatTable() {
  static const std::vector<LaunchFormat> table = {
      {"megatron", QT_TRANSLATE_NOOP("LaunchFormat", "Megatron-LM arguments"), "*.sh", TrainingFramework::Megatron, 5,
       anyText, megatronSeqLength, megatronPrecision, exportMegatron, importMegatron},
      {"nemo", QT_TRANSLATE_NOOP("LaunchFormat", "NeMo 2.0 recipe overrides"), "*.py", TrainingFramework::Megatron, 2,
       isNemoRecipe, nemoSeqLength, nemoPrecision, exportNemo, importNemo},
      {"nemo1", QT_TRANSLATE_NOOP("LaunchFormat", "NeMo 1.x configuration"), "*.yaml", TrainingFramework::Megatron, 3,
       isNemo1Yaml, nemo1SeqLength, nemo1Precision, exportNemo1, importNemo1},
      {"torchtitan", QT_TRANSLATE_NOOP("LaunchFormat", "torchtitan configuration"), "*.toml", TrainingFramework::Torchtitan, 4,
       isTorchtitanToml, torchtitanSeqLength, torchtitanPrecision, exportTorchtitan, importTorchtitan},
      {"torchtitan-py", QT_TRANSLATE_NOOP("LaunchFormat", "torchtitan Python configuration and schedule"), "*.py",
       TrainingFramework::Torchtitan, 1, isTorchtitanPython, torchtitanPythonSeqLength, torchtitanPythonPrecision,
       exportTorchtitanPython, importTorchtitanPython},
      {"deepspeed", QT_TRANSLATE_NOOP("LaunchFormat", "DeepSpeed configuration"), "*.json", TrainingFramework::DeepSpeed, 0,
       isDeepSpeedJson, noSeqLength, deepspeedPrecision, exportDeepSpeed, importDeepSpeed},
  };
  return table;
}

const std::vector<std::string>& launchExportFormats() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const LaunchFormat& f : launchFormatTable()) out.push_back(f.name);
    return out;
  }();
  return names;
}

const LaunchFormat& launchFormat(const std::string& format) {
  for (const LaunchFormat& f : launchFormatTable())
    if (f.name == format) return f;
  std::string names;
  for (const std::string& f : launchExportFormats()) names += (names.empty() ? "" : ", ") + f;
  throw std::invalid_argument("--export writes " + names + ", got '" + format + "'");
}

void checkLaunchExportFormat(const std::string& format) { launchFormat(format); }

std::string launchCompanionPath(const std::string& path) {
  const std::filesystem::path out(path);
  return (out.parent_path() / (out.stem().string() + "_schedule.csv")).string();
}

TrainingFramework launchFormatFramework(const std::string& format) { return launchFormat(format).framework; }

LaunchFile exportLaunchConfig(const std::string& format, const ParallelPlan& p, const LaunchContext& ctx) {
  const LaunchFormat& f = launchFormat(format);
  LaunchFile file = f.write(p, ctx);
  if (p.training.framework != TrainingFramework::Generic && p.training.framework != f.framework)
    file.inexact.push_back("the plan was costed for " + std::string(trainingFrameworkName(p.training.framework)) + "; " +
                           std::string(trainingFrameworkName(f.framework)) +
                           " keeps its own buffers (simulate the file for its numbers)");
  return file;
}

std::string launchFormatOf(const std::string& text) {
  static const std::vector<const LaunchFormat*> byOrder = [] {
    std::vector<const LaunchFormat*> rows;
    for (const LaunchFormat& f : launchFormatTable()) rows.push_back(&f);
    std::sort(rows.begin(), rows.end(), [](const LaunchFormat* a, const LaunchFormat* b) { return a->detectOrder < b->detectOrder; });
    return rows;
  }();
  for (const LaunchFormat* f : byOrder)
    if (f->detect(text)) return f->name;
  return "megatron";
}

int64_t launchConfigSeqLength(const std::string& text) { return launchFormat(launchFormatOf(text)).seqLength(text); }

LaunchImport importLaunchConfig(const std::string& text, const std::string& source, const LayerStack& stack, int devices) {
  LaunchImport r = launchFormat(launchFormatOf(text)).read(text, source, stack, devices);
  if (r.seqLen > 0 && stack.seqLen > 0 && r.seqLen != stack.seqLen)
    throw Error(source, "the configuration's sequence length is " + std::to_string(r.seqLen) + " but the model was built for " +
                            std::to_string(stack.seqLen) + " tokens (--seq-len)");
  return r;
}

}  // namespace gp
