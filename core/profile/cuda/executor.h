// The GPU executor (plugin only): runs one step of a placed graph, a GpuProgram
// (profile/gpu_program.h), on the local GPUs, warmupSteps + steps times, per GpuRunOptions.
//
// Set-up, outside every timed step: cluster devices map to CUDA ordinals (options.ordinals, else
// device d on GPU d; only devices with launches or copies are used); each used GPU gets a
// DeviceContext (stream, cuBLAS, cuDNN), its convolutions' algorithm searches, and scratch
// allocated once (kernel_launch.h: a read-only input region filled with random data, an output
// region, cuDNN's workspace, a receive region for incoming copies); every ordered device pair
// with copies gets a non-blocking copy stream on the source GPU, with peer access enabled where
// cudaDeviceCanAccessPeer allows (else cudaMemcpyPeerAsync stages through the host).
//
// One step: a begin event on the first used GPU's stream that every stream waits on; then the
// program's issue order: a launch waits on the events of the copies it reads, runs under its
// CUPTI external id (launchExternalId) and records its event (when a copy waits on it); a copy
// waits on its producing launch's event, runs cudaMemcpyPeerAsync under copyExternalId and
// records its event (when a launch waits on it); then every stream records an end event, the
// first stream waits on them all and records the step's end. The step time is the elapsed time
// of the begin and end events. The CUPTI records of the warm-up steps are dropped; the result
// keeps the median measured step's.
//
// Errors: gp::Error("profile", one line): no driver or GPU, more devices than GPUs, an ordinal
// out of range, not enough memory ("gpu0: the plan's largest op needs 12.3 GiB of scratch,
// 9.1 GiB free"), an inconsistent program, "cancelled" (polled between steps).
#pragma once
#include <atomic>

#include "profile/gpu_program.h"
#include "profile/gpu_run.h"
#include "profile/profile_result.h"

namespace gp::prof {

void executeProgram(const GpuProgram& program, const GpuRunOptions& options, const ProfileProgressFn& progress,
                    const std::atomic<bool>* cancel, GpuRunResult& out);

}  // namespace gp::prof
