#include "io/model_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include "base/error.h"
#include "graph/training.h"
#include "io/dot_import.h"
#include "io/hf_config.h"
#include "io/json_io.h"
#include "onnxio/onnx_import.h"
#include "io/sha256.h"
#include "io/torchscript_plugin.h"

namespace gp {
namespace {

std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, ImporterFn>& registry() {
  static std::map<std::string, ImporterFn> r;
  return r;
}

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

Graph importFile(const std::string& path, const ImportOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(path, "no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(path, "is a directory, not a model file");
  const std::string ext = lowerExtension(path);
  if (ext == ".onnx") return importOnnx(path, options);
  if (ext == ".dot" || ext == ".gv") return importDot(path);
  if (ext == ".json") return readGraphJson(path);
  {
    std::lock_guard lock(registryMutex());
    auto it = registry().find(ext);
    if (it != registry().end()) return it->second(path, options);
  }
  if (ext == ".pt" || ext == ".pth" || ext == ".torchscript") return importTorchScriptViaPlugin(path, options);
  throw Error(path, "unknown model format '" + ext + "' (expected .onnx, .pt, .dot, .gv or .json)");
}

}  // namespace

void registerImporter(const std::string& extension, ImporterFn importer) {
  std::lock_guard lock(registryMutex());
  registry()[extension] = std::move(importer);
}

std::string modelSha256(const std::string& spec, const LoadOptions& options) {
  if (spec.rfind("zoo:", 0) == 0) {
    std::string key = spec + " batch=" + std::to_string(options.zoo.batch) + " seq=" +
                      std::to_string(options.zoo.seqLen) +
                      " mode=" + std::to_string(static_cast<int>(options.mode));
    // the size parameters only when set, so the hashes of paper-sized models stay as they were
    const ZooParams& z = options.zoo;
    if (z.layers != 0 || z.hidden != 0 || z.seed != 0)
      key += " layers=" + std::to_string(z.layers) + " hidden=" + std::to_string(z.hidden) +
             " seed=" + std::to_string(z.seed);
    if (options.precision != Precision::FP32) key += " precision=" + std::string(precisionName(options.precision));
    return sha256Hex(key);
  }
  if (const std::string hf = hfConfigPath(spec); !hf.empty()) {  // the config's bytes and what shapes its graph
    const ZooParams& z = options.zoo;
    std::string key = sha256OfFile(hf) + " batch=" + std::to_string(z.batch) + " seq=" + std::to_string(z.seqLen) +
                      " layers=" + std::to_string(z.layers) + " mode=" + std::to_string(static_cast<int>(options.mode)) +
                      " precision=" + std::string(precisionName(options.precision));
    return sha256Hex(key);
  }
  // a file run in another precision is another graph: the file's hash, hashed with the precision
  const std::string file = sha256OfFile(spec);
  if (options.precision == Precision::FP32) return file;
  return sha256Hex(file + " precision=" + std::string(precisionName(options.precision)));
}

std::string estimatedCostWarning(const Graph& g, int maxNames) {
  if (g.numEstimatedOps() == 0) return {};
  std::string names;
  int listed = 0;
  for (OpId op = 0; op < g.numOps() && listed < maxNames; ++op) {
    if (!g.costEstimated(op) || g.role(op) != OpRole::Forward) continue;
    names += (listed++ == 0 ? "" : ", ") + ("'" + g.opName(op) + "' (" + std::string(g.opType(op)) + ")");
  }
  int forward = 0;
  for (OpId op = 0; op < g.numOps(); ++op) forward += g.costEstimated(op) && g.role(op) == OpRole::Forward;
  if (forward > listed) names += ", and " + std::to_string(forward - listed) + " more";
  return std::to_string(forward) + (forward == 1 ? " op has" : " ops have") +
         " shapes the importer could not learn; " + (forward == 1 ? "its" : "their") +
         " cost is estimated: " + names;
}

Graph loadModel(const std::string& spec, const LoadOptions& options) {
  const std::string hf = hfConfigPath(spec);
  const bool isZoo = spec.rfind("zoo:", 0) == 0 || !hf.empty();  // generated: a training step by default
  Graph g = !hf.empty() ? hfModel(hf, options.zoo)
            : isZoo     ? makeZooModel(spec.substr(4), options.zoo)
                        : importFile(spec, options.import);
  if (options.warn && g.numEstimatedOps() > 0) options.warn(spec + ": " + estimatedCostWarning(g));
  const bool training =
      options.mode == GraphMode::Training || (options.mode == GraphMode::Default && isZoo);
  bool alreadyTraining = false;
  for (OpId op = 0; op < g.numOps() && !alreadyTraining; ++op) alreadyTraining = g.role(op) != OpRole::Forward;
  if (options.mode == GraphMode::Inference && alreadyTraining)
    throw Error(spec, "this graph is already a training graph; it cannot be opened in inference mode");
  if (training && !alreadyTraining) {
    try {
      g = deriveTrainingGraph(g);
    } catch (const Error& e) {
      throw Error(spec, e.problem());
    }
  }
  return options.precision == Precision::FP32 ? g : withPrecision(g, options.precision);
}

}  // namespace gp
