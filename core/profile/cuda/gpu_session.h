// What every plugin entry starts with (plugin only): the GPUs the CUDA runtime sees, and the
// timer a run uses: CUPTI per ProfileTimer (Auto: CUPTI, else CUDA events with the reason),
// stopped again when the run ends.
//
//   std::vector<GpuInfo> gpus = discoverGpus();      // throws the one-line "no driver / no GPU"
//   CuptiSession cupti(options.timer);               // before any timed work
//   BenchTimer timer(cupti.on());  ... cupti.note()  // why events were used, when they were
#pragma once
#include <string>
#include <vector>

#include "profile/profile_result.h"

namespace gp::prof {

// Every GPU the runtime sees, in ordinal order. Throws gp::Error("profile", ...) with
// noDeviceMessage() when there is none or no driver.
std::vector<GpuInfo> discoverGpus();

// Fails with "there is no GPU 3 (2 found)" when the ordinal is not one of `count`.
void checkOrdinal(int ordinal, int count);

class CuptiSession {
 public:
  // Cupti: CUPTI or a gp::Error with the reason; Auto: CUPTI, else events and note() says why;
  // Events: no CUPTI.
  explicit CuptiSession(ProfileTimer timer);
  ~CuptiSession();
  CuptiSession(const CuptiSession&) = delete;
  CuptiSession& operator=(const CuptiSession&) = delete;

  bool on() const { return on_; }
  const char* timerName() const { return on_ ? "cupti" : "cuda-events"; }
  const std::string& note() const { return note_; }

 private:
  bool on_ = false;
  std::string note_;
};

}  // namespace gp::prof
