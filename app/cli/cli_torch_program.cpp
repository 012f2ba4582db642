#include "cli/cli_torch_program.h"

#include <filesystem>
#include <set>

#include "base/error.h"
#include "base/file_text.h"
#include "io/torch_program.h"

namespace gp::cli {

namespace {

TorchNames namesOf(const std::string& spec) {
  std::string ext = std::filesystem::path(spec).extension().string();
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == ".onnx") return TorchNames::OnnxExport;
  if (ext == ".pt" || ext == ".pth" || ext == ".torchscript") return TorchNames::TorchScript;
  throw Error(spec, "--torch-program needs a model exported from PyTorch (.onnx from torch.onnx, or TorchScript .pt)");
}

}  // namespace

void writeTorchProgram(const std::string& spec, const Graph& g, const Cluster& c, const Plan& plan,
                       const Measurement& m, const std::string& path, std::ostream& out, std::ostream& err) {
  const TorchNames names = namesOf(spec);
  std::vector<double> start(static_cast<size_t>(g.numOps()), 0.0);
  for (const TimelineEvent& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Op) start[e.id] = e.start;
  std::vector<std::string> deviceNames;
  for (int d = 0; d < c.numDevices(); ++d) deviceNames.push_back(c.device(d).name);
  const TorchSplit split = splitForTorch(g, plan, start, names, deviceNames);
  writeTextFileAtomically(path, torchProgram(split, c, spec));
  const std::set<int32_t> used(split.partitionDevice.begin(), split.partitionDevice.end());
  out << "torch program " << path << ": " << split.partitionDevice.size() << " partitions on " << used.size()
      << " devices, device map " << (split.moduleAligned ? std::to_string(split.deviceMap.size()) + " modules" : "none")
      << "\n";
  if (!split.moduleAligned) err << "graphplace-cli: note: " << path << ": no device map: " << split.notAligned << "\n";
  if (split.cyclesFound > 0) {
    err << "graphplace-cli: note: " << path << ": " << split.cyclesFound
        << " cycle(s) between devices, each giving a device another partition\n";
    for (const std::string& cycle : split.cycles) err << "  " << cycle << "\n";
  }
}

}  // namespace gp::cli
