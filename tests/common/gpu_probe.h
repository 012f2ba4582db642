// What the GPU tests (ctest label gpu) and the no-GPU profiler tests share: the GPUs here, or
// the one-line reason there are none usable, so that every GPU test skips with that reason on a
// machine without a GPU (or a build without the CUDA plugin) instead of failing.
#pragma once
#include <string>
#include <vector>

#include "base/error.h"
#include "profile/profile_plugin.h"

namespace gptest {

struct GpuProbe {
  std::vector<gp::GpuInfo> gpus;
  std::string error;  // why no GPU can be used; empty when gpus is not empty
};

inline GpuProbe probeGpus() {
  GpuProbe p;
  try {
    p.gpus = gp::listGpus();
  } catch (const gp::Error& e) {
    p.error = e.what();
  }
  if (p.error.empty() && p.gpus.empty()) p.error = "no GPU found";
  return p;
}

}  // namespace gptest
