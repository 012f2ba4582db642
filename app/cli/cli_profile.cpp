// graphplace-cli profile: measures the local GPUs through the CUDA plugin (core/profile) and
// writes a cluster file (and optionally a calibration table) built from the measurements.
// Progress goes to stdout (stderr with --json, which prints the report on stdout).
#include "cli/cli_profile.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_optimize_options.h"
#include "cluster/cluster.h"
#include "graph/error.h"
#include "profile/profile_output.h"
#include "profile/profile_plugin.h"

namespace gp::cli {
namespace {

// The folder of `path` must exist, so that a long profile does not end in "cannot open".
void checkWritable(const std::string& path, const char* option) {
  if (path.empty()) throw std::invalid_argument(std::string(option) + " needs a file name");
  std::filesystem::path p(path);
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) throw Error(path, "is a directory; give a file name");
  const auto dir = p.parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    throw Error(path, "folder " + dir.string() + " does not exist");
}

ProfileTimer parseTimer(const std::string& s) {
  if (s == "auto") return ProfileTimer::Auto;
  if (s == "cupti") return ProfileTimer::Cupti;
  if (s == "events") return ProfileTimer::Events;
  throw std::invalid_argument("--timer wants auto, cupti or events, got '" + s + "'");
}

}  // namespace

int runProfileCommand(const std::vector<std::string>& argv, std::ostream& out) {
  Args a =
      parseArgs(argv, {"--out", "--calibration", "--report", "--name", "--devices", "--timer", "--max-peer-exponent"},
                {"--quick", "--json"});
  if (!a.positional.empty()) throw std::invalid_argument("profile takes no positional arguments");
  const std::string outPath = a.value("--out").value_or("");
  if (outPath.empty()) throw std::invalid_argument("profile needs --out CLUSTER.json");
  checkWritable(outPath, "--out");
  const std::string calPath = a.value("--calibration").value_or("");
  if (a.has("--calibration")) checkWritable(calPath, "--calibration");
  const std::string reportPath = a.value("--report").value_or("");
  if (a.has("--report")) checkWritable(reportPath, "--report");
  std::string name = a.value("--name").value_or(std::filesystem::path(outPath).stem().string());
  if (name.empty()) name = "profiled";

  ProfileOptions o;
  o.quick = a.has("--quick");
  o.timer = parseTimer(a.value("--timer").value_or("auto"));
  for (const std::string& d : splitList(a.value("--devices").value_or(""))) {
    size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(d, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != d.size() || v < 0) throw std::invalid_argument("--devices wants GPU numbers like 0,1, got '" + d + "'");
    o.devices.push_back(v);
  }
  o.maxPeerExponent = a.intValue("--max-peer-exponent", -1);
  if (a.has("--max-peer-exponent") && (o.maxPeerExponent < 1 || o.maxPeerExponent > 34))
    throw std::invalid_argument("--max-peer-exponent wants 1..34");

  const bool json = a.has("--json");
  std::ostream& progress = json ? std::cerr : out;
  InterruptScope interrupt;
  ProfileResult r = runProfile(
      o, [&](const std::string& line) { progress << line << "\n"
                                                 << std::flush; }, interrupt.flag());

  const ProfileSummary s = summarizeProfile(r);
  const std::string clusterText = profileClusterJson(r, s, name);
  const Cluster check = parseClusterJson(clusterText, outPath);  // what we write must load
  writeTextFileAtomically(outPath, clusterText);
  if (!calPath.empty()) {
    const CalibrationTable cal = profileCalibration(r, s);
    writeTextFileAtomically(calPath, profileCalibrationJson(r, cal));
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(profileReportJson(r, s));
  j["cluster_file"] = outPath;
  j["cluster_name"] = check.name();
  if (!calPath.empty()) j["calibration_file"] = calPath;
  const std::string report = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (!reportPath.empty()) writeTextFileAtomically(reportPath, report);
  if (json) {
    out << report;
    return 0;
  }
  out << "\n" << profileSummaryText(r, s);
  out << "wrote " << outPath << " (cluster '" << check.name() << "', " << check.numDevices() << " device(s))\n";
  if (!calPath.empty()) out << "wrote " << calPath << " (calibration table)\n";
  if (!reportPath.empty()) out << "wrote " << reportPath << " (measurements, JSON)\n";
  return 0;
}

}  // namespace gp::cli
