// The optimizer step of an optimizer offloaded to the CPU (DeepSpeed's ZeRO-Offload,
// Megatron-LM's --optimizer-cpu-offload, FSDP2's CPUOffloadPolicy): each step the gradients of
// the rank's shard go down the host link, the CPU runs Adam over its fp32 master weights and
// moments, and the updated 16-bit weights come back up, one after the other.
//
// The host link is the GPU's PCIe: what a pinned copy reaches on a x16 link of its generation,
// about 12 GB/s on PCIe 3 (V100), 24 GB/s on PCIe 4 (A100, A10, L4, L40), 48 GB/s on PCIe 5
// (H100, H200, B200). The CPU's Adam is memory-bound: it reads the gradient, reads and writes
// the fp32 master weight and both moments, and writes the 16-bit weight, moving
// kCpuAdamBytesPerParam bytes per parameter at kCpuAdamBandwidth per GPU process (a two-socket
// server's ~200 GB/s shared by its eight ranks).
#pragma once
#include "cluster/cluster.h"
#include "parallel/training_setup.h"

namespace gp {

inline constexpr double kCpuAdamBandwidth = 25e9;  // bytes/s per rank
inline constexpr double kCpuAdamBytesPerParam = 4 + 2 * (4 + 4 + 4) + 2;

// Bytes/s of a pinned copy between the device and host memory, by the device kind's PCIe generation.
double hostLinkBandwidth(const DeviceSpec& d);

// Seconds of the offloaded step over `params` parameters of the rank: gradients down
// (tb.grad bytes each), Adam on the CPU, 16-bit weights (tb.weight) up.
double offloadedUpdateSeconds(double params, const TrainingBytes& tb, const DeviceSpec& d);

}  // namespace gp
