#include "session/parallel_task_load.h"

#include "base/error.h"
#include "base/file_text.h"
#include "launch/launch_formats.h"
#include "launch/launch_precision.h"
#include "zoo/zoo.h"

namespace gp {

int64_t defaultParallelBatch(const std::string& spec, const Cluster& c) {
  if (spec.rfind("zoo:", 0) == 0)
    for (const ZooEntry& z : zooModels())
      if (z.name == spec.substr(4)) return z.defaultBatch;
  return 8 * int64_t{c.numDevices()};
}

std::unique_ptr<ParallelTask> loadParallelTask(const std::string& spec, const Cluster& c, const ParallelLoad& load,
                                               std::string* configPrecision) {
  LoadOptions lo = load.model;
  lo.mode = GraphMode::Inference;  // the forward graph: backward and updates are costed per layer
  lo.precision = load.precision.value_or(defaultTrainingPrecision(c));
  if (configPrecision) configPrecision->clear();
  if (!load.launchConfig.empty()) {
    const std::string text = readFileText(load.launchConfig, "launch configuration");
    if (lo.zoo.seqLen == 0) lo.zoo.seqLen = static_cast<int>(launchConfigSeqLength(text));
    // A launch configuration trains in the precision it states (its framework's default where
    // it states none); a stated precision may only agree with it.
    if (auto lp = launchConfigPrecision(text, load.launchConfig)) {
      if (load.precision && *load.precision != lp->precision)
        throw Error(load.launchConfig, "the configuration trains in " + std::string(precisionName(lp->precision)) + " (" +
                                           lp->said + "), not the " + std::string(precisionName(*load.precision)) +
                                           " of --precision");
      lo.precision = lp->precision;
      if (configPrecision) *configPrecision = std::string(precisionName(lp->precision)) + " (" + lp->said + ")";
    }
  }
  const double samples = lo.zoo.batch > 0 ? lo.zoo.batch : 1;
  if (lo.zoo.batch == 0) lo.zoo.batch = 1;
  Graph g = loadModel(spec, lo);
  const int64_t batch = load.globalBatch > 0 ? load.globalBatch : defaultParallelBatch(spec, c);
  return std::make_unique<ParallelTask>(std::move(g), c, batch, spec, samples, load.calibration);
}

}  // namespace gp
