// What PyTorch's CUDA caching allocator reserves for a stage's memory (c10/cuda/
// CUDACachingAllocator.cpp): every block is rounded up to 512 bytes (kMinBlockSize); a block
// of up to 1 MiB (kSmallSize) comes from a 2 MiB segment (kSmallBuffer), one below 10 MiB
// (kMinLargeAlloc) from a 20 MiB segment (kLargeBuffer), a larger one from a segment of its size
// rounded up to 2 MiB (kRoundLarge); and freed blocks stay reserved, so what is reserved exceeds
// what is allocated by the fragmentation the framework shows (FrameworkSpec::fragmentation,
// the same share that cuts each device's usable memory).
//
// A stage's reserved peak: its weight, gradient and optimizer buffers and each cuBLAS
// workspace as segments of their own (Megatron-LM's contiguous buffers, FSDP's flat shards),
// its transient peak (activations, or the optimizer's copy) in 512-byte blocks, all of it x
// (1 + fragmentation). NCCL's buffers are allocated beside the allocator and are not in it.
#pragma once
#include <cstdint>

#include "cluster/cluster.h"

namespace gp {

inline constexpr double kAllocatorBlockBytes = 512;
inline constexpr double kAllocatorSmallSize = 1 << 20;
inline constexpr double kAllocatorSmallSegment = 2 << 20;
inline constexpr double kAllocatorMinLargeAlloc = 10 << 20;
inline constexpr double kAllocatorLargeSegment = 20 << 20;
inline constexpr double kAllocatorRoundLarge = 2 << 20;

// A request of `bytes` as the block the allocator hands out (0 stays 0).
double allocatorBlockBytes(double bytes);
// The segment (cudaMalloc) the allocator reserves for a block of `bytes` when no cached one fits.
double allocatorSegmentBytes(double bytes);

struct StageMemory;
// The reserved peak of a stage (the formula above), in bytes; `oneWorkspace`: the bytes of one of
// its cuBLAS workspaces (cublasWorkspaceBytes), of which s.runtime.workspaces holds a whole number.
double reservedPeakBytes(const StageMemory& s, const FrameworkSpec& framework, double oneWorkspace);

}  // namespace gp
