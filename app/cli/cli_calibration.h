// --calibration TABLE.json for the commands that build a CostModel (evaluate, baseline,
// optimize, measure, bench): loads the CalibrationTable (docs/formats.md, "Calibration table")
// whose measured op times replace the roofline, warns when the table names none of the
// cluster's device kinds (it would change nothing), and says in each output which table was
// used and how many (op, device kind) times it supplied. --costs learned:FILE (evaluate,
// baseline of one model, optimize) adds the times a learned kernel-cost model predicts for the ops
// the table lacks, on the device kind the model was measured on (optimize/learned_op_times.h).
//
//   CalibrationOption cal = calibrationFrom(args);       // empty without either option
//   warnIfNoKindMatches(cal, cluster, std::cerr);
//   CostModel cost(g, cluster, {}, cal.tableFor(g, cluster));
//   out << "calibration: " << calibrationText(cal, cost) << "\n";
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "cli/cli_args.h"
#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"
#include "io/model_loader.h"
#include "optimize/learned_op_times.h"

namespace gp::cli {

class CalibrationOption {
 public:
  CalibrationOption() = default;
  CalibrationOption(std::string path, CalibrationTable table) : path_(std::move(path)), table_(std::move(table)) {}

  bool used() const { return table_.has_value() || learned(); }
  const std::string& path() const { return path_; }
  // The measured table: nullptr without --calibration.
  const CalibrationTable* table() const { return table_ ? &*table_ : nullptr; }

  void setLearned(std::string modelPath, LearnedModelInfo info) {
    learnedPath_ = std::move(modelPath);
    learnedInfo_ = std::move(info);
  }
  bool learned() const { return !learnedPath_.empty(); }
  const std::string& learnedPath() const { return learnedPath_; }
  const LearnedModelInfo& learnedInfo() const { return learnedInfo_; }
  // What a CostModel of g on c takes: the measured table, with --costs learned:FILE plus the
  // model's predictions for the ops it lacks (valid until the next call); nullptr with neither.
  const CalibrationTable* tableFor(const Graph& g, const Cluster& c);
  // (op, device kind) times the last tableFor took from the learned model.
  int64_t learnedOpTimes() const { return lastLearned_.opTimes; }

 private:
  std::string path_;
  std::optional<CalibrationTable> table_;
  std::string learnedPath_;
  LearnedModelInfo learnedInfo_;
  CalibrationTable withLearned_;
  LearnedOpTimes lastLearned_;
};

// Reads --calibration FILE and --costs roofline|learned:FILE: gp::Error naming the file (one
// line) when one is missing or bad, std::invalid_argument for an empty or unknown value. Empty
// option without either.
CalibrationOption calibrationFrom(const Args& a);

// MODEL on --cluster with its cost model (--calibration, --costs), as `baseline` and `optimize`
// read them; a calibration that matches no device kind is a warning on stderr. Held by pointer:
// the cost model refers to the graph and the cluster beside it.
struct CostedModel {
  LoadOptions load;
  Cluster cluster;
  CalibrationOption calibration;
  Graph graph;
  std::unique_ptr<CostModel> cost;
};
std::unique_ptr<CostedModel> costedModelFrom(const Args& a, const std::string& spec);

// One line on `err` when the table's device kinds include none of the cluster's kinds, and one
// when the learned model's kind is not among them. Returns whether it warned.
bool warnIfNoKindMatches(const CalibrationOption& cal, const Cluster& c, std::ostream& err);

// "T.json (412 of 1,220 op times measured)": numCalibrated() of numOps x device kinds.
std::string calibrationText(const CalibrationOption& cal, const CostModel& cost);
// Summed over several cost models (bench): "T.json (412 of 1,220 op times measured)".
std::string calibrationText(const CalibrationOption& cal, long long calibrated, long long opTimes);

// {"file": path, "entries": table size, "calibrated_op_times": k, "op_times": n, "learned":
// {"file", "device_kind", "predicted_op_times"} or null}; null without either option.
nlohmann::ordered_json calibrationJson(const CalibrationOption& cal, const CostModel& cost);
// {"file", "entries"} only (bench's top level; the counts go per model); null without a table.
nlohmann::ordered_json calibrationFileJson(const CalibrationOption& cal);

// (op, device kind) pairs of a cost model: numOps x numDeviceKinds.
long long opTimes(const CostModel& cost);

}  // namespace gp::cli
