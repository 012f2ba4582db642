// Framework presets: the per-op host cost and the device memory a framework keeps.
#include <array>

#include "cluster/cluster.h"
#include "cluster/cluster_units.h"
#include "graph/error.h"

namespace gp {
namespace {

constexpr double kMiB = 1024.0 * 1024;

// Sources of the figures (also in docs/simulator-fidelity.md, "Defaults and their sources"):
// - CUDA context: 300-500 MiB of device memory per process on Volta/Ampere with cuDNN and
//   cuBLAS loaded (PyTorch "CUDA semantics" notes; nvidia-smi of an idle process).
// - PyTorch eager: about 10 us of host time per op between Python, the dispatcher and the
//   launch (H. He, "Making Deep Learning Go Brrrr From First Principles", 2022); its caching
//   allocator leaves 5-10 % of reserved memory unused to fragmentation (PyTorch memory
//   management notes, torch.cuda.memory_stats "inactive_split").
// - TensorFlow 1.x graph mode: the executor's per-op dispatch, about 10-20 us (TensorFlow
//   Eager paper, Agrawal et al., MLSys 2019, §6 microbenchmarks; Placeto's and HDP's TF
//   step traces show gaps of this size between small kernels); the BFC allocator maps
//   almost all memory up front and loses little to fragmentation.
// - XLA / compiled: fused kernels issued from a compiled executable, a few us each.
const std::array<FrameworkSpec, 4> kPresets{{
    {"cuda", 0.0, 0, 0.0},
    {"tf1-graph", 15e-6, static_cast<int64_t>(500 * kMiB), 0.03},
    {"pytorch-eager", 10e-6, static_cast<int64_t>(500 * kMiB), 0.08},
    {"xla", 3e-6, static_cast<int64_t>(500 * kMiB), 0.03},
}};

}  // namespace

FrameworkSpec frameworkPreset(std::string_view name, const std::string& source) {
  for (const FrameworkSpec& f : kPresets)
    if (f.name == name) return f;
  std::string names;
  for (const FrameworkSpec& f : kPresets) names += (names.empty() ? "" : ", ") + f.name;
  throw Error(source, "unknown framework '" + std::string(name) + "' (one of " + names + ")");
}

std::vector<std::string> frameworkPresetNames() {
  std::vector<std::string> out;
  for (const FrameworkSpec& f : kPresets) out.push_back(f.name);
  return out;
}

void Cluster::setFramework(FrameworkSpec f) {
  framework_ = std::move(f);
  for (DeviceSpec& d : devices_) {
    const double usable = static_cast<double>(d.memPhysical - framework_.reservedMemory) / (1.0 + framework_.fragmentation);
    d.memCapacity = usable > 0 ? static_cast<int64_t>(usable) : 0;
  }
}

}  // namespace gp
