// How far the simulator's figures may be off, read from the fidelity corpus's check rows
// (tests/data/published/llm_training.json, docs/simulator-fidelity.md): the share either side
// of a simulated step or peak within which four in five published runs (step) and four in five
// published peaks of 16 GiB and more (memory: 12 of 15) fall. A figure is shown with its band, and a plan is called
// faster than another only when its gain exceeds the step's band (tests/unit/core/
// parallel_fidelity_test.cpp holds both shares to the corpus).
#pragma once

namespace gp {

inline constexpr double kStepErrorShare = 0.21;    // check rows' simulated / published: 80th percentile x1.21
inline constexpr double kMemoryErrorShare = 0.15;  // 12 of 15 published peaks >= 16 GiB within 15 %

struct Band {
  double low = 0, high = 0;
};

// A simulated step's band: low = step / (1 + share), high = step x (1 + share).
inline Band stepBand(double stepSeconds, double share = kStepErrorShare) {
  return {stepSeconds / (1 + share), stepSeconds * (1 + share)};
}

// Whether a plan `speedup` x as fast as another (its step / the other's step) is faster beyond
// the band: the gain exceeds what the simulator's own error could make of equal plans.
inline bool fasterBeyondBand(double speedup, double share = kStepErrorShare) { return speedup > 1 + share; }

}  // namespace gp
