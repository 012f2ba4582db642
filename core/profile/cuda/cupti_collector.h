// The CUPTI Activity API collector (plugin only): kernels (CONCURRENT_KERNEL), copies (MEMCPY),
// peer copies (MEMCPY2) and memsets (MEMSET), with external correlation ids so that a caller
// can tag the work of each call it makes. CUPTI hands filled buffers to a callback (possibly on
// its own thread); the records are converted to ActivityRecord there and kept until take().
//
//   std::string why = CuptiCollector::start();      // "" when tracing is on
//   CuptiCollector::push(42); cublasGemmEx(...); CuptiCollector::pop();
//   cudaDeviceSynchronize();
//   std::vector<ActivityRecord> rs = CuptiCollector::take();   // externalId 42 on the GEMM's kernels
//
// CUPTI's callbacks are process-wide, so this is a set of static functions, not an object.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "profile/activity.h"

namespace gp::prof {

class CuptiCollector {
 public:
  // Registers the buffer callbacks and enables the activity kinds. Returns "" on success, else
  // a one-line reason (insufficient privileges, CUPTI unavailable). Idempotent.
  static std::string start();
  static bool running();
  // Disables the activity kinds after a final flush (records stay available to take()).
  static void stop();
  // Flushes CUPTI's buffers and returns every record collected since the last take(), with
  // external ids joined in. Call after synchronizing the work you want to see.
  static std::vector<ActivityRecord> take();
  static uint64_t droppedRecords();
  // Records CUPTI delivered without a start or end (left out of take()).
  static uint64_t incompleteRecords();
  // Runtime/driver API tracing (needed for external ids, but it adds host time to every call):
  // off around batches that do not tag their work. On after start().
  static void apiTracing(bool on);
  // Tags the CUDA calls the calling thread makes until pop() with `id` (> 0).
  static void push(uint64_t id);
  static void pop();
};

}  // namespace gp::prof
