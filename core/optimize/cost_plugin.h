// The learned cost model through the RL plugin (libgp_rl.so, loaded on first use): this
// machine's CPU as a MeasurementSource, training a model file, predicting with one.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/kernel_run.h"
#include "costmodel/learned_cost.h"

namespace gp {

// Throws gp::Error("optimize", ...) when the plugin cannot be loaded.
std::unique_ptr<MeasurementSource> cpuMeasurementSource(const std::atomic<bool>* cancel = nullptr);

// Trains on `train` and writes the model to `outPath`.
CostTrainResult trainCostModelFile(const CostDataset& train, const CostTrainOptions& options, const std::string& outPath,
                                   const CostTrainFn& onEpoch = {}, const std::atomic<bool>* cancel = nullptr);

// Predicted seconds of every configuration of every graph of `data`.
std::vector<std::vector<double>> predictCostsWith(const std::string& modelPath, const CostDataset& data);

// The task a model file was trained on and the device kind its data was measured on. Throws
// gp::Error(path, ...) on a file that is not a learned cost model.
struct LearnedModelInfo {
  CostTask task = CostTask::Kernel;
  std::string deviceKind;
};
LearnedModelInfo learnedModelInfo(const std::string& modelPath);

// resources/costmodels/<name> as installed or in the source tree.
std::string shippedCostModel(const std::string& name);

}  // namespace gp
