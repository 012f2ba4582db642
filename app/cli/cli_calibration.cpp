#include "cli/cli_calibration.h"

#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>

#include "base/error.h"
#include "cli/cli_model_options.h"
#include "optimize/cost_plugin.h"

namespace gp::cli {
namespace {

// 1220 -> "1,220"
std::string grouped(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string joined(const std::set<std::string>& names, size_t most) {
  std::string s;
  size_t n = 0;
  for (const auto& name : names) {
    if (n == most) {
      s += ", ... (" + std::to_string(names.size()) + " in all)";
      break;
    }
    s += (n++ ? ", " : "") + name;
  }
  return s;
}

}  // namespace

const CalibrationTable* CalibrationOption::tableFor(const Graph& g, const Cluster& c) {
  lastLearned_ = {};
  if (!learned()) return table();
  withLearned_ = table_ ? *table_ : CalibrationTable{};
  lastLearned_ = addLearnedOpTimes(learnedPath_, learnedInfo_, g, c, withLearned_);
  return &withLearned_;
}

CalibrationOption calibrationFrom(const Args& a) {
  CalibrationOption cal;
  if (auto path = a.value("--calibration")) {
    if (path->empty()) throw std::invalid_argument("--calibration needs a calibration table file (TABLE.json)");
    cal = CalibrationOption(*path, CalibrationTable::load(*path));
  }
  if (auto costs = a.value("--costs"); costs && *costs != "roofline") {
    constexpr std::string_view kLearned = "learned:";
    if (costs->rfind(kLearned, 0) != 0 || costs->size() == kLearned.size())
      throw std::invalid_argument("--costs must be roofline or learned:FILE (a kernel-task model of costmodel train), got '" +
                                  *costs + "'");
    const std::string file = costs->substr(kLearned.size());
    if (std::error_code ec; !std::filesystem::is_regular_file(file, ec)) throw Error(file, "no such cost-model file");
    cal.setLearned(file, learnedModelInfo(file));
    requireKernelModel(file, cal.learnedInfo());  // before any slow work
  }
  return cal;
}

bool warnIfNoKindMatches(const CalibrationOption& cal, const Cluster& c, std::ostream& err) {
  std::set<std::string> clusterKinds;
  for (int d = 0; d < c.numDevices(); ++d) clusterKinds.insert(c.device(d).kind);
  bool warned = false;
  if (const CalibrationTable* table = cal.table()) {
    std::set<std::string> tableKinds;
    for (const auto& e : table->entries()) tableKinds.insert(e.deviceKind);
    bool matches = false;
    for (const auto& k : tableKinds) matches = matches || clusterKinds.count(k) > 0;
    if (!matches) {
      err << "graphplace-cli: warning: " << cal.path() << ": "
          << (tableKinds.empty() ? std::string("the table has no entries")
                                 : "its device kinds (" + joined(tableKinds, 4) + ") include none of cluster " +
                                       c.name() + "'s (" + joined(clusterKinds, 4) + ")")
          << ", so it calibrates nothing\n";
      warned = true;
    }
  }
  if (cal.learned() && !clusterKinds.count(cal.learnedInfo().deviceKind)) {
    err << "graphplace-cli: warning: " << cal.learnedPath() << ": learned on device kind " << cal.learnedInfo().deviceKind
        << ", which cluster " << c.name() << " lacks (" << joined(clusterKinds, 4) << "), so it predicts nothing\n";
    warned = true;
  }
  return warned;
}

long long opTimes(const CostModel& cost) {
  return static_cast<long long>(cost.graph().numOps()) * cost.numDeviceKinds();
}

std::string calibrationText(const CalibrationOption& cal, long long calibrated, long long total) {
  return cal.path() + " (" + grouped(calibrated) + " of " + grouped(total) + " op times measured)";
}

std::string calibrationText(const CalibrationOption& cal, const CostModel& cost) {
  const long long learned = cal.learnedOpTimes(), measured = cost.numCalibrated() - learned;
  const std::string learnedText = "learned " + cal.learnedPath() + " (" + grouped(learned);
  if (!cal.learned()) return calibrationText(cal, cost.numCalibrated(), opTimes(cost));
  if (!cal.table()) return learnedText + " of " + grouped(opTimes(cost)) + " op times predicted)";
  return calibrationText(cal, measured, opTimes(cost)) + " + " + learnedText + " predicted)";
}

nlohmann::ordered_json calibrationFileJson(const CalibrationOption& cal) {
  if (!cal.used()) return nullptr;
  if (!cal.table()) return {{"file", nullptr}, {"entries", 0}};
  return {{"file", cal.path()}, {"entries", cal.table()->size()}};
}

nlohmann::ordered_json calibrationJson(const CalibrationOption& cal, const CostModel& cost) {
  if (!cal.used()) return nullptr;
  nlohmann::ordered_json j = calibrationFileJson(cal);
  j["calibrated_op_times"] = cost.numCalibrated();
  j["op_times"] = opTimes(cost);
  j["learned"] = cal.learned() ? nlohmann::ordered_json{{"file", cal.learnedPath()},
                                                        {"device_kind", cal.learnedInfo().deviceKind},
                                                        {"predicted_op_times", cal.learnedOpTimes()}}
                               : nlohmann::ordered_json(nullptr);
  return j;
}

std::unique_ptr<CostedModel> costedModelFrom(const Args& a, const std::string& spec) {
  LoadOptions load = loadOptionsFrom(a);
  Cluster cluster = clusterFrom(a, nullptr);
  auto m = std::make_unique<CostedModel>(CostedModel{std::move(load), std::move(cluster), calibrationFrom(a), Graph{}, nullptr});
  warnIfNoKindMatches(m->calibration, m->cluster, std::cerr);
  m->graph = loadModel(spec, m->load);
  m->cost = std::make_unique<CostModel>(m->graph, m->cluster, CostParams{}, m->calibration.tableFor(m->graph, m->cluster));
  return m;
}

}  // namespace gp::cli
