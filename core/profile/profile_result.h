// What the GPU profiler measures (filled by the CUDA plugin, profile/cuda) and the options it
// runs with. Plain data, CUDA-free: the fits and the files written from it are in
// profile/profile_output.h.
//
// Every benchmark is a batch of back-to-back repetitions of one operation on one stream:
//   seconds       = median start-to-start interval of consecutive repetitions (the op's time in
//                   a stream of such ops, launch cost included: what the simulator charges)
//   kernelSeconds = median time from a repetition's first kernel start to its last kernel end
// With CUDA events instead of CUPTI both are the batch's elapsed time / repetitions.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "graph/op_class.h"
#include "graph/dtype.h"
#include "profile/link_fit.h"

namespace gp {

enum class ProfileTimer : uint8_t {
  Auto,    // CUPTI; when CUPTI cannot start, CUDA events (with a note)
  Cupti,   // CUPTI or an error
  Events,  // CUDA events only
};

struct ProfileOptions {
  bool quick = false;  // fewer sizes and repetitions (about 10 s per GPU)
  ProfileTimer timer = ProfileTimer::Auto;
  std::vector<int> devices;  // CUDA ordinals to profile; empty: all
  int maxPeerExponent = -1;  // largest peer-copy size 2^k; -1: 29 (26 with quick)
};

// One line of progress ("[3/9] gpu0: GEMM f16 4096^3 ... 612 TFLOP/s").
using ProfileProgressFn = std::function<void(const std::string& line)>;

struct GpuInfo {
  int ordinal = 0;
  std::string name;      // "NVIDIA H200"
  std::string pciBusId;  // "0000:19:00.0"
  int ccMajor = 0, ccMinor = 0;
  int multiprocessors = 0;
  double smClockHz = 0;  // max SM clock the driver reports
  double memClockHz = 0;
  int memBusWidthBits = 0;
  int64_t memoryBytes = 0;
};

// One measured operation, described as a graph op would be (for the calibration table).
struct KernelBench {
  std::string label;   // "GEMM f16 4096x4096x4096", "conv 3x3 ...", "elementwise add"
  std::string opType;  // "MatMul", "Conv2D", "Add", "Sum", "Copy", "NoOp"
  OpClass opClass = OpClass::Other;
  DType dtype = DType::F32;
  std::vector<std::vector<int64_t>> inputShapes;
  double flops = 0;    // per repetition
  double bytes = 0;    // memory traffic per repetition (read + written)
  double seconds = 0;  // see the file comment
  double kernelSeconds = 0;
  int repetitions = 0;
  int kernelsPerRepetition = 0;  // 0 when unknown (CUDA events)
  bool calibrate = true;         // write it to the calibration table
};

struct DeviceProfile {
  GpuInfo gpu;
  bool measured = false;  // compute benchmarks ran on it (quick mode: one GPU per kind)
  std::vector<KernelBench> kernels;
  double memBandwidth = 0;        // bytes/s, device-to-device copy counting read + write
  double launchOverhead = 0;      // s, start-to-start of back-to-back empty kernels
  double emptyKernelSeconds = 0;  // s, an empty kernel's own duration
};

struct PeerProfile {
  int src = 0, dst = 0;                 // indices into ProfileResult::devices
  bool peerAccess = false;              // direct peer access was enabled (else staged through the host)
  std::vector<TransferSample> samples;  // medians per size
};

struct ProfileResult {
  std::string timer;                          // "cupti" or "cuda-events"
  std::string timerNote;                      // why events were used, when they were
  std::string driverVersion, runtimeVersion;  // "13.0"
  std::string hostName;
  std::vector<DeviceProfile> devices;
  std::vector<PeerProfile> peers;  // every ordered pair of profiled devices
  double wallSeconds = 0;
};

}  // namespace gp
