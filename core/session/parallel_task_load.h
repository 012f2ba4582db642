// A model as a parallel-plan task, loaded one way for every front end (`parallelize`, the
// app's Parallel Plan view, `fidelity`'s published runs, the Python module): the forward graph
// (backward and optimizer updates are costed per layer), in the training precision, a zoo model
// built at batch 1 (its layer values are per sample), its layer stack, cost model and stage
// cost model (parallel/parallel_task.h).
//
//   ParallelLoad load;
//   load.model = loadOptionsFrom(args);          // dims, --seq-len, --batch
//   load.precision = Precision::BF16;            // nullopt: the cluster's training precision
//   auto task = loadParallelTask("zoo:gpt_13b", cluster, load);
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cost/calibration.h"
#include "graph/precision.h"
#include "io/model_loader.h"
#include "parallel/parallel_task.h"

namespace gp {

struct ParallelLoad {
  // The model's dimensions (zoo parameters, import options). Its mode and precision are the
  // loader's; a zoo batch above 1 is the samples the graph holds.
  LoadOptions model;
  // The precision the user stated; nullopt: the launch configuration's, else the cluster's
  // training precision (defaultTrainingPrecision).
  std::optional<Precision> precision;
  // A launch configuration the plan comes from (empty: none): the model is built at its
  // sequence length unless model.zoo.seqLen says one, and trains in the precision it states;
  // a stated `precision` must agree (gp::Error naming the file otherwise).
  std::string launchConfig;
  const CalibrationTable* calibration = nullptr;  // measured op times; null: the roofline's
  int64_t globalBatch = 0;                        // 0: defaultParallelBatch
};

// The batch a plan starts with: a zoo model's documented one, else 8 samples per device.
int64_t defaultParallelBatch(const std::string& spec, const Cluster& c);

// Throws gp::Error naming the model or the file. `configPrecision` (may be null) gets how the
// launch configuration states its precision ("bf16 (--bf16)"), empty when it states none.
std::unique_ptr<ParallelTask> loadParallelTask(const std::string& spec, const Cluster& c, const ParallelLoad& load,
                                               std::string* configPrecision = nullptr);

}  // namespace gp
