// Framework presets: the per-op host cost and the device memory a framework keeps.
#include <array>

#include "cluster/cluster.h"
#include "cluster/cluster_units.h"
#include "base/error.h"

namespace gp {
namespace {

constexpr double kMiB = 1024.0 * 1024;

// Sources of the figures (docs/simulator-fidelity.md, "Defaults and their sources", has the
// full references):
// - tf1-graph, 20 us per op: the TensorFlow GPU performance guide ("Optimize TensorFlow GPU
//   performance with the TensorFlow Profiler") puts the host-to-GPU launch latency at 20-40 us
//   and its example runs 126,224 small ops in 2.77 s, 22 us each. Reserved 1 GiB: the CUDA
//   context (about 300 MB, pytorch/pytorch#7320 on a K80) plus what the BFC allocator leaves to
//   the system, max(300 MiB, 5 %) of the device; the allocator coalesces, no fragmentation.
// - pytorch-eager, 8 us per op: 3.6 us of pure dispatch per op (H. He, "Making Deep Learning
//   Go Brrrr From First Principles", 2022), 5-7 us with autograd (pytorch/pytorch#41383), CPU
//   launch 5-20 us (Holistic Trace Analysis docs). Reserved 0.5 GiB: the CUDA context, 287 MB
//   with lazy loading to 667 MB without (pytorch/pytorch#86509). Fragmentation 5 %: an
//   estimate. GMLake (Guo et al., ASPLOS 2024) measures 15 % on average (up to 33 %) for LLM
//   fine-tuning with recomputation and offloading, where tensor sizes vary from step to step;
//   fixed-shape training splits the caching allocator's blocks far less.
// - xla, 3 us per kernel: back-to-back launches cost 1.8-2.7 us on P100/V100/A100 (ReFrame
//   kernel_latency references); a compiled step issues its kernels without a Python dispatcher.
//   Buffers are assigned at compile time: 3 % fragmentation.
// - cuda: kernels called back to back from C++ (microbenchmarks such as DeepBench): nothing.
const std::array<FrameworkSpec, 4> kPresets{{
    {"cuda", 0.0, 0, 0.0, false},
    {"tf1-graph", 20e-6, static_cast<int64_t>(1024 * kMiB), 0.0, false},
    {"pytorch-eager", 8e-6, static_cast<int64_t>(512 * kMiB), 0.05, false},
    {"xla", 3e-6, static_cast<int64_t>(512 * kMiB), 0.03, true},
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
