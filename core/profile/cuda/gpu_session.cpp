#include "profile/cuda/gpu_session.h"

#include <cuda_runtime_api.h>

#include "profile/cuda/cuda_errors.h"
#include "profile/cuda/cupti_collector.h"

namespace gp::prof {

std::vector<GpuInfo> discoverGpus() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) fail(noDeviceMessage(e));
  if (count == 0) fail(noDeviceMessage(cudaErrorNoDevice));
  std::vector<GpuInfo> gpus;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    checkCuda(cudaGetDeviceProperties(&p, d), "cudaGetDeviceProperties");
    GpuInfo g;
    g.ordinal = d;
    g.name = p.name;
    g.ccMajor = p.major;
    g.ccMinor = p.minor;
    g.multiprocessors = p.multiProcessorCount;
    g.memoryBytes = static_cast<int64_t>(p.totalGlobalMem);
    g.memBusWidthBits = p.memoryBusWidth;
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) == cudaSuccess) g.smClockHz = khz * 1e3;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d) == cudaSuccess) g.memClockHz = khz * 1e3;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) g.pciBusId = bus;
    gpus.push_back(std::move(g));
  }
  return gpus;
}

void checkOrdinal(int ordinal, int count) {
  if (ordinal < 0 || ordinal >= count)
    fail("there is no GPU " + std::to_string(ordinal) + " (" + std::to_string(count) + " found)");
}

CuptiSession::CuptiSession(ProfileTimer timer) {
  if (timer == ProfileTimer::Events) return;
  std::string why = CuptiCollector::start();
  if (why.empty()) {
    on_ = true;
    return;
  }
  if (timer == ProfileTimer::Cupti) fail(why);
  note_ = std::move(why);
}

CuptiSession::~CuptiSession() {
  if (on_) CuptiCollector::stop();
}

}  // namespace gp::prof
