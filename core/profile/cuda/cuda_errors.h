// One-line errors from CUDA runtime, cuBLAS, cuDNN and CUPTI status codes (plugin only).
// Each check throws gp::Error("profile", "<what>: <library's message>").
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cupti.h>

#include <string>

namespace gp::prof {

[[noreturn]] void fail(const std::string& problem);
void checkCuda(cudaError_t e, const char* what);
void checkCublas(cublasStatus_t s, const char* what);
void checkCudnn(cudnnStatus_t s, const char* what);
std::string cuptiMessage(CUptiResult r);  // "CUPTI_ERROR_...: text"

// The one-line explanation of why the CUDA runtime cannot be used here (no driver, driver too
// old, no device, ...), from the error cudaGetDeviceCount returned.
std::string noDeviceMessage(cudaError_t e);

// "13.0" from 13000.
std::string cudaVersionString(int v);

}  // namespace gp::prof
