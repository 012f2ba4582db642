// graphplace-cli profile: measures the local GPUs through the CUDA plugin (core/profile) and
// writes a cluster file (and optionally a calibration table) built from the measurements; with
// --model, the calibration table also gets the model's ops timed on each profiled device kind.
// Progress goes to stdout (stderr with --json, which prints the report on stdout).
#include "cli/cli_profile.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_option_tables.h"
#include "cli/cli_optimize_options.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "io/model_loader.h"
#include "profile/model_calibration.h"
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

}  // namespace

ProfileTimer parseProfileTimer(const std::string& s) {
  if (s == "auto") return ProfileTimer::Auto;
  if (s == "cupti") return ProfileTimer::Cupti;
  if (s == "events") return ProfileTimer::Events;
  throw std::invalid_argument("--timer wants auto, cupti or events, got '" + s + "'");
}

std::vector<int> parseGpuNumbers(const std::string& text, const std::string& option) {
  std::vector<int> out;
  if (!text.empty() && (text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos))
    throw std::invalid_argument(option + " wants GPU numbers like 0,1, got '" + text + "'");
  for (const std::string& d : splitList(text)) {
    size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(d, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != d.size() || v < 0) throw std::invalid_argument(option + " wants GPU numbers like 0,1, got '" + d + "'");
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw std::invalid_argument(option + " lists GPU " + d + " twice");
    out.push_back(v);
  }
  return out;
}

int runProfileCommand(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "profile");
  if (!a.positional.empty()) throw std::invalid_argument("profile takes no positional arguments");
  const std::string outPath = a.value("--out").value_or("");
  if (outPath.empty()) throw std::invalid_argument("profile needs --out CLUSTER.json");
  checkWritable(outPath, "--out");
  const std::string calPath = a.value("--calibration").value_or("");
  if (a.has("--calibration")) checkWritable(calPath, "--calibration");
  const std::string reportPath = a.value("--report").value_or("");
  if (a.has("--report")) checkWritable(reportPath, "--report");
  {  // one file each: a long profile must not end with one output overwriting another
    auto same = [](const std::string& x, const std::string& y) {
      std::error_code ec;
      return !x.empty() && !y.empty() &&
             std::filesystem::weakly_canonical(x, ec) == std::filesystem::weakly_canonical(y, ec);
    };
    if (same(outPath, calPath) || same(outPath, reportPath) || same(calPath, reportPath))
      throw std::invalid_argument("--out, --calibration and --report need three different files");
  }
  std::string name = a.value("--name").value_or(std::filesystem::path(outPath).stem().string());
  if (name.empty()) name = "profiled";

  ProfileOptions o;
  o.quick = a.has("--quick");
  o.timer = parseProfileTimer(a.value("--timer").value_or("auto"));
  o.devices = parseGpuNumbers(a.value("--devices").value_or(""), "--devices");
  o.maxPeerExponent = a.integer("--max-peer-exponent", -1);  // declared 1 .. 34

  // --model: the model is loaded (and so checked) before the GPUs are measured
  const std::string modelSpec = a.value("--model").value_or("");
  if (a.has("--model") && modelSpec.empty()) throw std::invalid_argument("--model needs a MODEL (a file or zoo:NAME)");
  if (!a.has("--model"))
    for (const OptionSpec& option : modelOptionSpecs())
      if (a.has(option.name)) throw std::invalid_argument(option.name + " is a model option: it goes with --model MODEL");
  if (a.has("--model") && calPath.empty())
    throw std::invalid_argument("profile --model needs --calibration TABLE.json (the model's op times are written there)");
  std::optional<Graph> model;
  if (!modelSpec.empty()) model = loadModel(modelSpec, loadOptionsFrom(a));

  const bool json = a.has("--json");
  std::ostream& progress = json ? std::cerr : out;
  const ProfileProgressFn say = [&](const std::string& line) { progress << line << "\n" << std::flush; };
  InterruptScope interrupt;
  ProfileResult r = runProfile(o, say, interrupt.flag());

  const ProfileSummary s = summarizeProfile(r);
  const std::string clusterText = profileClusterJson(r, s, name);
  const Cluster check = parseClusterJson(clusterText, outPath);  // what we write must load
  size_t modelEntries = 0;
  std::string calText;  // the files are written once everything is measured
  if (!calPath.empty()) {
    CalibrationTable cal = profileCalibration(r, s);
    if (model) {  // each distinct op of the model, timed on each profiled device kind
      const CostModel cost(*model, check);
      std::vector<int> ordinals;
      for (const DeviceProfile& d : r.devices) ordinals.push_back(d.gpu.ordinal);
      KernelTimingOptions timing;
      timing.timer = o.timer;
      if (o.quick) timing.repetitions = 10;
      const CalibrationTable ops = calibrateModel(cost, ordinals, timing, say, interrupt.flag());
      for (const CalibrationTable::Entry& e : ops.entries()) cal.add(e);
      modelEntries = ops.size();
    }
    calText = profileCalibrationJson(r, cal);
  }
  writeTextFileAtomically(outPath, clusterText);
  if (!calPath.empty()) writeTextFileAtomically(calPath, calText);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(profileReportJson(r, s));
  j["cluster_file"] = outPath;
  j["cluster_name"] = check.name();
  if (!calPath.empty()) j["calibration_file"] = calPath;
  if (model) {
    j["model"] = modelSpec;
    j["model_entries"] = modelEntries;
  }
  const std::string report = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (!reportPath.empty()) writeTextFileAtomically(reportPath, report);
  if (json) {
    out << report;
    return 0;
  }
  out << "\n" << profileSummaryText(r, s);
  out << "wrote " << outPath << " (cluster '" << check.name() << "', " << check.numDevices() << " device(s))\n";
  if (!calPath.empty())
    out << "wrote " << calPath << " (calibration table"
        << (model ? ", " + std::to_string(modelEntries) + " entries for the ops of " + modelSpec : std::string()) << ")\n";
  if (!reportPath.empty()) out << "wrote " << reportPath << " (measurements, JSON)\n";
  return 0;
}

}  // namespace gp::cli
