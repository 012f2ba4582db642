#include "profile/cuda/cuda_errors.h"

#include "base/error.h"

namespace gp::prof {

void fail(const std::string& problem) {
  throw Error("profile", problem);
}

void checkCuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  fail(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

void checkCublas(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  fail(std::string(what) + ": cuBLAS " + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) + ")");
}

void checkCudnn(cudnnStatus_t s, const char* what) {
  if (s == CUDNN_STATUS_SUCCESS) return;
  fail(std::string(what) + ": cuDNN " + cudnnGetErrorString(s));
}

std::string cuptiMessage(CUptiResult r) {
  const char* s = nullptr;
  if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) return "CUPTI error " + std::to_string(static_cast<int>(r));
  return s;
}

std::string cudaVersionString(int v) {
  if (v <= 0) return "none";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string noDeviceMessage(cudaError_t e) {
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  const std::string why = std::string(" (") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
  if (driver == 0) return "no NVIDIA driver found: profiling needs an NVIDIA GPU with its driver (libcuda.so.1)" + why;
  if (e == cudaErrorNoDevice)
    return "no NVIDIA GPU found: the driver (CUDA " + cudaVersionString(driver) +
           ") sees no device; check CUDA_VISIBLE_DEVICES" + why;
  if (e == cudaErrorInsufficientDriver || e == cudaErrorCallRequiresNewerDriver || driver < runtime)
    return "the NVIDIA driver supports CUDA " + cudaVersionString(driver) + " but graphplace was built with CUDA " +
           cudaVersionString(runtime) + ": update the driver" + why;
  if (e == cudaErrorDevicesUnavailable) return "every NVIDIA GPU is busy or in exclusive use by another process" + why;
  return "the CUDA runtime cannot use the GPUs" + why;
}

}  // namespace gp::prof
