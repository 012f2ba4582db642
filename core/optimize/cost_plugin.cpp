#include "optimize/cost_plugin.h"

#include "base/resource_dir.h"
#include "optimize/rl_plugin.h"

namespace gp {
namespace {

class PluginCpuSource : public MeasurementSource {
 public:
  explicit PluginCpuSource(const std::atomic<bool>* cancel) : cancel_(cancel), time_(rlCpuTimeEntry()) {
    rlCpuInfoEntry()(kind_, threads_);
  }
  std::string deviceKind() const override { return kind_; }
  std::vector<int32_t> threadChoices() const override { return threads_; }
  std::vector<RunTiming> time(const std::vector<KernelRun>& runs, int repeats) override {
    std::vector<RunTiming> out;
    time_(runs, repeats, cancel_, out);
    return out;
  }

 private:
  const std::atomic<bool>* cancel_;
  RlCpuTimeFn time_;
  std::string kind_;
  std::vector<int32_t> threads_;
};

}  // namespace

std::unique_ptr<MeasurementSource> cpuMeasurementSource(const std::atomic<bool>* cancel) {
  return std::make_unique<PluginCpuSource>(cancel);
}

CostTrainResult trainCostModelFile(const CostDataset& train, const CostTrainOptions& options, const std::string& outPath,
                                   const CostTrainFn& onEpoch, const std::atomic<bool>* cancel) {
  CostTrainResult r;
  rlCostTrainEntry()(train, options, outPath, onEpoch, cancel, r);
  return r;
}

std::vector<std::vector<double>> predictCostsWith(const std::string& modelPath, const CostDataset& data) {
  std::vector<std::vector<double>> out;
  rlCostPredictEntry()(modelPath, data, out);
  return out;
}

LearnedModelInfo learnedModelInfo(const std::string& modelPath) {
  LearnedModelInfo info;
  rlCostInfoEntry()(modelPath, info.task, info.deviceKind);
  return info;
}

std::string shippedCostModel(const std::string& name) { return findResourceFile("costmodels", name); }

}  // namespace gp
