#include "cli/cli_calibration.h"

#include <set>
#include <stdexcept>

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

CalibrationOption calibrationFrom(const Args& a) {
  auto path = a.value("--calibration");
  if (!path) return {};
  if (path->empty()) throw std::invalid_argument("--calibration needs a calibration table file (TABLE.json)");
  return CalibrationOption(*path, CalibrationTable::load(*path));
}

bool warnIfNoKindMatches(const CalibrationOption& cal, const Cluster& c, std::ostream& err) {
  if (!cal.used()) return false;
  std::set<std::string> tableKinds, clusterKinds;
  for (const auto& e : cal.table()->entries()) tableKinds.insert(e.deviceKind);
  for (int d = 0; d < c.numDevices(); ++d) clusterKinds.insert(c.device(d).kind);
  for (const auto& k : tableKinds)
    if (clusterKinds.count(k)) return false;
  err << "graphplace-cli: warning: " << cal.path() << ": "
      << (tableKinds.empty() ? std::string("the table has no entries")
                             : "its device kinds (" + joined(tableKinds, 4) + ") include none of cluster " + c.name() +
                                   "'s (" + joined(clusterKinds, 4) + ")")
      << ", so it calibrates nothing\n";
  return true;
}

long long opTimes(const CostModel& cost) {
  return static_cast<long long>(cost.graph().numOps()) * cost.numDeviceKinds();
}

std::string calibrationText(const CalibrationOption& cal, long long calibrated, long long total) {
  return cal.path() + " (" + grouped(calibrated) + " of " + grouped(total) + " op times measured)";
}

std::string calibrationText(const CalibrationOption& cal, const CostModel& cost) {
  return calibrationText(cal, cost.numCalibrated(), opTimes(cost));
}

nlohmann::ordered_json calibrationFileJson(const CalibrationOption& cal) {
  if (!cal.used()) return nullptr;
  return {{"file", cal.path()}, {"entries", cal.table()->size()}};
}

nlohmann::ordered_json calibrationJson(const CalibrationOption& cal, const CostModel& cost) {
  if (!cal.used()) return nullptr;
  nlohmann::ordered_json j = calibrationFileJson(cal);
  j["calibrated_op_times"] = cost.numCalibrated();
  j["op_times"] = opTimes(cost);
  return j;
}

}  // namespace gp::cli
