// --calibration TABLE.json for the commands that build a CostModel (evaluate, baseline,
// optimize, bench): loads the CalibrationTable (docs/formats.md, "Calibration table") whose
// measured op times replace the roofline, warns when the table names none of the cluster's
// device kinds (it would change nothing), and says in each output which table was used and how
// many (op, device kind) times it supplied.
//
//   CalibrationOption cal = calibrationFrom(args);       // empty without --calibration
//   warnIfNoKindMatches(cal, cluster, std::cerr);
//   CostModel cost(g, cluster, {}, cal.table());
//   out << "calibration: " << calibrationText(cal, cost) << "\n";
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "cli/cli_args.h"
#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "cost/cost_model.h"

namespace gp::cli {

class CalibrationOption {
 public:
  CalibrationOption() = default;
  CalibrationOption(std::string path, CalibrationTable table) : path_(std::move(path)), table_(std::move(table)) {}

  bool used() const { return table_.has_value(); }
  const std::string& path() const { return path_; }
  // What CostModel takes: nullptr without --calibration.
  const CalibrationTable* table() const { return table_ ? &*table_ : nullptr; }

 private:
  std::string path_;
  std::optional<CalibrationTable> table_;
};

// Reads --calibration FILE: gp::Error naming the file (one line) when it is missing or bad,
// std::invalid_argument for an empty value. Empty option without --calibration.
CalibrationOption calibrationFrom(const Args& a);

// One line on `err` when the table's device kinds include none of the cluster's kinds.
// Returns whether it warned.
bool warnIfNoKindMatches(const CalibrationOption& cal, const Cluster& c, std::ostream& err);

// "T.json (412 of 1,220 op times measured)": numCalibrated() of numOps x device kinds.
std::string calibrationText(const CalibrationOption& cal, const CostModel& cost);
// Summed over several cost models (bench): "T.json (412 of 1,220 op times measured)".
std::string calibrationText(const CalibrationOption& cal, long long calibrated, long long opTimes);

// {"file": path, "entries": table size, "calibrated_op_times": k, "op_times": n}; null without
// a table.
nlohmann::ordered_json calibrationJson(const CalibrationOption& cal, const CostModel& cost);
// {"file", "entries"} only (bench's top level; the counts go per model); null without a table.
nlohmann::ordered_json calibrationFileJson(const CalibrationOption& cal);

// (op, device kind) pairs of a cost model: numOps x numDeviceKinds.
long long opTimes(const CostModel& cost);

}  // namespace gp::cli
